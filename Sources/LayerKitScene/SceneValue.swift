// How each kind of value is spelled in a scene file, in both directions, with the JSON path
// every error names. A type's reading and writing live side by side in one `SceneValue`
// conformance, and a layer property is one `SceneField` row, so the reader, the writer and
// the list of fields cannot drift apart.

import Foundation

/// A JSON value and its path in the file (`root.sublayers[2].opacity`).
struct SceneNode {
    let value: JSONValue
    let path: String

    /// The error for this node: `path: message`.
    func error(_ message: String) -> SceneError { SceneError(path: path, message: message) }

    /// The error for a value of the wrong kind.
    func mismatch(_ expected: String) -> SceneError { error("expected \(expected), found \(value.kindDescription)") }

    /// A finite number.
    func number() throws -> Double {
        guard case .number(let d) = value else { throw mismatch("a number") }
        guard d.isFinite else { throw error("number out of range (not finite)") }
        return d
    }

    /// The elements, each with its path (`path[i]`); `count` demands that many, and
    /// `shape` says what they are for the message, e.g. "[x, y, w, h]".
    func elements(count: Int? = nil, shape: String = "an array") throws -> [SceneNode] {
        guard case .array(let a) = value else { throw mismatch(shape) }
        if let count, a.count != count { throw error("expected \(shape) (\(count) numbers), found \(counted(a.count, "element"))") }
        return a.enumerated().map { SceneNode(value: $1, path: "\(path)[\($0)]") }
    }

    /// `count` numbers, e.g. the four of a rectangle.
    func numbers(_ count: Int, shape: String) throws -> [CGFloat] {
        try elements(count: count, shape: shape).map { CGFloat(try $0.number()) }
    }

    /// The members of an object, each with its path (`path.key`); when `allowed` is given,
    /// other keys are refused, naming the first in file order. `what` names the object.
    func object(allowing allowed: Set<String>?, what: String) throws -> SceneObject {
        guard case .object(let members) = value else { throw mismatch("\(what) (an object)") }
        let prefix = path.isEmpty ? "" : path + "."
        let object = SceneObject(members: members.map { SceneNode(value: $0.value, path: prefix + $0.key) },
                                 keys: members.map(\.key))
        if let allowed { try object.rejectUnknownKeys(allowed: allowed, what: what) }
        return object
    }

    /// A typed value that also satisfies `rule` (which returns the message when it does not).
    func read<T: SceneValue>(_ rule: ((T) -> String?)? = nil) throws -> T {
        let v = try T(scene: self)
        if let problem = rule?(v) { throw error(problem) }
        return v
    }
}

/// An object's members in file order.
struct SceneObject {
    let members: [SceneNode]
    let keys: [String]

    /// The member with `key`, if present.
    subscript(key: String) -> SceneNode? { keys.firstIndex(of: key).map { members[$0] } }

    /// The member's value, or `nil` when absent.
    func read<T: SceneValue>(_ key: String, _ rule: ((T) -> String?)? = nil) throws -> T? { try self[key]?.read(rule) }

    /// The member with `key`; absence is an error at `path.key` (`path` is the object's).
    func required(_ key: String, in path: String) throws -> SceneNode {
        guard let node = self[key] else {
            throw SceneError(path: path.isEmpty ? key : "\(path).\(key)", message: "required field is missing")
        }
        return node
    }

    /// The member's value; absence is an error at `path.key`.
    func required<T: SceneValue>(_ key: String, in path: String, _ rule: ((T) -> String?)? = nil) throws -> T {
        try required(key, in: path).read(rule)
    }

    /// Refuses keys not in `allowed`, naming the first in file order.
    func rejectUnknownKeys(allowed: Set<String>, what: String) throws {
        guard let i = keys.firstIndex(where: { !allowed.contains($0) }) else { return }
        // Short lists help; a layer's forty fields would bury the message.
        let choices = allowed.count <= 10 ? "; expected one of \(allowed.sorted().joined(separator: ", "))" : ""
        throw members[i].error("unknown field for \(what)\(choices)")
    }
}

/// A type a scene file can hold: how it is read (with errors at the node's path) and written.
protocol SceneValue {
    /// Reads the value, throwing `SceneError` at `node.path` when the JSON does not fit.
    init(scene node: SceneNode) throws
    /// The JSON the writer emits; reading it back gives an equal value. Throws a
    /// `SceneError` with an empty path when the value has no spelling (a NaN, say).
    func sceneJSON() throws -> JSONValue
}

