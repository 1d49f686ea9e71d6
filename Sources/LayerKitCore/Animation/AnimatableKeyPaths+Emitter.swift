import Foundation

// The key paths of `CAEmitterLayer` and of its cells (`emitterCells.NAME.PROPERTY`, Apple's
// way to reach a cell by its `name`), animatable where Apple marks them animatable.

extension AnimatableKeyPath {
    private static func emitter(_ kind: AnimatedValueKind, _ get: @escaping (EmitterStyle) -> AnimatedValue,
                                _ set: @escaping (inout EmitterStyle, AnimatedValue) -> Void) -> AnimatableKeyPath {
        styled(kind, { if case let .emitter(x) = $0 { x } else { nil } }, { .emitter($0) }, get, set)
    }

    private static func emitterNumber<T: BinaryFloatingPoint>(_ kp: WritableKeyPath<EmitterStyle, T>) -> AnimatableKeyPath {
        emitter(.number, { .number(Double($0[keyPath: kp])) }, { $0[keyPath: kp] = T(number($1)) })
    }

    private static func emitterConstant<T: RawRepresentable>(_ kp: WritableKeyPath<EmitterStyle, T>) -> AnimatableKeyPath
        where T.RawValue == String {
        styledString({ if case let .emitter(x) = $0 { x } else { nil } }, { .emitter($0) }, kp, { $0.rawValue },
                     { $0.flatMap(T.init(rawValue:)) })
    }

    /// The emitter layer's own key paths.
    static let emitterEntries: [String: AnimatableKeyPath] = [
        "birthRate": emitterNumber(\.birthRate), "lifetime": emitterNumber(\.lifetime),
        "velocity": emitterNumber(\.velocity), "scale": emitterNumber(\.scale), "spin": emitterNumber(\.spin),
        "emitterZPosition": emitterNumber(\.emitterZPosition), "emitterDepth": emitterNumber(\.emitterDepth),
        "emitterPosition": emitter(.point, { .vector([Double($0.emitterPosition.x), Double($0.emitterPosition.y)]) },
                                   { style, v in
                                       let x = vector(v)
                                       style.emitterPosition = CGPoint(x: x[0], y: x[1])
                                   }),
        "emitterSize": emitter(.size, { .vector([Double($0.emitterSize.width), Double($0.emitterSize.height)]) },
                               { style, v in
                                   let x = vector(v)
                                   style.emitterSize = CGSize(width: x[0], height: x[1])
                               }),
        "emitterShape": emitterConstant(\.emitterShape), "emitterMode": emitterConstant(\.emitterMode),
        "renderMode": emitterConstant(\.renderMode),
    ]

    /// A cell property: its kind, how it is read and written, and whether Apple animates it.
    private struct CellProperty {
        let kind: AnimatedValueKind
        let get: (EmitterCellProperties) -> AnimatedValue
        let set: (inout EmitterCellProperties, AnimatedValue) -> Void
        var isAnimatable = true

        static func number<T: BinaryFloatingPoint>(_ kp: WritableKeyPath<EmitterCellProperties, T>) -> CellProperty {
            CellProperty(kind: .number, get: { .number(Double($0[keyPath: kp])) }, set: { $0[keyPath: kp] = T(AnimatableKeyPath.number($1)) })
        }
    }

    /// The cell properties by their key-value coding names (Apple's: `enabled` for `isEnabled`).
    private static let cellProperties: [String: CellProperty] = {
        var p: [String: CellProperty] = [
            "birthRate": .number(\.birthRate), "lifetime": .number(\.lifetime), "lifetimeRange": .number(\.lifetimeRange),
            "emissionLatitude": .number(\.emissionLatitude), "emissionLongitude": .number(\.emissionLongitude),
            "emissionRange": .number(\.emissionRange), "velocity": .number(\.velocity), "velocityRange": .number(\.velocityRange),
            "xAcceleration": .number(\.xAcceleration), "yAcceleration": .number(\.yAcceleration),
            "zAcceleration": .number(\.zAcceleration), "scale": .number(\.scale), "scaleRange": .number(\.scaleRange),
            "scaleSpeed": .number(\.scaleSpeed), "spin": .number(\.spin), "spinRange": .number(\.spinRange),
            "redRange": .number(\.redRange), "greenRange": .number(\.greenRange), "blueRange": .number(\.blueRange),
            "alphaRange": .number(\.alphaRange), "redSpeed": .number(\.redSpeed), "greenSpeed": .number(\.greenSpeed),
            "blueSpeed": .number(\.blueSpeed), "alphaSpeed": .number(\.alphaSpeed),
            "color": CellProperty(kind: .color, get: { .color($0.color) }, set: { $0.color = .color($1) }),
            "contents": CellProperty(kind: .image, get: { .image($0.contents) }, set: { if case let .image(i) = $1 { $0.contents = i } }),
            "contentsRect": CellProperty(kind: .rect, get: { .rect($0.contentsRect) }, set: {
                let x = vector($1)
                $0.contentsRect = CGRect(x: x[0], y: x[1], width: x[2], height: x[3])
            }),
        ]
        p["enabled"] = CellProperty(kind: .bool, get: { .bool($0.isEnabled) }, set: { if case let .bool(b) = $1 { $0.isEnabled = b } },
                                    isAnimatable: false)
        p["contentsScale"] = CellProperty(kind: .number, get: { .number(Double($0.contentsScale)) },
                                          set: { $0.contentsScale = CGFloat(number($1)) }, isAnimatable: false)
        return p
    }()

    /// The entry of `emitterCells.NAME.PROPERTY`: the property of the first cell named NAME of
    /// an emitter layer; `nil` when the key path is not of that form. A layer without such a
    /// cell reads the property's absent value and ignores writes.
    static func emitterCell(_ keyPath: String) -> AnimatableKeyPath? {
        let parts = keyPath.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "emitterCells", let property = cellProperties[String(parts[2])] else { return nil }
        let name = String(parts[1])
        let read: (AnimatedLayerState) -> AnimatedValue = { state in
            guard case let .emitter(style) = state.kind, let cell = style.cells.first(where: { $0.name == name }) else {
                return property.kind.absentValue
            }
            return property.get(cell)
        }
        let write: (inout AnimatedLayerState, AnimatedValue) -> Void = { state, value in
            guard case var .emitter(style) = state.kind, let i = style.cells.firstIndex(where: { $0.name == name }) else { return }
            property.set(&style.cells[i], value)
            state.kind = .emitter(style)
        }
        let animatable = AnimatableKeyPath(kind: property.kind, read: read, write: write,
                                           owner: { if case .emitter = $0 { true } else { false } })
        return property.isAnimatable ? animatable : AnimatableKeyPath(fixed: animatable)
    }
}
