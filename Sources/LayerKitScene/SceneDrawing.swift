// Custom drawing in scene files: a layer's "drawing" is a list of operations, each one
// `CGContext` call. `DrawingOperation.all` is the one table of them (name, arguments, call):
// the reader reads by it, the writer writes by it, and the docs test checks
// docs/scene-format.md against the Markdown it makes, so an operation is added in one line.

import Foundation

/// A value of a drawing operation's argument, as read from the file.
enum DrawingValue {
    case number(CGFloat)
    case point(CGPoint)
    case rect(CGRect)
    case points([CGPoint])
    case numbers([CGFloat])
    case color(CGColor)
    case colors([CGColor])
    case word(String)
    case words([String])
    /// Free text, such as the string a text operation draws or a font's name.
    case string(String)
    case bool(Bool)
    case path(CGPath)
    case transform(CGAffineTransform)
    /// An image of the scene's `images`, by name.
    case image(name: String, CGImage)
}

/// One argument of a drawing operation: its key in the operation object, what it holds, and
/// its default (`nil` when it is required).
struct DrawingArgument {
    /// What an argument holds, with how it is spelled and checked.
    enum Kind {
        case number(NumberRange)
        /// A number of degrees, handed to the call in radians.
        case angle
        case point, rect, points, numbers, color, colors, bool, path, image, transform
        /// One of the listed words.
        case word([String])
        /// Any number of the listed words.
        case words([String])
        /// Any string (`allowsEmpty: false`: any but the empty one).
        case string(allowsEmpty: Bool)
    }

    let key: String
    let kind: Kind
    let defaultValue: DrawingValue?

    /// The numbers a number argument accepts.
    enum NumberRange {
        case any, nonNegative, positive, unitInterval

        var rule: ((CGFloat) -> String?)? {
            switch self {
            case .any: return nil
            case .nonNegative: return Rules.nonNegative
            case .positive: return Rules.positive
            case .unitInterval: return Rules.unitInterval
            }
        }

        var spelling: String {
            switch self {
            case .any: return "number"
            case .nonNegative: return "number ≥ 0"
            case .positive: return "number > 0"
            case .unitInterval: return "number 0…1"
            }
        }
    }

    static func number(_ key: String, _ range: NumberRange = .any, default d: CGFloat? = nil) -> Self {
        Self(key: key, kind: .number(range), defaultValue: d.map { .number($0) })
    }
    static func angle(_ key: String) -> Self { Self(key: key, kind: .angle, defaultValue: nil) }
    static func point(_ key: String) -> Self { Self(key: key, kind: .point, defaultValue: nil) }
    static func rect(_ key: String) -> Self { Self(key: key, kind: .rect, defaultValue: nil) }
    static func points(_ key: String) -> Self { Self(key: key, kind: .points, defaultValue: nil) }
    static func numbers(_ key: String, default d: [CGFloat]? = nil) -> Self {
        Self(key: key, kind: .numbers, defaultValue: d.map { .numbers($0) })
    }
    static func color(_ key: String) -> Self { Self(key: key, kind: .color, defaultValue: nil) }
    static func colors(_ key: String) -> Self { Self(key: key, kind: .colors, defaultValue: nil) }
    static func string(_ key: String, allowsEmpty: Bool = true, default d: String? = nil) -> Self {
        Self(key: key, kind: .string(allowsEmpty: allowsEmpty), defaultValue: d.map { .string($0) })
    }
    static func bool(_ key: String, default d: Bool? = nil) -> Self { Self(key: key, kind: .bool, defaultValue: d.map { .bool($0) }) }
    static func path(_ key: String) -> Self { Self(key: key, kind: .path, defaultValue: nil) }
    static func image(_ key: String) -> Self { Self(key: key, kind: .image, defaultValue: nil) }
    static func transform(_ key: String) -> Self { Self(key: key, kind: .transform, defaultValue: nil) }
    static func word<E>(_ key: String, _ names: KeyValuePairs<String, E>, default d: String? = nil) -> Self {
        Self(key: key, kind: .word(names.map(\.key)), defaultValue: d.map { .word($0) })
    }
    static func words<E>(_ key: String, _ names: KeyValuePairs<String, E>) -> Self {
        Self(key: key, kind: .words(names.map(\.key)), defaultValue: .words([]))
    }