/// A finite number as JSON; NaN and infinities have no spelling.
func jsonNumber(_ v: Double) throws -> JSONValue {
    guard v.isFinite else { throw SceneError(path: "", message: "\(v) cannot be written (JSON numbers are finite)") }
    return .number(v)
}

/// A `Float` as JSON: the Double nearest to the Float's own shortest decimal, so that 0.3
/// is written "0.3" rather than 0.30000001192092896, and still reads back to the same Float.
func jsonNumber(_ v: Float) throws -> JSONValue { try jsonNumber(Double("\(v)") ?? Double(v)) }

/// Numbers as a JSON array.
func jsonNumbers(_ values: [CGFloat]) throws -> JSONValue { .array(try values.map { try jsonNumber(Double($0)) }) }

extension Bool: SceneValue {
    init(scene node: SceneNode) throws {
        guard case .bool(let b) = node.value else { throw node.mismatch("true or false") }
        self = b
    }
    func sceneJSON() -> JSONValue { .bool(self) }
}

extension String: SceneValue {
    init(scene node: SceneNode) throws {
        guard case .string(let s) = node.value else { throw node.mismatch("a string") }
        self = s
    }
    func sceneJSON() -> JSONValue { .string(self) }
}

extension Double: SceneValue {
    init(scene node: SceneNode) throws { self = try node.number() }
    func sceneJSON() throws -> JSONValue { try jsonNumber(self) }
}

extension CGFloat: SceneValue {
    init(scene node: SceneNode) throws { self = CGFloat(try node.number()) }
    func sceneJSON() throws -> JSONValue { try jsonNumber(Double(self)) }
}

extension Float: SceneValue {
    init(scene node: SceneNode) throws {
        self = Float(try node.number())
        guard isFinite else { throw node.error("number out of range for a single-precision value") }
    }
    func sceneJSON() throws -> JSONValue { try jsonNumber(self) }
}

extension Int: SceneValue {
    /// A whole number within ±2^53 (beyond that a JSON number is not exact).
    init(scene node: SceneNode) throws {
        let v = try node.number()
        guard v == v.rounded() else { throw node.error("must be a whole number, not \(shortestDecimal(v))") }
        guard abs(v) <= 0x1p53 else { throw node.error("must be within ±9007199254740992 (2^53), not \(shortestDecimal(v))") }
        self = Int(v)
    }
    func sceneJSON() throws -> JSONValue { .number(Double(self)) }
}

extension CGPoint: SceneValue {
    init(scene node: SceneNode) throws {
        let v = try node.numbers(2, shape: "[x, y]")
        self.init(x: v[0], y: v[1])
    }
    func sceneJSON() throws -> JSONValue { try jsonNumbers([x, y]) }
}

extension CGSize: SceneValue {
    init(scene node: SceneNode) throws {
        let v = try node.numbers(2, shape: "[w, h]")
        self.init(width: v[0], height: v[1])
    }
    func sceneJSON() throws -> JSONValue { try jsonNumbers([width, height]) }
}

