import Foundation

/// One animatable key path: its value kind and how to read and write it in a layer's state.
/// `AnimatableKeyPath.table` is the one place that knows the key paths. A class, so that an
/// animation hands its entry around each frame without copying closures.
package final class AnimatableKeyPath {
    package let kind: AnimatedValueKind
    private let access: Access
    /// Whether animations change it; `false` for the properties that only key-value coding
    /// reaches through the table (`name`, `contentsScale`, `geometryFlipped`, …).
    let isAnimatable: Bool
    /// Which layers have the property, for a typed layer's (`path`, `colors`, `birthRate`, …);
    /// `nil` for every layer's. On other layers the key is the program's own, as on Apple's
    /// `CALayer`, whose key-value coding stores any key that is not one of the class's
    /// properties (a plain layer's `"spin"` or `"scale"` is not the emitter's).
    private let owner: ((LayerSnapshot.Kind) -> Bool)?
    /// Whether this is a key of the program's own (`custom(_:kind:initial:)`).
    let isCustom: Bool
    /// What `nil` sets where the property gives it a meaning of its own (a replicator's
    /// `instanceColor`: opaque white); otherwise the kind's "none". Set once, in the table.
    private var nilMeaning: AnimatedValue?

    /// For a property that may hold no value (a colour that is `nil`): whether it holds none,
    /// and how to make it hold none. Key-value coding reads and sets `nil` through these, where
    /// animations read and write transparent black.
    private var optional: (isNil: (AnimatedLayerState) -> Bool, setNil: (inout AnimatedLayerState) -> Void)?

    /// How setting `nil` through key-value coding empties the property, where it can be empty.
    var setNil: ((inout AnimatedLayerState) -> Void)? { optional?.setNil }

    /// What setting `nil` through key-value coding sets.
    var noneValue: AnimatedValue? { nilMeaning ?? kind.noneValue }

    /// The value in `state` as key-value coding returns it: boxed as Apple boxes it for Swift,
    /// or `nil` where the property holds none.
    func boxedValue(_ state: AnimatedLayerState) -> Any? {
        optional?.isNil(state) == true ? nil : kind.boxed(read(state))
    }

    /// This entry, as a property that may hold no value (see `optional`).
    private func optional(isNil: @escaping (AnimatedLayerState) -> Bool,
                          setNil: @escaping (inout AnimatedLayerState) -> Void) -> AnimatableKeyPath {
        optional = (isNil, setNil)
        return self
    }

    /// This entry, with `nil` meaning `value` (see `noneValue`).
    private func settingNil(to value: AnimatedValue) -> AnimatableKeyPath {
        nilMeaning = value
        return self
    }

    private enum Access {
        case closures(read: (AnimatedLayerState) -> AnimatedValue, write: (inout AnimatedLayerState, AnimatedValue) -> Void)
        /// A `transform.…` component, read and written through the transform's decomposition.
        case component(TransformComponent, of: TransformProperty)
    }

    init(kind: AnimatedValueKind, read: @escaping (AnimatedLayerState) -> AnimatedValue,
         write: @escaping (inout AnimatedLayerState, AnimatedValue) -> Void,
         owner: ((LayerSnapshot.Kind) -> Bool)? = nil, isCustom: Bool = false) {
        self.kind = kind
        access = .closures(read: read, write: write)
        isAnimatable = true
        self.owner = owner
        self.isCustom = isCustom
    }

    private init(_ c: TransformComponent, of t: TransformProperty) {
        kind = c.count == 1 ? .number : .point
        access = .component(c, of: t)
        isAnimatable = true
        owner = nil
        isCustom = false
    }

    /// `entry`, reached by key-value coding only.
    init(fixed entry: AnimatableKeyPath) {
        kind = entry.kind
        access = entry.access
        isAnimatable = false
        owner = entry.owner
        isCustom = entry.isCustom
        optional = entry.optional
    }

    /// Whether a layer whose snapshot is of `kind` has this property.
    func belongs(to kind: LayerSnapshot.Kind) -> Bool { owner?(kind) ?? true }

    /// The value in `state`.
    package func read(_ state: AnimatedLayerState) -> AnimatedValue {
        var parts: TransformParts?
        return read(state, keeping: &parts)
    }

    /// `state` with the value replaced by `value`.
    package func write(_ state: inout AnimatedLayerState, _ value: AnimatedValue) {
        var parts: TransformParts?
        write(&state, value, keeping: &parts)
    }

    /// The value in `state`; a transform component's decomposition is taken from `parts` when
    /// that is of the same transform, and left there for the next frame.
    func read(_ state: AnimatedLayerState, keeping parts: inout TransformParts?) -> AnimatedValue {
        switch access {
        case let .closures(read, _): return read(state)
        case let .component(c, t): return .components(c.read(TransformParts.of(t.get(state.properties), keeping: &parts)))
        }
    }

    /// `state` with the value replaced by `value`; `parts` as for `read(_:keeping:)`.
    func write(_ state: inout AnimatedLayerState, _ value: AnimatedValue, keeping parts: inout TransformParts?) {
        switch access {
        case let .closures(_, write): write(&state, value)
        case let .component(c, t): t.set(&state.properties, c.write(Self.vector(value), into: TransformParts.of(t.get(state.properties), keeping: &parts)))
        }
    }

    /// Writes a property animation's value at `phase` into `state`. `values` gives the value
    /// and, for `isCumulative`, the start and end of a pass, from the value beneath (handed to
    /// it as a function): most animations state both ends and replace the value, and the value
    /// beneath is then never read. `parts` as for `read(_:keeping:)`.
    func apply(at phase: AnimationPhase, isAdditive: Bool, isCumulative: Bool, to state: inout AnimatedLayerState,
               keeping parts: inout TransformParts?,
               values: (_ underlying: () -> AnimatedValue) -> (value: AnimatedValue, start: AnimatedValue, end: AnimatedValue)?) {
        var read: AnimatedValue?
        func underlying() -> AnimatedValue {
            if let read { return read }
            let value = self.read(state, keeping: &parts)
            read = value
            return value
        }
        guard let (first, start, end) = values(underlying) else { return }
        var value = first
        if isCumulative, phase.iteration > 0 {
            let step = AnimatedValueKind.subtract(end, start)
            value = AnimatedValueKind.add(AnimatedValueKind.scaled(step, by: phase.iteration), value)
        }
        write(&state, isAdditive ? AnimatedValueKind.add(value, underlying()) : value, keeping: &parts)
    }

    /// The entry for `keyPath`, or `nil` when it is not animatable.
    package static func named(_ keyPath: String) -> AnimatableKeyPath? {
        guard let entry = table[keyPath] ?? emitterCell(keyPath), entry.isAnimatable else { return nil }
        return entry
    }

    /// The entry of property `keyPath`, animatable or not, for key-value coding; `nil` when
    /// it is not a property.
    static func property(_ keyPath: String) -> AnimatableKeyPath? { table[keyPath] ?? emitterCell(keyPath) }

    /// `property(_:)` where a layer of `kind` has it; `nil` for a key of another layer type.
    static func property(_ keyPath: String, of kind: LayerSnapshot.Kind) -> AnimatableKeyPath? {
        property(keyPath).flatMap { $0.belongs(to: kind) ? $0 : nil }
    }

    /// The entry of a key that is not a property (stored by key-value coding, see
    /// `CALayer.setValue(_:forKey:)`), for values of `kind`; an unset key reads as `initial`
    /// (the class's `defaultValue(forKey:)`). Made for each animation of such a key when it is
    /// added to a layer: the table cannot know the kinds of keys a program makes up.
    static func custom(_ key: String, kind: AnimatedValueKind, initial: Any?) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: kind, read: { kind.convert($0.custom[key] ?? initial) ?? kind.absentValue },
                          write: { s, v in s.custom[key] = kind.boxed(v) }, isCustom: true)
    }

    /// Every animatable key path.
    static var names: [String] { table.filter(\.value.isAnimatable).keys.sorted() }

    static func vector(_ v: AnimatedValue) -> [Double] { v.components ?? [] }

    /// The number of a `.number` value (0 for any other).
    static func number(_ v: AnimatedValue) -> Double {
        if case let .number(x) = v { return x }
        return 0
    }

    private static func number<T: BinaryFloatingPoint>(_ kp: WritableKeyPath<LayerProperties, T>) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: .number, read: { .number(Double($0.properties[keyPath: kp])) },
                          write: { s, v in s.properties[keyPath: kp] = T(number(v)) })
    }

    private static func point(_ kp: WritableKeyPath<LayerProperties, CGPoint>) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: .point, read: { s in
            let p = s.properties[keyPath: kp]
            return .vector([Double(p.x), Double(p.y)])
        },
                          write: { s, v in
                              let x = vector(v)
                              s.properties[keyPath: kp] = CGPoint(x: x[0], y: x[1])
                          })
    }

    private static func rect(_ kp: WritableKeyPath<LayerProperties, CGRect>) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: .rect, read: { s in .rect(s.properties[keyPath: kp]) },
                          write: { s, v in
                              let x = vector(v)
                              s.properties[keyPath: kp] = CGRect(x: x[0], y: x[1], width: x[2], height: x[3])
                          })
    }

    private static func color(_ kp: WritableKeyPath<LayerProperties, CGColor?>) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: .color, read: { s in .color(s.properties[keyPath: kp]) },
                          write: { s, v in s.properties[keyPath: kp] = .color(v) })
            .optional(isNil: { $0.properties[keyPath: kp] == nil }, setNil: { $0.properties[keyPath: kp] = nil })
    }

    private static func bool(_ kp: WritableKeyPath<LayerProperties, Bool>) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: .bool, read: { s in .bool(s.properties[keyPath: kp]) },
                          write: { s, v in if case let .bool(b) = v { s.properties[keyPath: kp] = b } })
    }

    /// A component of `rect` or a point: `indices` of the vector `whole` reads.
    private static func part(of whole: AnimatableKeyPath, _ indices: [Int], _ kind: AnimatedValueKind) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: kind, read: { s in .components(indices.map { vector(whole.read(s))[$0] }) },
                          write: { s, v in
                              var x = vector(whole.read(s))
                              for (i, c) in zip(indices, vector(v)) { x[i] = c }
                              whole.write(&s, .vector(x))
                          })
    }

    /// A transform property, read and written by closures rather than a key path: a key path
    /// held in a variable is applied through the runtime, several times slower.
    private typealias TransformProperty = (get: (LayerProperties) -> CATransform3D, set: (inout LayerProperties, CATransform3D) -> Void)

    /// A typed layer's number or colour, read only from layers of that type.
    static func styled<Style>(_ kind: AnimatedValueKind, _ extract: @escaping (LayerSnapshot.Kind) -> Style?,
                                      _ wrap: @escaping (Style) -> LayerSnapshot.Kind,
                                      _ get: @escaping (Style) -> AnimatedValue, _ set: @escaping (inout Style, AnimatedValue) -> Void) -> AnimatableKeyPath {
        AnimatableKeyPath(kind: kind, read: { s in extract(s.kind).map(get) ?? kind.absentValue },
                          write: { s, v in if var style = extract(s.kind) {
                              set(&style, v)
                              s.kind = wrap(style)
                          } }, owner: { extract($0) != nil })
    }

    private static func shape(_ kp: WritableKeyPath<ShapeStyle, CGFloat>) -> AnimatableKeyPath {
        styled(.number, { if case let .shape(x) = $0 { x } else { nil } }, { .shape($0) },
               { .number(Double($0[keyPath: kp])) }, { $0[keyPath: kp] = CGFloat(number($1)) })
    }

    private static func shapeColor(_ kp: WritableKeyPath<ShapeStyle, CGColor?>) -> AnimatableKeyPath {
        styled(.color, { if case let .shape(x) = $0 { x } else { nil } }, { .shape($0) },
               { .color($0[keyPath: kp]) }, { $0[keyPath: kp] = .color($1) })
            .optional(isNil: { s in if case let .shape(x) = s.kind { x[keyPath: kp] == nil } else { false } },
                      setNil: { s in if case var .shape(x) = s.kind {
                          x[keyPath: kp] = nil
                          s.kind = .shape(x)
                      } })
    }

    private static func gradientPoint(_ kp: WritableKeyPath<GradientStyle, CGPoint>) -> AnimatableKeyPath {
        styled(.point, { if case let .gradient(x) = $0 { x } else { nil } }, { .gradient($0) },
               { .vector([Double($0[keyPath: kp].x), Double($0[keyPath: kp].y)]) },
               {
                   let x = vector($1)
                   $0[keyPath: kp] = CGPoint(x: x[0], y: x[1])
               })
    }

    private static func gradient<T>(_ kind: AnimatedValueKind, _ kp: WritableKeyPath<GradientStyle, [T]?>, width: Int,
                                    _ get: @escaping (T) -> [Double], _ set: @escaping ([Double]) -> T) -> AnimatableKeyPath {
        styled(kind, { if case let .gradient(x) = $0 { x } else { nil } }, { .gradient($0) },
               { .components(($0[keyPath: kp] ?? []).flatMap(get)) },
               {
                   let x = vector($1)
                   $0[keyPath: kp] = x.isEmpty ? nil : stride(from: 0, to: x.count - width + 1, by: width).map { set(Array(x[$0..<$0 + width])) }
               })
            .optional(isNil: { s in if case let .gradient(x) = s.kind { x[keyPath: kp] == nil } else { false } },
                      setNil: { s in if case var .gradient(x) = s.kind {
                          x[keyPath: kp] = nil
                          s.kind = .gradient(x)
                      } })
    }

    private static func text<T>(_ kind: AnimatedValueKind, _ kp: WritableKeyPath<TextStyle, T>,
                                _ get: @escaping (T) -> AnimatedValue, _ set: @escaping (AnimatedValue) -> T) -> AnimatableKeyPath {
        styled(kind, { if case let .text(x) = $0 { x } else { nil } }, { .text($0) },
               { get($0[keyPath: kp]) }, { $0[keyPath: kp] = set($1) })
    }

    /// A replicator's property.
    private static func replicator<T>(_ kind: AnimatedValueKind, _ kp: WritableKeyPath<ReplicatorStyle, T>,
                                      _ get: @escaping (T) -> AnimatedValue, _ set: @escaping (AnimatedValue) -> T) -> AnimatableKeyPath {
        styled(kind, { if case let .replicator(x) = $0 { x } else { nil } }, { .replicator($0) },
               { get($0[keyPath: kp]) }, { $0[keyPath: kp] = set($1) })
    }

    /// A tiled layer's property.
    private static func tiled<T>(_ kind: AnimatedValueKind, _ kp: WritableKeyPath<TiledLayerStyle, T>,
                                 _ get: @escaping (T) -> AnimatedValue, _ set: @escaping (AnimatedValue) -> T?) -> AnimatableKeyPath {
        AnimatableKeyPath(fixed: styled(kind, { if case let .tiled(x) = $0 { x } else { nil } }, { .tiled($0) },
                                        { get($0[keyPath: kp]) }, { style, v in if let x = set(v) { style[keyPath: kp] = x } }))
    }

    private static func replicatorOffset(_ kp: WritableKeyPath<ReplicatorStyle, Float>) -> AnimatableKeyPath {
        replicator(.number, kp, { .number(Double($0)) }, { Float(number($0)) })
    }

    /// A string property of the layer (`name`).
    private static func string(_ kp: WritableKeyPath<LayerProperties, String?>) -> AnimatableKeyPath {
        AnimatableKeyPath(fixed: AnimatableKeyPath(kind: .string, read: { .string($0.properties[keyPath: kp]) },
                                                   write: { s, v in if case let .string(x) = v { s.properties[keyPath: kp] = x } }))
    }

    /// A string constant of the layer (`contentsGravity`, …), as its raw value.
    private static func constant<T: RawRepresentable>(_ kp: WritableKeyPath<LayerProperties, T>) -> AnimatableKeyPath where T.RawValue == String {
        AnimatableKeyPath(fixed: AnimatableKeyPath(kind: .string, read: { .string($0.properties[keyPath: kp].rawValue) },
                                                   write: { s, v in
                                                       if case let .string(x?) = v, let c = T(rawValue: x) { s.properties[keyPath: kp] = c }
                                                   }))
    }

    /// A string or string constant of a typed layer's style.
    static func styledString<Style, T>(_ extract: @escaping (LayerSnapshot.Kind) -> Style?, _ wrap: @escaping (Style) -> LayerSnapshot.Kind,
                                               _ kp: WritableKeyPath<Style, T>, _ raw: @escaping (T) -> String?,
                                               _ make: @escaping (String?) -> T?) -> AnimatableKeyPath {
        AnimatableKeyPath(fixed: styled(.string, extract, wrap, { .string(raw($0[keyPath: kp])) },
                                        { style, v in if case let .string(x) = v, let t = make(x) { style[keyPath: kp] = t } }))
    }

    private static func shapeConstant<T: RawRepresentable>(_ kp: WritableKeyPath<ShapeStyle, T>) -> AnimatableKeyPath where T.RawValue == String {
        styledString({ if case let .shape(x) = $0 { x } else { nil } }, { .shape($0) }, kp, { $0.rawValue }, { $0.flatMap(T.init(rawValue:)) })
    }

    private static func textString<T>(_ kp: WritableKeyPath<TextStyle, T>, _ raw: @escaping (T) -> String?,
                                      _ make: @escaping (String?) -> T?) -> AnimatableKeyPath {
        styledString({ if case let .text(x) = $0 { x } else { nil } }, { .text($0) }, kp, raw, make)
    }

    /// The properties that key-value coding reaches and animations do not change.
    private static let settings: [String: AnimatableKeyPath] = [
        "name": string(\.name), "contentsGravity": constant(\.contentsGravity),
        "minificationFilter": constant(\.minificationFilter), "magnificationFilter": constant(\.magnificationFilter),
        "cornerCurve": constant(\.cornerCurve),
        "contentsScale": AnimatableKeyPath(fixed: number(\.contentsScale)),
        "rasterizationScale": AnimatableKeyPath(fixed: number(\.rasterizationScale)),
        "shouldRasterize": AnimatableKeyPath(fixed: bool(\.shouldRasterize)),
        "allowsGroupOpacity": AnimatableKeyPath(fixed: bool(\.allowsGroupOpacity)),
        "allowsEdgeAntialiasing": AnimatableKeyPath(fixed: bool(\.allowsEdgeAntialiasing)),
        "geometryFlipped": AnimatableKeyPath(fixed: bool(\.isGeometryFlipped)),
        "fillRule": shapeConstant(\.fillRule), "lineCap": shapeConstant(\.lineCap), "lineJoin": shapeConstant(\.lineJoin),
        "lineDashPattern": AnimatableKeyPath(fixed: styled(.numbers, { if case let .shape(x) = $0 { x } else { nil } }, { .shape($0) },
                                                           { .components(($0.lineDashPattern ?? []).map(Double.init)) },
                                                           { style, v in
                                                               let x = vector(v)
                                                               style.lineDashPattern = x.isEmpty ? nil : x.map { CGFloat($0) }
                                                           })),
        "type": AnimatableKeyPath(fixed: styled(.string, { if case let .gradient(x) = $0 { x } else { nil } }, { .gradient($0) },
                                                { .string($0.type.rawValue) },
                                                { style, v in
                                                    if case let .string(x?) = v, let t = CAGradientLayerType(rawValue: x) { style.type = t }
                                                })),
        "string": textString(\.string, { $0 }, { .some($0) }), "font": textString(\.font, { $0 }, { .some($0) }),
        "alignmentMode": textString(\.alignmentMode, { $0.rawValue }, { $0.flatMap(CATextLayerAlignmentMode.init(rawValue:)) }),
        "truncationMode": textString(\.truncationMode, { $0.rawValue }, { $0.flatMap(CATextLayerTruncationMode.init(rawValue:)) }),
        // Whole numbers beyond ±9e18 are held at that bound: `Int` of a larger Double traps.
        "instanceCount": AnimatableKeyPath(fixed: replicator(.number, \.instanceCount, { .number(Double($0)) },
                                                             { Int(min(max(number($0), -9e18), 9e18)) })),
        "preservesDepth": AnimatableKeyPath(fixed: replicator(.bool, \.preservesDepth, { .bool($0) },
                                                              { if case let .bool(b) = $0 { b } else { false } })),
        "levelsOfDetail": tiled(.number, \.levelsOfDetail, { .number(Double($0)) }, { Int(min(max(number($0), -9e18), 9e18)) }),
        "levelsOfDetailBias": tiled(.number, \.levelsOfDetailBias, { .number(Double($0)) }, { Int(min(max(number($0), -9e18), 9e18)) }),
        "tileSize": tiled(.size, \.tileSize, { .vector([Double($0.width), Double($0.height)]) }, { v in
            let x = vector(v)
            return x.count == 2 && x.allSatisfy(\.isFinite) ? CGSize(width: x[0], height: x[1]) : nil
        }),
        "scrollMode": styledString({ if case let .scroll(x) = $0 { x } else { nil } }, { .scroll($0) }, \.self, { $0.rawValue },
                                   { $0.flatMap(CAScrollLayerScrollMode.init(rawValue:)) }),
        "wrapped": AnimatableKeyPath(fixed: styled(.bool, { if case let .text(x) = $0 { x } else { nil } }, { .text($0) },
                                                   { .bool($0.isWrapped) }, { style, v in if case let .bool(b) = v { style.isWrapped = b } })),
    ]

    private static let table: [String: AnimatableKeyPath] = {
        let position = point(\.position), bounds = rect(\.bounds)
        var t: [String: AnimatableKeyPath] = [
            "position": position, "position.x": part(of: position, [0], .number), "position.y": part(of: position, [1], .number),
            "bounds": bounds, "bounds.origin": part(of: bounds, [0, 1], .point), "bounds.size": part(of: bounds, [2, 3], .size),
            "bounds.size.width": part(of: bounds, [2], .number), "bounds.size.height": part(of: bounds, [3], .number),
            "anchorPoint": point(\.anchorPoint), "anchorPointZ": number(\.anchorPointZ), "zPosition": number(\.zPosition),
            "opacity": number(\.opacity), "hidden": bool(\.isHidden), "backgroundColor": color(\.backgroundColor),
            "cornerRadius": number(\.cornerRadius), "borderWidth": number(\.borderWidth), "borderColor": color(\.borderColor),
            "masksToBounds": bool(\.masksToBounds), "doubleSided": bool(\.isDoubleSided),
            "contentsRect": rect(\.contentsRect), "contentsCenter": rect(\.contentsCenter),
            "shadowColor": color(\.shadowColor), "shadowOpacity": number(\.shadowOpacity),
            "shadowOffset": AnimatableKeyPath(kind: .size, read: { s in .vector([Double(s.properties.shadowOffset.width), Double(s.properties.shadowOffset.height)]) },
                                              write: { s, v in
                                                  let x = vector(v)
                                                  s.properties.shadowOffset = CGSize(width: x[0], height: x[1])
                                              }),
            "shadowRadius": number(\.shadowRadius),
            "fillColor": shapeColor(\.fillColor), "strokeColor": shapeColor(\.strokeColor),
            "lineWidth": shape(\.lineWidth), "lineDashPhase": shape(\.lineDashPhase), "miterLimit": shape(\.miterLimit),
            "strokeStart": shape(\.strokeStart), "strokeEnd": shape(\.strokeEnd),
            "startPoint": gradientPoint(\.startPoint), "endPoint": gradientPoint(\.endPoint),
            "colors": gradient(.colors, \.colors, width: 4, { $0.components.map(Double.init) }, { CGColor.color(.vector($0))! }),
            "locations": gradient(.numbers, \.locations, width: 1, { [Double($0)] }, { CGFloat($0[0]) }),
            "path": styled(.path, { if case let .shape(x) = $0 { x } else { nil } }, { .shape($0) },
                           { .path($0.path) }, { if case let .path(p) = $1 { $0.path = p } }),
            "shadowPath": AnimatableKeyPath(kind: .path, read: { .path($0.properties.shadowPath) },
                                            write: { s, v in if case let .path(p) = v { s.properties.shadowPath = p } }),
            "contents": AnimatableKeyPath(kind: .image, read: { .image($0.properties.contents) },
                                          write: { s, v in if case let .image(i) = v { s.properties.contents = i } }),
            "instanceTransform": replicator(.transform, \.instanceTransform, { .transform($0) },
                                            { if case let .transform(m) = $0 { m } else { .identity } }),
            "instanceColor": replicator(.color, \.instanceColor, { .color($0 ?? .white) }, { .color($0) })
                .settingNil(to: .color(.white)),
            "instanceDelay": replicator(.number, \.instanceDelay, { .number($0) }, { number($0) }),
            "instanceRedOffset": replicatorOffset(\.instanceRedOffset), "instanceGreenOffset": replicatorOffset(\.instanceGreenOffset),
            "instanceBlueOffset": replicatorOffset(\.instanceBlueOffset), "instanceAlphaOffset": replicatorOffset(\.instanceAlphaOffset),
            "fontSize": text(.number, \.fontSize, { .number(Double($0)) }, { CGFloat(number($0)) }),
            "foregroundColor": text(.color, \.foregroundColor, { .color($0) }, { .color($0) }),
        ]
        let transforms: [(String, TransformProperty)] = [("transform", ({ $0.transform }, { $0.transform = $1 })),
                                                         ("sublayerTransform", ({ $0.sublayerTransform }, { $0.sublayerTransform = $1 }))]
        for (name, property) in transforms {
            t[name] = AnimatableKeyPath(kind: .transform, read: { .transform(property.get($0.properties)) },
                                        write: { s, v in if case let .transform(m) = v { property.set(&s.properties, m) } })
            for c in TransformComponent.allCases { t[name + "." + c.rawValue] = AnimatableKeyPath(c, of: property) }
        }
        return t.merging(settings) { animatable, _ in animatable }.merging(emitterEntries) { existing, _ in existing }
    }()
}

