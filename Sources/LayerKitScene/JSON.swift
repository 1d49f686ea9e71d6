// The JSON that scene files are made of: a small strict parser and a deterministic writer.
//
// Foundation's JSONSerialization is not used because it cannot read every valid scene: it
// refuses containers nested more than 512 deep (a scene may nest layers 1000 deep, two JSON
// levels each), and it quietly accepts what a strict reader must refuse (trailing commas,
// duplicate keys, numbers like 1e999 reported without their place). Its output also differs
// between platforms. Here objects keep their keys in file order, so errors name the first
// offending key as the author wrote it, and the writer sorts keys and prints every number in
// the shortest form that reads back to the same bits.

/// A parsed JSON value. Numbers are `Double`s, exactly as strtod rounds the text; an
/// out-of-range literal such as `1e999` becomes infinity for the scene reader to refuse
/// with its path.
enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order (keys are unique: the parser refuses duplicates).
    case object([(key: String, value: JSONValue)])

    /// What the value is, for "expected …, found …" messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Why a text is not JSON, with the line and column (both from 1) where reading stopped.
struct JSONSyntaxError: Error {
    let line: Int
    let column: Int
    let message: String
}

/// A recursive-descent parser over UTF-8 bytes (RFC 8259; a leading byte order mark is skipped).
struct JSONParser {
    /// Deeper nesting than any valid scene needs is refused before it can exhaust the stack.
    static let maximumNesting = 2 * Scene.maximumDepth + 8

    private let bytes: [UInt8]
    private var index = 0
    private var nesting = 0

    /// Parses a whole document; anything but whitespace after the value is an error.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected \(parser.found) after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var found: String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        return b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : String(format: "byte 0x%02X", b)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[..<min(index, bytes.count)] {
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ ascii: Unicode.Scalar, _ context: String) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ascii) else {
            throw error("expected '\(ascii)' \(context), found \(found)")
        }
        index += 1
    }

    private mutating func value() throws -> JSONValue {
        guard TreeRecursion.hasRoom else { return try TreeRecursion.onFreshStack { try value() } }
        skipWhitespace()
        guard index < bytes.count else { throw error("expected a value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try container { try $0.objectBody() }
        case UInt8(ascii: "["): return try container { try $0.arrayBody() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"): try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"): try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(found)")
        }
    }

    private mutating func container(_ body: (inout JSONParser) throws -> JSONValue) throws -> JSONValue {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maximumNesting {
            throw error("nested more than \(Self.maximumNesting) levels deep (layers may nest at most \(Scene.maximumDepth) deep)")
        }
        index += 1
        return try body(&self)
    }

    private mutating func objectBody() throws -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        // Scene objects have a handful of keys, which a scan of the members checks faster than
        // hashing every key; a set takes over past that, so a hostile object of 10^6 keys
        // stays linear.
        var keys: Set<String>?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(found)")
            }
            let keyStart = index
            let key = try string()
            let isNew: Bool
            if keys == nil, members.count < 16 {
                isNew = !members.contains { $0.key == key }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
                isNew = keys!.insert(key).inserted
            }
            guard isNew else {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            try expect(":", "after the key \"\(key)\"")
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}' in an object, found end of file") }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: index -= 1
                throw error("expected ',' or '}' in an object, found \(found)")
            }
        }
    }

    private mutating func arrayBody() throws -> JSONValue {
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']' in an array, found end of file") }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: index -= 1
                throw error("expected ',' or ']' in an array, found \(found)")
            }
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard bytes[index...].starts(with: w) else { throw error("expected a value, found \(found)") }
        index += w.count
    }

    private mutating func number() throws -> Double {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("expected a digit, found \(found)") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") {
            index = intStart + 1
            throw error("a number must not have a leading zero")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits(&self) > 0 else { throw error("expected a digit after '.', found \(found)") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent, found \(found)") }
        }
        // Most scene numbers are small integers: skip the text round trip for them.
        if isInteger, intDigits <= 15 {
            var v = 0
            for b in bytes[intStart..<index] { v = v * 10 + Int(b - UInt8(ascii: "0")) }
            return bytes[start] == UInt8(ascii: "-") ? -Double(v) : Double(v)
        }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self))!
    }

    private mutating func string() throws -> String {
        index += 1  // the opening quote
        var utf8: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw error("control character \(found) in a string (write it as an escape)") }
            if b != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            utf8 += bytes[runStart..<index]
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                        throw error("a high surrogate must be followed by a \\u low surrogate")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("expected a low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("unpaired surrogate in a \\u escape") }
                utf8 += Array(String(Character(u)).utf8)
            default:
                index -= 1
                throw error("invalid escape \\\(Character(Unicode.Scalar(e)))")
            }
            runStart = index
        }
        // Without escapes (nearly every string) the bytes become the string directly.
        let s = utf8.isEmpty ? String(validating: bytes[runStart..<index], as: UTF8.self)
            : String(validating: utf8 + bytes[runStart..<index], as: UTF8.self)
        guard let s else {
            throw error("invalid UTF-8 in the string ending here")
        }
        index += 1  // the closing quote
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let d = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                throw error("expected 4 hex digits after \\u, found \(found)")
            }
            v = v * 16 + UInt32(d)
            index += 1
        }
        return v
    }
}

extension JSONValue {
    /// The value as UTF-8 text: objects one member per line with keys sorted, arrays of plain
    /// values on one line, two-space indent, a final newline. The same value always gives the
    /// same bytes, on every platform.
    func serialized() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func write(to out: inout [UInt8], indent: Int) {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { write(to: &out, indent: indent) } }
        func newline(_ level: Int) {
            out.append(UInt8(ascii: "\n"))
            out += repeatElement(UInt8(ascii: " "), count: 2 * level)
        }
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .number(let d): out += Array(shortestDecimal(d).utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            let inline = elements.allSatisfy {
                switch $0 {
                    case .array, .object: return false
                        default: return true
                }
            }
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 {
                    out.append(UInt8(ascii: ","))
                    if inline { out.append(UInt8(ascii: " ")) }
                }
                if !inline { newline(indent + 1) }
                e.write(to: &out, indent: indent + 1)
            }
            if !inline && !elements.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                JSONValue.writeString(m.key, to: &out)
                out += Array(": ".utf8)
                m.value.write(to: &out, indent: indent + 1)
            }
            if !members.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): out += Array("\\n".utf8)
            case UInt8(ascii: "\r"): out += Array("\\r".utf8)
            case UInt8(ascii: "\t"): out += Array("\\t".utf8)
            case ..<0x20: out += Array(String(format: "\\u%04X", b).utf8)
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The shortest decimal text that reads back as exactly `v` (Swift's own printing), with
/// integral values written without a fraction ("200", not "200.0") and -0 written as 0.
/// Scene files and SVG path data both use it, so numbers survive a write and read unchanged.
package func shortestDecimal(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return v.description
}

/// `shortestDecimal` in the value's own type's shortest form: a `Float` 0.1 is "0.1", not
/// the 0.10000000149011612 of its `Double` value.
func shortestDecimal<F: BinaryFloatingPoint>(_ v: F) -> String { shortestDecimal(Double("\(v)") ?? Double(v)) }
