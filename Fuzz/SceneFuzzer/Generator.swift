// Scenes generated from fuzz input, for the parts that byte mutations of JSON seldom reach in
// a well-formed state: animations of every kind (basic, keyframe in all calculation modes,
// spring, group) on every key path, including ones the layer type lacks; custom drawing
// operations; layer timing; and the arguments `layerkit record` checks. Each choice reads the
// next input byte (0 once the input runs out), and numbers come mostly from a table of the
// values hostile input uses (Double's limits, 5e-324, 1e308, the side and frame limits), else
// from the input's own eight bytes.

/// The fuzz input as a stream of choices.
struct Choices {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, 0 after the end.
    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    /// A number in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(byte()) % n }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `options`.
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    /// The values hostile input tries.
    static let hostileNumbers: [Double] = [
        0, 1, -1, 0.5, 2, 3, 10, 100, 255, 1000, 16384, 16385, 65536, 100_000, 1e6, 1e9, 1e15, 1e19,
        1e154, 1e300, 1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, -1e308, .leastNonzeroMagnitude,
        .leastNormalMagnitude, 1e-300, 1e-9, 0.1, -0.5, 1 / 3, 0.999_999_999_999, 1.000_000_000_001,
    ]

    /// A finite number: from the table, small, or the next eight bytes as a Double.
    mutating func number() -> Double {
        switch below(4) {
        case 0, 1: return pick(Self.hostileNumbers)
        case 2: return Double(below(201)) - 100
        default:
            var bits: UInt64 = 0
            for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
            let v = Double(bitPattern: bits)
            return v.isFinite ? v : pick(Self.hostileNumbers)
        }
    }

    /// A number that is mostly ordinary (0...100), sometimes hostile.
    mutating func mostlyPlain() -> Double { below(4) == 0 ? number() : Double(below(101)) }
}

/// JSON text of a number (shortest form, valid JSON).
private func json(_ v: Double) -> String { shortestDecimal(v) }

private func json(_ values: [Double]) -> String { "[" + values.map(json).joined(separator: ", ") + "]" }

/// What a key path animates, which decides the JSON of its values.
private enum ValueKind { case number, point, size, rect, color, transform, path, bool, colors, numbers, image }

private let keyPaths: [(String, ValueKind)] = [
    ("position", .point), ("position.x", .number), ("position.y", .number), ("bounds", .rect), ("bounds.origin", .point),
    ("bounds.size", .size), ("bounds.size.width", .number), ("bounds.size.height", .number), ("anchorPoint", .point),
    ("anchorPointZ", .number), ("zPosition", .number), ("transform", .transform), ("sublayerTransform", .transform),
    ("transform.rotation.x", .number), ("transform.rotation.y", .number), ("transform.rotation", .number),
    ("transform.scale", .number), ("transform.scale.x", .number), ("transform.translation", .size),
    ("transform.translation.z", .number), ("sublayerTransform.rotation.z", .number), ("opacity", .number), ("hidden", .bool),
    ("backgroundColor", .color), ("cornerRadius", .number), ("borderWidth", .number), ("borderColor", .color),
    ("masksToBounds", .bool), ("doubleSided", .bool), ("contents", .image), ("contentsRect", .rect), ("contentsCenter", .rect),
    ("shadowColor", .color), ("shadowOpacity", .number), ("shadowOffset", .size), ("shadowRadius", .number),
    ("shadowPath", .path), ("path", .path), ("fillColor", .color), ("strokeColor", .color), ("lineWidth", .number),
    ("lineDashPhase", .number), ("miterLimit", .number), ("strokeStart", .number), ("strokeEnd", .number),
    ("colors", .colors), ("locations", .numbers), ("startPoint", .point), ("endPoint", .point), ("fontSize", .number),
    ("foregroundColor", .color),
]