extension AnimatedValue {
    static func rect(_ r: CGRect) -> AnimatedValue {
        .vector([Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)])
    }

    /// A colour's straight RGBA; no colour reads as transparent black, as in Core Animation.
    static func color(_ c: CGColor?) -> AnimatedValue { .vector((c ?? .clear).components.map(Double.init)) }
}

extension CGPath {
    /// `a` and `b` mixed point by point at fraction `p`, or `nil` when their elements differ
    /// in kind or number (Core Animation then switches from one to the other).
    static func interpolate(_ a: CGPath, _ b: CGPath, _ p: Double) -> CGPath? {
        guard a.elements.count == b.elements.count else { return nil }
        func mix(_ x: CGPoint, _ y: CGPoint) -> CGPoint { CGPoint(x: x.x + (y.x - x.x) * p, y: x.y + (y.y - x.y) * p) }
        var elements: [Element] = []
        elements.reserveCapacity(a.elements.count)
        for (x, y) in zip(a.elements, b.elements) {
            switch (x, y) {
            case let (.moveTo(u), .moveTo(v)): elements.append(.moveTo(mix(u, v)))
            case let (.lineTo(u), .lineTo(v)): elements.append(.lineTo(mix(u, v)))
            case let (.quadCurveTo(u, c), .quadCurveTo(v, d)): elements.append(.quadCurveTo(mix(u, v), control: mix(c, d)))
            case let (.curveTo(u, c1, c2), .curveTo(v, d1, d2)):
                elements.append(.curveTo(mix(u, v), control1: mix(c1, d1), control2: mix(c2, d2)))
            case (.closeSubpath, .closeSubpath): elements.append(.closeSubpath)
            default: return nil
            }
        }
        return CGPath(elements: elements)
    }
}