    /// Reads the argument from `node`; `image` finds a scene image by name.
    func read(_ node: SceneNode, image: (String) -> CGImage?) throws -> DrawingValue {
        switch kind {
        case .number(let range):
            let v: CGFloat = try node.read(range.rule)
            return .number(v)
        case .angle:
            let v: CGFloat = try node.read()
            return .number(v)
        case .point: return .point(try node.read())
        case .rect: return .rect(try node.read())
        case .points: return .points(try node.elements(shape: "an array of points [x, y]").map { try $0.read() })
        case .numbers:
            let v: [CGFloat] = try node.elements(shape: "an array of numbers").map { try $0.read(Rules.nonNegative) }
            return .numbers(v)
        case .color: return .color(try node.read())
        case .colors:
            let v: [CGColor] = try node.read()
            guard !v.isEmpty else { throw node.error("expected at least one colour") }
            return .colors(v)
        case .bool: return .bool(try node.read())
        case .path: return .path(try CGPath.read(scene: node))
        case .transform:
            let m = try node.numbers(6, shape: "[a, b, c, d, tx, ty]")
            return .transform(CGAffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
        case .image:
            let name: String = try node.read()
            guard let found = image(name) else { throw node.error("no image named \"\(name)\" in images") }
            return .image(name: name, found)
        case .word(let names): return .word(try Self.word(node, names))
        case .words(let names): return .words(try node.elements(shape: "an array of names").map { try Self.word($0, names) })
        case .string(let allowsEmpty):
            let s: String = try node.read()
            guard allowsEmpty || !s.isEmpty else { throw node.error("must not be empty") }
            return .string(s)
        }
    }

    private static func word(_ node: SceneNode, _ names: [String]) throws -> String {
        let s: String = try node.read()
        guard names.contains(s) else { throw node.error("unknown value \"\(s)\"; expected one of \(names.joined(separator: ", "))") }
        return s
    }

    /// The argument's spelling for the docs, e.g. "`[x, y, w, h]`".
    var spelling: String {
        switch kind {
        case .number(let range): return range.spelling
        case .angle: return "number of degrees"
        case .point: return "`[x, y]`"
        case .rect: return "`[x, y, w, h]`"
        case .points: return "`[[x, y], …]`"
        case .numbers: return "`[numbers ≥ 0]`"
        case .color: return "color"
        case .colors: return "`[colors]`"
        case .bool: return "bool"
        case .path: return "path"
        case .image: return "image name"
        case .transform: return "`[a, b, c, d, tx, ty]`"
        case .word(let names): return names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .words(let names): return "array of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .string(let allowsEmpty): return allowsEmpty ? "string" : "non-empty string"
        }
    }
}

/// A value's JSON, as the reader reads it back.
extension DrawingValue {
    func sceneJSON() throws -> JSONValue {
        switch self {
        case .number(let v): return try v.sceneJSON()
        case .point(let p): return try p.sceneJSON()
        case .rect(let r): return try r.sceneJSON()
        case .points(let ps): return try ps.sceneJSON()
        case .numbers(let vs): return try vs.sceneJSON()
        case .color(let c): return try c.sceneJSON()
        case .colors(let cs): return try cs.sceneJSON()
        case .word(let w): return .string(w)
        case .words(let ws): return .array(ws.map { .string($0) })
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .path(let p): return try p.sceneJSON()
        case .transform(let t): return try jsonNumbers([t.a, t.b, t.c, t.d, t.tx, t.ty])
        case .image(let name, _): return .string(name)
        }
    }
}

/// The arguments of one operation in the order its table row lists them. The reader checked
/// each against its kind, so the accessors find the kind they ask for.
struct DrawingArguments {
    let values: [DrawingValue]