extension Choices {
    /// A value of `kind` as JSON, hostile numbers included.
    fileprivate mutating func value(_ kind: ValueKind) -> String {
        switch kind {
        case .number: return json(number())
        case .point, .size: return json([number(), number()])
        case .rect: return json([number(), number(), number(), number()])
        case .color: return pick(["\"#FF0000\"", "\"#00FF0080\"", "null", "[0, 0, 1, 1]"])
        case .transform:
            return pick(["[{\"scale\": \(json([number(), number(), number()]))}]", "[{\"rotate\": \(json([number(), 0, 0, 1]))}]",
                         "[{\"translate\": \(json([number(), number(), 0]))}]", "[{\"perspective\": \(json(number()))}]"])
        case .path: return path()
        case .bool: return bool() ? "true" : "false"
        case .colors: return bool() ? "[\"#FF0000\", \"#0000FF\"]" : "[\"#00FF00\"]"
        case .numbers: return json((0..<below(4)).map { _ in number() })
        case .image: return "\"button\""
        }
    }

    /// A path value: SVG data with hostile numbers, or one of the shapes.
    mutating func path() -> String {
        switch below(4) {
        case 0: return "{\"rect\": \(json([mostlyPlain(), mostlyPlain(), number(), number()]))}"
        case 1: return "{\"roundedRect\": \(json([0, 0, mostlyPlain(), mostlyPlain(), number()]))}"
        case 2: return "\"M 0 0 L \(json(number())) \(json(number())) Q 5 5 \(json(number())) 1 Z\""
        default:
            // Many segments: the stroker's and filler's cost per segment.
            let count = pick([1, 3, 50, 2000])
            return "\"M 0 0" + (0..<count).map { i in " L \(i % 97) \((i * 37) % 89)" }.joined() + "\""
        }
    }

    /// The timing fields every animation has, with hostile numbers.
    mutating func timing() -> String {
        var fields: [String] = []
        if bool() { fields.append("\"duration\": \(json(abs(number())))") }
        if below(3) == 0 { fields.append("\"beginTime\": \(json(number()))") }
        if below(3) == 0 { fields.append("\"speed\": \(json(number()))") }
        if below(3) == 0 { fields.append("\"timeOffset\": \(json(number()))") }
        if below(3) == 0 { fields.append("\"repeatCount\": " + (bool() ? "\"infinity\"" : json(abs(number())))) }
        if below(4) == 0 { fields.append("\"repeatDuration\": \(json(abs(number())))") }
        if bool() { fields.append("\"autoreverses\": true") }
        if bool() { fields.append("\"fillMode\": \"\(pick(["removed", "forwards", "backwards", "both"]))\"") }
        if bool() { fields.append("\"removedOnCompletion\": false") }
        if below(3) == 0 {
            fields.append("\"timingFunction\": " + (bool() ? "\"easeInEaseOut\"" : json([Double(below(2)), number(), Double(below(2)), number()])))
        }
        return fields.map { ", " + $0 }.joined()
    }

    /// An animation object of any type; `depth` bounds groups within groups.
    mutating func animation(depth: Int = 0) -> String {
        let (keyPath, kind) = pick(keyPaths)
        let additive = (bool() ? ", \"additive\": true" : "") + (bool() ? ", \"cumulative\": true" : "")
        switch below(depth < 2 ? 4 : 3) {
        case 0:
            let ends = ["fromValue", "toValue", "byValue"].filter { _ in bool() }.map { "\"\($0)\": \(value(kind))" }
            return "{\"type\": \"basic\", \"keyPath\": \"\(keyPath)\"\(ends.map { ", " + $0 }.joined())\(additive)\(timing())}"
        case 1:
            let count = pick([1, 2, 3, 5, 40])
            let mode = pick(["linear", "discrete", "paced", "cubic", "cubicPaced"])
            var fields = "\"calculationMode\": \"\(mode)\""
            if kind == .point && below(3) == 0 {
                fields += ", \"path\": \(path())" + (bool() ? ", \"rotationMode\": \"auto\"" : "")
            } else {
                fields += ", \"values\": [" + (0..<count).map { _ in value(kind) }.joined(separator: ", ") + "]"
            }
            for spline in ["tensionValues", "continuityValues", "biasValues"] where below(3) == 0 {
                fields += ", \"\(spline)\": " + json((0..<count).map { _ in number() })
            }
            if below(4) == 0 {
                fields += ", \"keyTimes\": " + json((0..<count).map { i in count == 1 ? 0 : Double(i) / Double(count - 1) })
            }
            return "{\"type\": \"keyframe\", \"keyPath\": \"\(keyPath)\", \(fields)\(additive)\(timing())}"
        case 2:
            var fields = "\"fromValue\": \(value(kind)), \"toValue\": \(value(kind))"
            for parameter in ["mass", "stiffness", "damping", "initialVelocity"] where bool() {
                fields += ", \"\(parameter)\": \(json(parameter == "initialVelocity" ? number() : abs(number())))"
            }
            if bool() { fields += ", \"allowsOverdamping\": true" }
            return "{\"type\": \"spring\", \"keyPath\": \"\(keyPath)\", \(fields)\(additive)\(timing())}"
        default:
            let children = (0..<below(3) + 1).map { _ in animation(depth: depth + 1) }
            return "{\"type\": \"group\", \"animations\": [\(children.joined(separator: ", "))]\(timing())}"
        }
    }