extension CGColor {
    /// The colour of a vector value (components clamped to 0…1).
    static func color(_ v: AnimatedValue) -> CGColor? {
        guard case let .vector(x) = v, x.count == 4 else { return nil }
        let c = x.map { CGFloat(min(max($0, 0), 1)) }
        return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}

/// The `transform.…` sub-paths: one component of a transform's decomposition.
enum TransformComponent: String, CaseIterable {
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation
    case scale, scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z"
    case translation, translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"

    var count: Int { self == .translation ? 2 : 1 }

    /// The component's value in the transform of `p` (angles in radians, about one axis).
    func read(_ p: TransformParts) -> [Double] {
        let d = p.parts, rm = p.rotation
        switch self {
        case .rotationX: return [Double(atan2(rm.m23, rm.m22))]
        case .rotationY: return [Double(atan2(-rm.m13, rm.m11))]
        case .rotationZ, .rotation: return [Double(atan2(rm.m12, rm.m11))]
        case .scale, .scaleX: return [d.scale[0]]
        case .scaleY: return [d.scale[1]]
        case .scaleZ: return [d.scale[2]]
        case .translation: return [d.translation[0], d.translation[1]]
        case .translationX: return [d.translation[0]]
        case .translationY: return [d.translation[1]]
        case .translationZ: return [d.translation[2]]
        }
    }