    func number(_ i: Int) -> CGFloat {
        if case .number(let v) = values[i] { return v }
        return mismatch(i)
    }
    /// An angle argument (degrees in the file) in radians.
    func angle(_ i: Int) -> CGFloat { number(i) * .pi / 180 }
    func point(_ i: Int) -> CGPoint {
        if case .point(let v) = values[i] { return v }
        return mismatch(i)
    }
    func rect(_ i: Int) -> CGRect {
        if case .rect(let v) = values[i] { return v }
        return mismatch(i)
    }
    func points(_ i: Int) -> [CGPoint] {
        if case .points(let v) = values[i] { return v }
        return mismatch(i)
    }
    func numbers(_ i: Int) -> [CGFloat] {
        if case .numbers(let v) = values[i] { return v }
        return mismatch(i)
    }
    func color(_ i: Int) -> CGColor {
        if case .color(let v) = values[i] { return v }
        return mismatch(i)
    }
    func colors(_ i: Int) -> [CGColor] {
        if case .colors(let v) = values[i] { return v }
        return mismatch(i)
    }
    func string(_ i: Int) -> String {
        if case .string(let v) = values[i] { return v }
        return mismatch(i)
    }
    func bool(_ i: Int) -> Bool {
        if case .bool(let v) = values[i] { return v }
        return mismatch(i)
    }
    func path(_ i: Int) -> CGPath {
        if case .path(let v) = values[i] { return v }
        return mismatch(i)
    }
    func transform(_ i: Int) -> CGAffineTransform {
        if case .transform(let v) = values[i] { return v }
        return mismatch(i)
    }
    func image(_ i: Int) -> CGImage {
        if case .image(_, let v) = values[i] { return v }
        return mismatch(i)
    }
    /// The value a word argument names in `table`.
    func word<E>(_ i: Int, _ table: KeyValuePairs<String, E>) -> E {
        if case .word(let w) = values[i], let e = table.first(where: { $0.key == w }) { return e.value }
        return mismatch(i)
    }
    /// The values the words of a word-list argument name in `table`.
    func words<E>(_ i: Int, _ table: KeyValuePairs<String, E>) -> [E] {
        if case .words(let ws) = values[i] { return ws.compactMap { w in table.first(where: { $0.key == w })?.value } }
        return mismatch(i)
    }

    private func mismatch<T>(_ i: Int) -> T { preconditionFailure("drawing argument \(i) is \(values[i]), not what its row declares") }
}

/// One kind of drawing operation: the `op` name, its arguments, the `CGContext` call it makes
/// and that call's Swift spelling (for the docs).
struct DrawingOperation {
    let name: String
    let arguments: [DrawingArgument]
    let call: String
    /// A rule between arguments that no argument's own kind states: the index of the argument
    /// at fault and the message, or `nil`.
    let check: ((DrawingArguments) -> (Int, String)?)?
    let draw: (CGContext, DrawingArguments) -> Void

    init(_ name: String, _ arguments: DrawingArgument..., call: String, check: ((DrawingArguments) -> (Int, String)?)? = nil,
         draw: @escaping (CGContext, DrawingArguments) -> Void) {
        self.name = name
        self.arguments = arguments
        self.call = call
        self.check = check
        self.draw = draw
    }

    static let fillRules: KeyValuePairs<String, CGPathFillRule> = ["winding": .winding, "evenOdd": .evenOdd]
    static let lineCaps: KeyValuePairs<String, CGLineCap> = ["butt": .butt, "round": .round, "square": .square]
    static let lineJoins: KeyValuePairs<String, CGLineJoin> = ["miter": .miter, "round": .round, "bevel": .bevel]
    static let drawingModes: KeyValuePairs<String, CGPathDrawingMode> = [
        "fill": .fill, "eoFill": .eoFill, "stroke": .stroke, "fillStroke": .fillStroke, "eoFillStroke": .eoFillStroke,
    ]
    static let blendModes: KeyValuePairs<String, CGBlendMode> = [
        "normal": .normal, "multiply": .multiply, "screen": .screen, "darken": .darken, "lighten": .lighten,
        "clear": .clear, "copy": .copy, "plusLighter": .plusLighter,
    ]
    static let interpolationQualities: KeyValuePairs<String, CGInterpolationQuality> = [
        "default": .default, "none": .none, "low": .low, "medium": .medium, "high": .high,
    ]
    static let gradientOptions: KeyValuePairs<String, CGGradientDrawingOptions> = [
        "drawsBeforeStartLocation": .drawsBeforeStartLocation, "drawsAfterEndLocation": .drawsAfterEndLocation,
    ]