    /// A point as JSON, mostly on the canvas.
    mutating func point() -> String { json([mostlyPlain(), mostlyPlain()]) }

    mutating func rect() -> String { json([mostlyPlain(), mostlyPlain(), mostlyPlain(), mostlyPlain()]) }

    /// One drawing operation with hostile arguments now and then.
    mutating func drawingOperation() -> String {
        switch below(22) {
        case 0: return "{\"op\": \"saveGState\"}"
        case 1: return "{\"op\": \"restoreGState\"}"
        case 2: return "{\"op\": \"scaleBy\", \"x\": \(json(number())), \"y\": \(json(number()))}"
        case 3: return "{\"op\": \"rotate\", \"angle\": \(json(number()))}"
        case 4: return "{\"op\": \"setLineWidth\", \"width\": \(json(abs(number())))}"
        case 5: return "{\"op\": \"setLineDash\", \"phase\": \(json(number())), \"lengths\": \(json([abs(number()), abs(number())]))}"
        case 6: return "{\"op\": \"move\", \"to\": \(point())}"
        case 7: return "{\"op\": \"addLine\", \"to\": \(point())}"
        case 8:
            // Up to 1,000 points of a path that crosses itself everywhere, and a drawing may have
            // several, dashed. Issue 23's 10^5 points are a speed case, bounded by
            // PathRasterizerComplexityTests and measured in BENCHMARKS.md: under the fuzzer's
            // instrumentation a fill of 10^4 such points takes 0.7 s (eight read as a hang), two
            // strokes of 2,000 dashed ones 2 s, 10^5 tens of seconds.
            let count = pick([2, 10, 100, 1000])
            return "{\"op\": \"addLines\", \"between\": [" + (0..<count).map { i in "[\(i % 101), \((i * 7) % 103)]" }.joined(separator: ", ") + "]}"
        case 9: return "{\"op\": \"addCurve\", \"to\": \(point()), \"control1\": \(point()), \"control2\": \(point())}"
        case 10:
            return "{\"op\": \"addArc\", \"center\": \(point()), \"radius\": \(json(abs(number()))), \"startAngle\": \(json(number())), "
                + "\"endAngle\": \(json(number())), \"clockwise\": \(bool())}"
        case 11: return "{\"op\": \"addRect\", \"rect\": \(rect())}"
        case 12: return "{\"op\": \"addPath\", \"path\": \(path())}"
        case 13: return "{\"op\": \"fillPath\", \"rule\": \"\(pick(["winding", "evenOdd"]))\"}"
        case 14: return "{\"op\": \"strokePath\"}"
        case 15: return "{\"op\": \"replacePathWithStrokedPath\"}"
        case 16: return "{\"op\": \"fill\", \"rect\": \(rect())}"
        case 17: return "{\"op\": \"strokeEllipse\", \"in\": \(rect())}"
        case 18: return "{\"op\": \"clipToRect\", \"rect\": \(rect())}"
        case 19:
            return "{\"op\": \"drawLinearGradient\", \"colors\": [\"#FF0000\", \"#0000FF\"], \"start\": \(point()), \"end\": \(point())}"
        case 20:
            // Font paths that are not fonts: a device, a directory, a text file, nothing.
            let font = pick(["DejaVu Sans", "/dev/zero", "/", "/etc/passwd", "/no/such/font.ttf"])
            return "{\"op\": \"drawText\", \"text\": \"Ab\", \"at\": \(point()), \"font\": \"\(font)\", \"size\": \(json(abs(number()) + 1e-3))}"
        default: return "{\"op\": \"setStrokeColor\", \"color\": \"#00FF00\"}"
        }
    }