    /// The transform of `p` with this component replaced by `v` (a rotation replaces the whole
    /// rotation).
    func write(_ v: [Double], into p: TransformParts) -> CATransform3D {
        func rotation(_ axis: Int) -> CATransform3D {
            var q = (0.0, 0.0, 0.0, cos(v[0] / 2))
            switch axis {
            case 0: q.0 = sin(v[0] / 2)
            case 1: q.1 = sin(v[0] / 2)
            default: q.2 = sin(v[0] / 2)
            }
            return p.leading.concatenating(DecomposedTransform.rotation(q.0, q.1, q.2, q.3)).concatenating(p.trailing)
        }
        switch self {
        case .rotationX: return rotation(0)
        case .rotationY: return rotation(1)
        case .rotationZ, .rotation: return rotation(2)
        default: break
        }
        var d = p.parts
        switch self {
        case .rotationX, .rotationY, .rotationZ, .rotation: break
        case .scale: d.scale = [v[0], v[0], v[0]]
        case .scaleX: d.scale[0] = v[0]
        case .scaleY: d.scale[1] = v[0]
        case .scaleZ: d.scale[2] = v[0]
        case .translation: d.translation[0] = v[0]
            d.translation[1] = v[1]
        case .translationX: d.translation[0] = v[0]
        case .translationY: d.translation[1] = v[0]
        case .translationZ: d.translation[2] = v[0]
        }
        return d.matrix
    }
}

/// A transform's decomposition and the matrices its components are read from and written
/// through: the rotation alone, and what acts before and after it. A class, so that handing
/// the kept parts out each frame copies nothing.
final class TransformParts: Sendable {
    /// The transform decomposed.
    let transform: CATransform3D
    let parts: DecomposedTransform
    let rotation: CATransform3D
    let leading: CATransform3D
    let trailing: CATransform3D

    /// The parts of `m`; a matrix that cannot be decomposed reads as the identity's.
    init(_ m: CATransform3D) {
        transform = m
        parts = DecomposedTransform(m) ?? DecomposedTransform(.identity)!
        var r = parts
        r.translation = [0, 0, 0]
        r.scale = [1, 1, 1]
        r.skew = [0, 0, 0]
        r.perspective = [0, 0, 0, 1]
        rotation = r.matrix
        leading = parts.leading
        trailing = parts.trailing
    }
}

extension TransformParts {
    /// The parts of `m`: `kept` when it is of `m` bit for bit (a signed zero or a NaN payload
    /// can change what the decomposition gives), else new ones, which are kept. An animation
    /// keeps the parts of the transform beneath it: one that does not change is decomposed
    /// once, not twice a frame.
    static func of(_ m: CATransform3D, keeping kept: inout TransformParts?) -> TransformParts {
        if let kept, identical(kept.transform, m) { return kept }
        let parts = identical(m, .identity) ? identity : TransformParts(m)
        kept = parts
        return parts
    }

    /// The parts of the identity, the usual model transform: shared by every animation over
    /// one, so that thousands of them read one object rather than one each.
    private static let identity = TransformParts(.identity)

    private static func identical(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }
}