extension CGRect: SceneValue {
    init(scene node: SceneNode) throws {
        let v = try node.numbers(4, shape: "[x, y, w, h]")
        self.init(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    func sceneJSON() throws -> JSONValue { try jsonNumbers([origin.x, origin.y, size.width, size.height]) }
}

extension Array: SceneValue where Element: SceneValue {
    init(scene node: SceneNode) throws { self = try node.elements().map { try $0.read() } }
    func sceneJSON() throws -> JSONValue { .array(try map { try $0.sceneJSON() }) }
}

extension CGColor: SceneValue {
    /// `"#RRGGBB"`, `"#RRGGBBAA"` (either case) or `[r, g, b, a]` in 0…1.
    init(scene node: SceneNode) throws {
        if case .string(let s) = node.value {
            let hex = s.dropFirst()
            // UInt32(_:radix:) alone would accept a sign ("#+F0000").
            guard s.hasPrefix("#"), hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit),
                  let v = UInt32(hex, radix: 16) else {
                throw node.error("expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", found \"\(s)\"")
            }
            let rgba = hex.count == 8 ? v : v << 8 | 0xFF
            func channel(_ shift: UInt32) -> CGFloat { CGFloat((rgba >> shift) & 0xFF) / 255 }
            self.init(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
            return
        }
        guard case .array = node.value else { throw node.mismatch("a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a])") }
        let c = try node.elements(count: 4, shape: "[r, g, b, a]").map { element -> CGFloat in
            let v = try element.number()
            guard (0...1).contains(v) else { throw element.error("colour components must be between 0 and 1, not \(shortestDecimal(v))") }
            return CGFloat(v)
        }
        self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    func sceneJSON() throws -> JSONValue { try jsonNumbers(components) }
}

/// Colour properties accept `null` for "no colour".
extension Optional: SceneValue where Wrapped == CGColor {
    init(scene node: SceneNode) throws {
        if case .null = node.value { self = nil } else { self = try CGColor(scene: node) }
    }
    func sceneJSON() throws -> JSONValue { try map { try $0.sceneJSON() } ?? .null }
}

extension CATransform3D: SceneValue {
    /// `{"matrix": [16 numbers]}` or an array of operations, listed in the order a Core
    /// Animation program applies them (`t = CATransform3DRotate(t, …)`): each operation is
    /// concatenated before the transform so far, so the last one acts on the points first.
    /// Finite numbers can make a matrix that is not (a perspective distance of 5e-324, scales of
    /// 1e308 concatenated): such a transform is refused here, as a static field and as an
    /// animation value alike, since nothing could draw or write it back.
    init(scene node: SceneNode) throws {
        let t: CATransform3D
        if case .object(let members) = node.value {
            guard members.count == 1, members[0].key == "matrix" else {
                throw node.error("a transform object must be {\"matrix\": [16 numbers]}; list operations in an array")
            }
            t = try Self.operation(try node.object(allowing: nil, what: "a transform"), node)
        } else {
            guard case .array = node.value else { throw node.mismatch("a transform ({\"matrix\": [...]} or an array of operations)") }
            t = try node.elements().reduce(.identity) { t, op in
                let object = try op.object(allowing: Self.operations, what: "a transform operation")
                return try Self.operation(object, op).concatenating(t)
            }
        }
        guard t.isFiniteValue else { throw node.error("the transform's matrix is not finite: its numbers overflow a Double") }
        self = t
    }

    /// The keys of transform operations.
    static let operations: Set<String> = ["translate", "scale", "rotate", "perspective", "affine", "matrix"]

    /// The matrix of a one-member operation object.
    private static func operation(_ object: SceneObject, _ node: SceneNode) throws -> CATransform3D {
        guard object.members.count == 1, let member = object.members.first else {
            throw node.error("expected exactly one operation, such as {\"rotate\": [degrees, x, y, z]}, found \(object.members.count)")
        }
        switch object.keys[0] {
        case "translate":
            let v = try member.numbers(3, shape: "[tx, ty, tz]")
            return CATransform3DMakeTranslation(v[0], v[1], v[2])
        case "scale":
            let v = try member.numbers(3, shape: "[sx, sy, sz]")
            return CATransform3DMakeScale(v[0], v[1], v[2])
        case "rotate":
            let v = try member.numbers(4, shape: "[degrees, x, y, z]")
            return CATransform3DMakeRotation(v[0] * .pi / 180, v[1], v[2], v[3])
        case "perspective":
            let d = try member.number()
            guard d > 0 else { throw member.error("the perspective distance must be > 0, not \(shortestDecimal(d))") }
            var t = CATransform3D.identity
            t.m34 = CGFloat(-1 / d)
            return t
        case "affine":
            let v = try member.numbers(6, shape: "[a, b, c, d, tx, ty]")
            return CATransform3DMakeAffineTransform(CGAffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        default:  // "matrix"
            return CATransform3D(try member.numbers(16, shape: "[m11, m12, …, m44]"))
        }
    }

    /// Always `{"matrix": [...]}`: exact, whatever operations made the transform.
    func sceneJSON() throws -> JSONValue { .object([("matrix", try jsonNumbers(entries))]) }
}

extension CGPath {
    /// Reads SVG path data, or `{"rect": [x, y, w, h]}`, `{"ellipse": [x, y, w, h]}`,
    /// `{"roundedRect": [x, y, w, h, radius]}`, throwing `SceneError` at `node.path`.
    /// Finite numbers can make coordinates that are not (a rectangle at 1.8e308 whose width
    /// carries it past `Double`'s range): such a path is refused here, as a static field and an
    /// animation value alike, since nothing could draw or write it back (found by the fuzzer).
    static func read(scene node: SceneNode) throws -> CGPath {
        let path = try shape(scene: node)
        guard path.isFiniteValue else { throw node.error("the path's coordinates are not finite: its numbers overflow a Double") }
        return path
    }

    private static func shape(scene node: SceneNode) throws -> CGPath {
        if case .string(let s) = node.value {
            do { return try CGPath(svgPathData: s) } catch let e as SVGPathError { throw node.error("SVG path data \(e)") }
        }
        guard case .object = node.value else { throw node.mismatch("a path (SVG path data or a shape object)") }
        let object = try node.object(allowing: ["rect", "ellipse", "roundedRect"], what: "a path shape")
        guard object.members.count == 1, let member = object.members.first else {
            throw node.error("expected exactly one shape (rect, ellipse or roundedRect), found \(object.members.count)")
        }
        let isRounded = object.keys[0] == "roundedRect"
        let v = try member.numbers(isRounded ? 5 : 4, shape: isRounded ? "[x, y, w, h, radius]" : "[x, y, w, h]")
        let rect = CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
        if let problem = Rules.nonNegativeSize(rect) ?? (isRounded ? Rules.nonNegative(v[4]) : nil) { throw member.error(problem) }
        switch object.keys[0] {
        case "rect": return CGPath(rect: rect)
        case "ellipse": return CGPath(ellipseIn: rect)
        default: return CGPath(roundedRect: rect, cornerWidth: v[4], cornerHeight: v[4])
        }
    }

    /// SVG path data (shapes become their Béziers).
    func sceneJSON() throws -> JSONValue {
        // Non-finite coordinates print as "nan" or "inf", which no SVG reader accepts.
        let data = svgPathData
        guard (try? CGPath(svgPathData: data)) != nil else {
            throw SceneError(path: "", message: "a path with non-finite coordinates cannot be written")
        }
        return .string(data)
    }
}

/// A string-valued Core Animation enumeration; the scene spelling is the raw value.
protocol SceneEnum: SceneValue, CaseIterable, RawRepresentable where RawValue == String {}

extension SceneEnum {
    init(scene node: SceneNode) throws {
        let s = try String(scene: node)
        // Through allCases: the struct-backed gravities and filters accept any raw value.
        guard let v = Self.allCases.first(where: { $0.rawValue == s }) else {
            throw node.error("unknown value \"\(s)\"; expected one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = v
    }
    func sceneJSON() -> JSONValue { .string(rawValue) }
}

extension CALayerContentsGravity: SceneEnum {}
extension CALayerContentsFilter: SceneEnum {}
extension CAShapeLayerFillRule: SceneEnum {}
extension CAShapeLayerLineCap: SceneEnum {}
extension CAShapeLayerLineJoin: SceneEnum {}
extension CAGradientLayerType: SceneEnum {}
extension CATextLayerAlignmentMode: SceneEnum {}
extension CATextLayerTruncationMode: SceneEnum {}
extension CALayerCornerCurve: SceneEnum {}
extension CAScrollLayerScrollMode: SceneEnum {}

/// `maskedCorners`: the rounded corners by Core Animation's names, each at most once, e.g.
/// `["layerMinXMinYCorner", "layerMaxXMinYCorner"]` (the top two); `[]` rounds none.
extension CACornerMask: SceneValue {
    /// The corners in the order the names are written.
    static let sceneNames: [(name: String, corner: CACornerMask)] = [
        ("layerMinXMinYCorner", .layerMinXMinYCorner), ("layerMaxXMinYCorner", .layerMaxXMinYCorner),
        ("layerMinXMaxYCorner", .layerMinXMaxYCorner), ("layerMaxXMaxYCorner", .layerMaxXMaxYCorner),
    ]

    init(scene node: SceneNode) throws {
        self = []
        for element in try node.elements(shape: "an array of corner names") {
            let name = try String(scene: element)
            guard let corner = Self.sceneNames.first(where: { $0.name == name })?.corner else {
                throw element.error("unknown corner \"\(name)\"; expected one of \(Self.sceneNames.map(\.name).joined(separator: ", "))")
            }
            guard !contains(corner) else { throw element.error("corner \"\(name)\" is listed twice") }
            insert(corner)
        }
    }

    func sceneJSON() -> JSONValue {
        .array(Self.sceneNames.filter { contains($0.corner) }.map { .string($0.name) })
    }
}

/// Range rules beyond a value's type; each returns the message when the value breaks it.
enum Rules {
    static func nonNegative<F: BinaryFloatingPoint>(_ v: F) -> String? {
        v >= 0 ? nil : "must be >= 0, not \(shortestDecimal(v))"
    }
    static func positive<F: BinaryFloatingPoint>(_ v: F) -> String? {
        v > 0 ? nil : "must be > 0, not \(shortestDecimal(v))"
    }
    static func unitInterval<F: BinaryFloatingPoint>(_ v: F) -> String? {
        (0...1).contains(v) ? nil : "must be between 0 and 1, not \(shortestDecimal(v))"
    }
    static func nonNegativeWhole(_ v: Int) -> String? {
        v >= 0 ? nil : "must be >= 0, not \(v)"
    }
    static func nonNegativeSize(_ r: CGRect) -> String? {
        // `size`, not `width`: CGRect's width and height are standardized (never negative).
        r.size.width >= 0 && r.size.height >= 0 ? nil
            : "width and height must be >= 0, not \(shortestDecimal(r.size.width)) x \(shortestDecimal(r.size.height))"
    }
}

/// Types whose `init()` gives Core Animation's defaults: the property structs of the layers.
protocol SceneDefaults { init() }
extension LayerProperties: SceneDefaults {}
extension ShapeStyle: SceneDefaults {}
extension GradientStyle: SceneDefaults {}
extension TextStyle: SceneDefaults {}
extension ReplicatorStyle: SceneDefaults {}

/// One property of a layer's property struct `S`, as the scene field `key`: read when present,
/// written when it differs from Core Animation's default, checked by `rule` both ways.
struct SceneField<S: SceneDefaults> {
    let key: String
    let read: (inout S, SceneNode) throws -> Void
    let write: (S) throws -> JSONValue?
    /// Why the field's value in a struct breaks the field's rule; `nil` when it keeps it (or
    /// the field has none). Animation values are checked by it too (`SceneLayerType.problem`).
    let check: (S) -> String?

    /// A field holding a value of `kp`'s type.
    init<T: SceneValue & Equatable>(_ key: String, _ kp: WritableKeyPath<S, T>, _ rule: ((T) -> String?)? = nil) {
        let defaultValue = S()[keyPath: kp]
        self.key = key
        read = { s, node in s[keyPath: kp] = try node.read(rule) }
        let check = { (s: S) in rule?(s[keyPath: kp]) }
        self.check = check
        write = { s in
            let v = s[keyPath: kp]
            if v == defaultValue { return nil }
            let json = try v.sceneJSON()
            if let problem = check(s) { throw SceneError(path: "", message: problem) }
            return json
        }
    }

    /// A field for an optional property whose default is `nil` and that the file cannot set
    /// back to `nil` (there is no `null` for it): present means set.
    init<T: SceneValue & Equatable>(_ key: String, optional kp: WritableKeyPath<S, T?>) {
        self.init(key, optional: kp, read: T.init(scene:), json: { try $0.sceneJSON() })
    }

    /// A path field, as `optional:` is for `SceneValue`s (`CGPath`, a class from another
    /// module, cannot meet the protocol's initializer requirement).
    init(_ key: String, path kp: WritableKeyPath<S, CGPath?>) {
        self.init(key, optional: kp, read: CGPath.read(scene:), json: { try $0.sceneJSON() })
    }

    private init<T>(_ key: String, optional kp: WritableKeyPath<S, T?>, read: @escaping (SceneNode) throws -> T,
                    json: @escaping (T) throws -> JSONValue) {
        self.key = key
        self.read = { s, node in s[keyPath: kp] = try read(node) }
        write = { s in try s[keyPath: kp].map(json) }
        check = { _ in nil }
    }
}

/// The fields of one property struct: in order for writing, by key for reading.
struct SceneFieldTable<S: SceneDefaults> {
    let fields: [SceneField<S>]
    private let fieldsByKey: [String: SceneField<S>]

    init(_ fields: [SceneField<S>]) {
        self.fields = fields
        fieldsByKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })
    }

    /// The scene keys of the fields.
    var keys: [String] { fields.map(\.key) }

    /// Sets the fields present in `object`, in file order (so the first bad one is reported);
    /// keys that are not fields of this table are left to the caller.
    func read(_ object: SceneObject, into value: inout S) throws {
        for (key, node) in zip(object.keys, object.members) { try fieldsByKey[key]?.read(&value, node) }
    }

    /// Why the value of field `key` in `value` breaks its rule; `nil` when it keeps it or
    /// this table has no such field.
    func problem(_ key: String, in value: S) -> String? { fieldsByKey[key]?.check(value) }

    /// The members the writer emits for the fields of `value` that differ from the defaults;
    /// errors name `path.key`.
    func members(of value: S, at path: String) throws -> [(key: String, value: JSONValue)] {
        try fields.compactMap { field in
            try atPath("\(path).\(field.key)") { try field.write(value) }.map { (field.key, $0) }
        }
    }
}

/// Runs `body`, giving the path to a `SceneError` thrown with an empty one. The path is
/// built only then: the writer would otherwise make a string for every field of every layer.
func atPath<R>(_ path: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
    do { return try body() } catch var e as SceneError where e.path.isEmpty {
        e.path = path()
        throw e
    }
}