    /// Every operation, in the order the docs list them.
    static let all: [DrawingOperation] = [
        // Graphics state
        .init("saveGState", call: "saveGState()") { c, _ in c.saveGState() },
        .init("restoreGState", call: "restoreGState()") { c, _ in c.restoreGState() },
        .init("translateBy", .number("x"), .number("y"), call: "translateBy(x:y:)") { c, a in c.translateBy(x: a.number(0), y: a.number(1)) },
        .init("scaleBy", .number("x"), .number("y"), call: "scaleBy(x:y:)") { c, a in c.scaleBy(x: a.number(0), y: a.number(1)) },
        .init("rotate", .angle("angle"), call: "rotate(by:)") { c, a in c.rotate(by: a.angle(0)) },
        .init("concatenate", .transform("transform"), call: "concatenate(_:)") { c, a in c.concatenate(a.transform(0)) },
        .init("setFillColor", .color("color"), call: "setFillColor(_:)") { c, a in c.setFillColor(a.color(0)) },
        .init("setStrokeColor", .color("color"), call: "setStrokeColor(_:)") { c, a in c.setStrokeColor(a.color(0)) },
        .init("setAlpha", .number("alpha", .unitInterval), call: "setAlpha(_:)") { c, a in c.setAlpha(a.number(0)) },
        .init("setLineWidth", .number("width", .nonNegative), call: "setLineWidth(_:)") { c, a in c.setLineWidth(a.number(0)) },
        .init("setLineCap", .word("cap", lineCaps), call: "setLineCap(_:)") { c, a in c.setLineCap(a.word(0, lineCaps)) },
        .init("setLineJoin", .word("join", lineJoins), call: "setLineJoin(_:)") { c, a in c.setLineJoin(a.word(0, lineJoins)) },
        .init("setMiterLimit", .number("limit", .nonNegative), call: "setMiterLimit(_:)") { c, a in c.setMiterLimit(a.number(0)) },
        .init("setLineDash", .number("phase", default: 0), .numbers("lengths"), call: "setLineDash(phase:lengths:)") { c, a in
            c.setLineDash(phase: a.number(0), lengths: a.numbers(1))
        },
        .init("setBlendMode", .word("mode", blendModes), call: "setBlendMode(_:)") { c, a in c.setBlendMode(a.word(0, blendModes)) },
        .init("setShouldAntialias", .bool("antialias"), call: "setShouldAntialias(_:)") { c, a in c.setShouldAntialias(a.bool(0)) },
        .init("setInterpolationQuality", .word("quality", interpolationQualities), call: "interpolationQuality = …") { c, a in
            c.interpolationQuality = a.word(0, interpolationQualities)
        },
        // Paths
        .init("beginPath", call: "beginPath()") { c, _ in c.beginPath() },
        .init("move", .point("to"), call: "move(to:)") { c, a in c.move(to: a.point(0)) },
        .init("addLine", .point("to"), call: "addLine(to:)") { c, a in c.addLine(to: a.point(0)) },
        .init("addLines", .points("between"), call: "addLines(between:)") { c, a in c.addLines(between: a.points(0)) },
        .init("addCurve", .point("to"), .point("control1"), .point("control2"), call: "addCurve(to:control1:control2:)") { c, a in
            c.addCurve(to: a.point(0), control1: a.point(1), control2: a.point(2))
        },
        .init("addQuadCurve", .point("to"), .point("control"), call: "addQuadCurve(to:control:)") { c, a in
            c.addQuadCurve(to: a.point(0), control: a.point(1))
        },
        .init("addArc", .point("center"), .number("radius", .nonNegative), .angle("startAngle"), .angle("endAngle"),
              .bool("clockwise"), call: "addArc(center:radius:startAngle:endAngle:clockwise:)") { c, a in
            c.addArc(center: a.point(0), radius: a.number(1), startAngle: a.angle(2), endAngle: a.angle(3),
                     clockwise: a.bool(4))
        },
        .init("addArcToPoint", .point("tangent1End"), .point("tangent2End"), .number("radius", .nonNegative),
              call: "addArc(tangent1End:tangent2End:radius:)") { c, a in
            c.addArc(tangent1End: a.point(0), tangent2End: a.point(1), radius: a.number(2))
        },
        .init("addRect", .rect("rect"), call: "addRect(_:)") { c, a in c.addRect(a.rect(0)) },
        .init("addEllipse", .rect("in"), call: "addEllipse(in:)") { c, a in c.addEllipse(in: a.rect(0)) },
        .init("addPath", .path("path"), call: "addPath(_:)") { c, a in c.addPath(a.path(0)) },
        .init("closePath", call: "closePath()") { c, _ in c.closePath() },
        // Painting
        .init("fillPath", .word("rule", fillRules, default: "winding"), call: "fillPath(using:)") { c, a in
            c.fillPath(using: a.word(0, fillRules))
        },
        .init("strokePath", call: "strokePath()") { c, _ in c.strokePath() },
        .init("replacePathWithStrokedPath", call: "replacePathWithStrokedPath()") { c, _ in c.replacePathWithStrokedPath() },
        .init("drawPath", .word("mode", drawingModes), call: "drawPath(using:)") { c, a in c.drawPath(using: a.word(0, drawingModes)) },
        .init("fill", .rect("rect"), call: "fill(_:)") { c, a in c.fill(a.rect(0)) },
        .init("stroke", .rect("rect"), call: "stroke(_:)") { c, a in c.stroke(a.rect(0)) },
        .init("fillEllipse", .rect("in"), call: "fillEllipse(in:)") { c, a in c.fillEllipse(in: a.rect(0)) },
        .init("strokeEllipse", .rect("in"), call: "strokeEllipse(in:)") { c, a in c.strokeEllipse(in: a.rect(0)) },
        .init("strokeLineSegments", .points("between"), call: "strokeLineSegments(between:)") { c, a in
            c.strokeLineSegments(between: a.points(0))
        },
        .init("clear", .rect("rect"), call: "clear(_:)") { c, a in c.clear(a.rect(0)) },
        // Clipping
        .init("clip", .word("rule", fillRules, default: "winding"), call: "clip(using:)") { c, a in c.clip(using: a.word(0, fillRules)) },
        .init("clipToRect", .rect("rect"), call: "clip(to:)") { c, a in c.clip(to: a.rect(0)) },
        .init("resetClip", call: "resetClip()") { c, _ in c.resetClip() },
        // Gradients and images
        .init("drawLinearGradient", .colors("colors"), .numbers("locations", default: []), .point("start"), .point("end"),
              .words("options", gradientOptions),
              call: "drawLinearGradient(_:start:end:options:)",
              check: { a in a.numbers(1).isEmpty || a.numbers(1).count == a.colors(0).count ? nil
                  : (1, "expected one location per colour (\(a.colors(0).count)), found \(a.numbers(1).count)") }) { c, a in
            let locations = a.numbers(1)
            guard let gradient = CGGradient(colorsSpace: nil, colors: a.colors(0), locations: locations.isEmpty ? nil : locations) else { return }
            c.drawLinearGradient(gradient, start: a.point(2), end: a.point(3),
                                 options: CGGradientDrawingOptions(a.words(4, gradientOptions)))
        },
        .init("drawImage", .image("image"), .rect("in"), call: "draw(_:in:)") { c, a in c.draw(a.image(0), in: a.rect(1)) },
        // Text
        .init("setTextMatrix", .transform("transform"), call: "textMatrix = …") { c, a in c.textMatrix = a.transform(0) },
        .init("drawText", .string("text"), .point("at"), .string("font", allowsEmpty: false, default: FontLibrary.defaultFamily),
              .number("size", .positive), call: "draw(text:at:font:size:)") { c, a in
            c.draw(text: a.string(0), at: a.point(1), font: a.string(2), size: a.number(3))
        },
    ]