    /// A layer of any type with hostile static fields, animations and (plain layers) drawing.
    mutating func layer(depth: Int = 0) -> String {
        let type = pick(["layer", "layer", "shapeLayer", "gradientLayer", "textLayer"])
        var fields = ["\"type\": \"\(type)\"", "\"frame\": " + json([Double(below(32)), Double(below(32)), Double(below(33)), Double(below(33))])]
        for name in ["shadowRadius", "shadowOpacity", "cornerRadius", "opacity", "borderWidth", "timeOffset", "speed", "beginTime", "contentsScale"]
        where below(4) == 0 {
            let value: Double
            switch name {
            case "shadowOpacity", "opacity": value = Double(below(11)) / 10  // refused outside 0...1
            case "contentsScale": value = Double(below(4)) + 1
            case "timeOffset", "speed", "beginTime": value = number()
            default: value = abs(number())
            }
            fields.append("\"\(name)\": \(json(value))")
        }
        if type == "shapeLayer" {
            fields.append("\"path\": \(path())")
            if bool() { fields.append("\"lineWidth\": \(json(abs(number())))") }
            if bool() { fields.append("\"strokeColor\": \"#000000\"") }
        }
        if type == "layer" && below(3) == 0 {
            fields.append("\"drawing\": [" + (0..<below(8) + 1).map { _ in drawingOperation() }.joined(separator: ", ") + "]")
        }
        if bool() { fields.append("\"animations\": [" + (0..<below(3) + 1).map { _ in animation() }.joined(separator: ", ") + "]") }
        if depth < 2 && below(3) == 0 {
            fields.append("\"sublayers\": [" + (0..<below(2) + 1).map { _ in layer(depth: depth + 1) }.joined(separator: ", ") + "]")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A whole scene file: a 32 x 32 canvas (drawing and rendering costs stay small), a
    /// timeline and a scene time now and then, and one to three layers.
    mutating func scene() -> String {
        var top = ["\"format\": \"layerkit-scene\"", "\"version\": 1", "\"canvas\": {\"width\": 32, \"height\": 32}",
                   "\"images\": {\"button\": \"../images/button.png\"}"]
        if bool() { top.append("\"time\": \(json(number()))") }
        if bool() { top.append("\"timeline\": {\"duration\": \(json(abs(number()))), \"fps\": \(json(abs(number())))}") }
        let layers = (0..<below(3) + 1).map { _ in layer() }
        top.append("\"root\": {\"frame\": [0, 0, 32, 32], \"sublayers\": [\(layers.joined(separator: ", "))]}")
        return "{" + top.joined(separator: ", ") + "}"
    }

    /// `layerkit record`'s arguments: --duration, --fps (each absent now and then), a frame size
    /// in pixels and --max-bytes, as text the way the command line gives it.
    mutating func recordArguments() -> (duration: Double?, fps: Double?, width: Int, height: Int, maximumBytes: String) {
        let duration: Double? = below(4) == 0 ? nil : number()
        let fps: Double? = below(4) == 0 ? nil : number()
        let sides = [0, 1, 32, 4096, 16384, 16385, Int(Int32.max)]
        let maximumBytes = pick(["0", "1", "4000", "16G", "1T", "999999999999999999", "18446744073709551615K", "9T", "1.5G", "-1", ""])
        return (duration, fps, pick(sides), pick(sides), maximumBytes)
    }
}