    /// The operations by name.
    static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// docs/scene-format.md's table of operations: one row per operation.
    static var markdownTable: String {
        var rows = ["| op | arguments | CGContext call |", "|---|---|---|"]
        for op in all {
            let args = op.arguments.map { arg in
                "`\(arg.key)`: \(arg.spelling)" + (arg.defaultValue.flatMap { try? $0.sceneJSON().serialized() }
                    .map { " (default `\(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))`)" } ?? "")
            }
            rows.append("| `\(op.name)` | \(args.isEmpty ? "none" : args.joined(separator: "; ")) | `\(op.call)` |")
        }
        return rows.joined(separator: "\n") + "\n"
    }
}

/// One operation of a layer's `drawing` with its arguments.
struct DrawingCall {
    let operation: DrawingOperation
    let arguments: DrawingArguments

    /// Reads `{"op": NAME, ARGUMENT: VALUE, …}`; `image` finds a scene image by name.
    init(scene node: SceneNode, image: (String) -> CGImage?) throws {
        let object = try node.object(allowing: nil, what: "a drawing operation")
        let opNode = try object.required("op", in: node.path)
        let name: String = try opNode.read()
        guard let operation = DrawingOperation.byName[name] else {
            throw opNode.error("unknown drawing operation \"\(name)\" (docs/scene-format.md lists them)")
        }
        try object.rejectUnknownKeys(allowed: Set(["op"] + operation.arguments.map(\.key)), what: "a \(name) operation")
        let values = try operation.arguments.map { arg in
            if let member = object[arg.key] { return try arg.read(member, image: image) }
            if let d = arg.defaultValue { return d }
            throw SceneError(path: "\(node.path).\(arg.key)", message: "required field is missing")
        }
        arguments = DrawingArguments(values: values)
        if let (i, message) = operation.check?(arguments) {
            throw SceneError(path: "\(node.path).\(operation.arguments[i].key)", message: message)
        }
        self.operation = operation
    }

    /// `{"op": NAME, …}` with the arguments that differ from their defaults.
    func sceneJSON() throws -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("op", .string(operation.name))]
        for (arg, value) in zip(operation.arguments, arguments.values) {
            let json = try value.sceneJSON()
            if let d = arg.defaultValue, try d.sceneJSON().serialized() == json.serialized() { continue }
            members.append((arg.key, json))
        }
        return .object(members)
    }
}

/// A scene file's `drawing` as a layer's contents (`CALayer.ownDrawing`): `draw(in:)` makes the
/// operations' calls in order, in the context `display()` gives it (the bounds, y down, at
/// `contentsScale`, as a `CALayer`'s context on iOS; a tiled layer's, once per tile). The
/// reader marks the layer with `setNeedsDisplay()`, so it draws once, at the first frame's
/// commit, and again only when marked again. Any layer type that takes a `drawing` (a plain
/// layer, a replicator, a scroll layer, a tiled layer) holds one. The calls are values that
/// are only read, so tiles may draw them on several threads at once.
struct SceneDrawing: LayerContentDrawing, @unchecked Sendable {
    /// The operations, in order.
    let calls: [DrawingCall]

    func draw(in ctx: CGContext) {
        for call in calls { call.operation.draw(ctx, call.arguments) }
    }
}

extension CALayer {
    /// The scene file's `drawing` this layer's contents come from, if any.
    var sceneDrawing: [DrawingCall]? { (ownDrawing as? SceneDrawing)?.calls }

    /// This layer, drawn by `calls` when there are any.
    func drawing(_ calls: [DrawingCall]?) -> Self {
        if let calls { ownDrawing = SceneDrawing(calls: calls) }
        return self
    }
}

extension Scene {
    /// The layers whose contents the scene's `drawing` makes, in tree order (each layer, then
    /// its mask, then its sublayers): what `layerkit bench --redisplay` marks every frame.
    package var drawingLayers: [CALayer] {
        var found: [CALayer] = [], stack = [root]
        while let layer = stack.popLast() {
            if layer.sceneDrawing != nil { found.append(layer) }
            stack += layer.sublayerListStorage.reversed() + (layer.maskStorage.map { [$0] } ?? [])
        }
        return found
    }
}
