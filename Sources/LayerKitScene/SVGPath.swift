// SVG path data (the `d` attribute, SVG 2 §9.3) to and from `CGPath`.
//
// Scene files spell paths this way. Reading follows the SVG grammar strictly: every command
// in absolute and relative form, implicit repetition of a command's arguments (extra pairs
// after a moveto are linetos), numbers such as `1e-3` and `-.5.5` (two numbers), and arc
// flags packed without separators (`a1 1 0 0110 10`). Smooth curves reflect the previous
// control point; arcs become cubic Béziers of at most 90° each, found through the endpoint to
// centre conversion of the SVG implementation notes (§B.2.4), radii scaled up when they
// cannot reach the end point. A drawing command after `Z` starts its subpath with an explicit
// moveto at the closed subpath's start, as SVG defines, so consumers never see an implicit one.

import Foundation

/// Why SVG path data could not be read: the character offset (from 0) where reading stopped,
/// what the grammar expected there and what was found.
public struct SVGPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset of the offending character, counted in Unicode scalars from 0.
    public let offset: Int
    /// What the grammar allows at that point, e.g. "a number".
    public let expected: String
    /// What is there instead, e.g. "'x'" or "end of data".
    public let found: String

    /// One line: "at character 12: expected a number, found 'x'".
    public var description: String { "at character \(offset): expected \(expected), found \(found)" }
}

extension CGPath {
    /// Reads SVG path data (`"M 0 0 L 10 0 L 10 10 Z"`); empty or blank data is an empty path.
    ///
    /// - Throws: `SVGPathError` naming the character offset and what was expected.
    public convenience init(svgPathData: String) throws {
        var reader = SVGPathReader(Array(svgPathData.unicodeScalars))
        self.init(elements: try reader.read().elements)
    }

    /// The path as SVG path data using only `M`, `L`, `Q`, `C` and `Z` with absolute
    /// coordinates in the shortest form that reads back exactly, so
    /// `CGPath(svgPathData: p.svgPathData) == p` for every path whose subpaths start with a
    /// moveto (all paths read from SVG do). A subpath that starts without one is written
    /// with an explicit `M` at its implied start point.
    public var svgPathData: String {
        var parts: [String] = []
        var start = CGPoint.zero, current = CGPoint.zero, needsMove = true
        func emit(_ command: String, _ points: [CGPoint]) {
            if needsMove && command != "M" { parts.append("M \(shortestDecimal(current.x)) \(shortestDecimal(current.y))") }
            needsMove = false
            parts.append(([command] + points.flatMap { [shortestDecimal($0.x), shortestDecimal($0.y)] }).joined(separator: " "))
        }
        for e in elements {
            switch e {
            case .moveTo(let p): emit("M", [p])
                start = p
                current = p
            case .lineTo(let p): emit("L", [p])
                current = p
            case .quadCurveTo(let p, let c): emit("Q", [c, p])
                current = p
            case .curveTo(let p, let c1, let c2): emit("C", [c1, c2, p])
                current = p
            case .closeSubpath: parts.append("Z")
                current = start
                needsMove = true
            }
        }
        return parts.joined(separator: " ")
    }
}

/// The state of one reading of SVG path data.
private struct SVGPathReader {
    let text: [Unicode.Scalar]
    var index = 0
    let path = CGMutablePath()
    var current = CGPoint.zero
    var subpathStart = CGPoint.zero
    /// Set by `Z`: the next drawing command must first move to `subpathStart`.
    var needsMove = false
    /// The second control point of the previous command when it was C or S (for S).
    var lastCubicControl: CGPoint?
    /// The control point of the previous command when it was Q or T (for T).
    var lastQuadControl: CGPoint?
    /// Whether a comma was just skipped, so that a number must follow.
    var afterComma = false

    init(_ text: [Unicode.Scalar]) { self.text = text }

    var found: String {
        guard index < text.count else { return "end of data" }
        return "'\(text[index].escaped(asASCII: false))'"
    }

    func error(_ expected: String) -> SVGPathError { SVGPathError(offset: index, expected: expected, found: found) }

    mutating func skipWhitespace() {
        while index < text.count, [" ", "\t", "\n", "\r", "\u{0C}"].contains(text[index]) { index += 1 }
    }

    /// Skips the separator after an argument: whitespace with at most one comma.
    mutating func skipSeparator() {
        skipWhitespace()
        afterComma = index < text.count && text[index] == ","
        if afterComma {
            index += 1
            skipWhitespace()
        }
    }

    mutating func read() throws -> CGPath {
        skipWhitespace()
        var command: Unicode.Scalar?
        while index < text.count {
            let c = text[index]
            if c.properties.isAlphabetic && !"eE".unicodeScalars.contains(c) {
                guard !afterComma else { throw error("a number after ','") }
                guard "MmLlHhVvCcSsQqTtAaZz".unicodeScalars.contains(c) else { throw error("a path command (one of MLHVCSQTAZ, either case)") }
                guard command != nil || c == "M" || c == "m" else { throw error("a moveto command (M or m) to start the path") }
                command = c
                index += 1
                skipWhitespace()
            } else if command == nil {
                throw error("a moveto command (M or m) to start the path")
            } else if command == "Z" || command == "z" {
                throw error("a path command after Z")
            }
            command = try segment(command!)
        }
        guard !afterComma else { throw error("a number after ','") }
        return path
    }

    mutating func number() throws -> CGFloat {
        let start = index
        func digits(_ r: inout SVGPathReader) -> Int {
            let s = r.index
            while r.index < r.text.count, ("0"..."9").contains(r.text[r.index]) { r.index += 1 }
            return r.index - s
        }
        if index < text.count, text[index] == "+" || text[index] == "-" { index += 1 }
        var mantissaDigits = digits(&self)
        if index < text.count, text[index] == "." {
            index += 1
            mantissaDigits += digits(&self)
        }
        guard mantissaDigits > 0 else {
            index = start
            throw error("a number")
        }
        if index < text.count, text[index] == "e" || text[index] == "E" {
            index += 1
            if index < text.count, text[index] == "+" || text[index] == "-" { index += 1 }
            guard digits(&self) > 0 else { throw error("the digits of an exponent") }
        }
        let v = Double(String(String.UnicodeScalarView(text[start..<index])))!
        guard v.isFinite else {
            index = start
            throw error("a number within the range of a double")
        }
        skipSeparator()
        return CGFloat(v)
    }

    mutating func flag() throws -> Bool {
        guard index < text.count, text[index] == "0" || text[index] == "1" else { throw error("a flag (0 or 1)") }
        let isSet = text[index] == "1"
        index += 1
        skipSeparator()
        return isSet
    }

    mutating func point(relative: Bool) throws -> CGPoint {
        let x = try number(), y = try number()
        return relative ? CGPoint(x: current.x + x, y: current.y + y) : CGPoint(x: x, y: y)
    }

    /// Reads one set of arguments for `command` and draws it; returns the command that
    /// implicitly repeats (a moveto's extra pairs are linetos).
    mutating func segment(_ command: Unicode.Scalar) throws -> Unicode.Scalar {
        let relative = command.properties.isLowercase
        var cubicControl: CGPoint?, quadControl: CGPoint?
        defer {
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
        }
        switch command {
        case "M", "m":
            current = try point(relative: relative)
            subpathStart = current
            needsMove = false
            path.move(to: current)
            return relative ? "l" : "L"
        case "Z", "z":
            path.closeSubpath()
            current = subpathStart
            needsMove = true
            return command
        default: break
        }
        let from = current
        var to: CGPoint
        switch command {
        case "L", "l":
            to = try point(relative: relative)
            startSubpathIfNeeded()
            path.addLine(to: to)
        case "H", "h":
            let x = try number()
            to = CGPoint(x: relative ? from.x + x : x, y: from.y)
            startSubpathIfNeeded()
            path.addLine(to: to)
        case "V", "v":
            let y = try number()
            to = CGPoint(x: from.x, y: relative ? from.y + y : y)
            startSubpathIfNeeded()
            path.addLine(to: to)
        case "C", "c", "S", "s":
            let c1: CGPoint
            if command == "C" || command == "c" {
                c1 = try point(relative: relative)
            } else {
                c1 = lastCubicControl.map { CGPoint(x: 2 * from.x - $0.x, y: 2 * from.y - $0.y) } ?? from
            }
            let c2 = try point(relative: relative)
            to = try point(relative: relative)
            cubicControl = c2
            startSubpathIfNeeded()
            path.addCurve(to: to, control1: c1, control2: c2)
        case "Q", "q", "T", "t":
            let c: CGPoint
            if command == "Q" || command == "q" {
                c = try point(relative: relative)
            } else {
                c = lastQuadControl.map { CGPoint(x: 2 * from.x - $0.x, y: 2 * from.y - $0.y) } ?? from
            }
            to = try point(relative: relative)
            quadControl = c
            startSubpathIfNeeded()
            path.addQuadCurve(to: to, control: c)
        default:  // "A", "a"
            let rx = abs(try number()), ry = abs(try number())
            let rotation = try number()
            let largeArc = try flag(), sweep = try flag()
            to = try point(relative: relative)
            startSubpathIfNeeded()
            addArc(from: from, to: to, rx: rx, ry: ry, degrees: rotation, largeArc: largeArc, sweep: sweep)
        }
        current = to
        return command
    }

    mutating func startSubpathIfNeeded() {
        if needsMove {
            path.move(to: subpathStart)
            needsMove = false
        }
    }

    /// Appends the elliptical arc as cubic Béziers of at most 90° each (SVG §B.2.4–B.2.5).
    mutating func addArc(from p1: CGPoint, to p2: CGPoint, rx: CGFloat, ry: CGFloat, degrees: CGFloat,
                         largeArc: Bool, sweep: Bool) {
        // Out-of-range parameters (B.2.5): a zero radius is a line, equal endpoints draw nothing.
        if p1 == p2 { return }
        if rx == 0 || ry == 0 {
            path.addLine(to: p2)
            return
        }
        let phi = Double(degrees) * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let (x1, y1, x2, y2) = (Double(p1.x), Double(p1.y), Double(p2.x), Double(p2.y))
        let dx = (x1 - x2) / 2, dy = (y1 - y2) / 2
        let x1p = cosPhi * dx + sinPhi * dy
        let y1p = -sinPhi * dx + cosPhi * dy
        var rx = Double(rx), ry = Double(ry)
        let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
        let denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
        let coefficient = (largeArc == sweep ? -1.0 : 1.0) * max(0, numerator / denominator).squareRoot()
        let cxp = coefficient * rx * y1p / ry
        let cyp = -coefficient * ry * x1p / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (x1 + x2) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (y1 + y2) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1p - cxp) / rx, uy = (y1p - cyp) / ry
        let vx = (-x1p - cxp) / rx, vy = (-y1p - cyp) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        // Radii and end points far apart in magnitude (13 against 1e300) overflow the squares
        // above to infinity and the centre to NaN: such an arc cannot be placed in doubles, so
        // it draws as its chord, like the zero radius of B.2.5, rather than trap on NaN pieces.
        guard delta.isFinite, theta1.isFinite, cx.isFinite, cy.isFinite, rx.isFinite, ry.isFinite,
              cosPhi.isFinite, sinPhi.isFinite else {
            path.addLine(to: p2)
            return
        }

        // Each piece approximates a circular arc on the unit circle, then maps to the ellipse;
        // k = 4/3·tan(δ/4) puts the curve's midpoint exactly on the circle.
        let pieces = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ x: Double, _ y: Double) -> CGPoint {
            CGPoint(x: cx + rx * cosPhi * x - ry * sinPhi * y, y: cy + rx * sinPhi * x + ry * cosPhi * y)
        }
        for i in 0..<pieces {
            let a = theta1 + Double(i) * step, b = a + step
            let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
            let end = i == pieces - 1 ? p2 : onEllipse(cb, sb)
            path.addCurve(to: end, control1: onEllipse(ca - k * sa, sa + k * ca), control2: onEllipse(cb + k * sb, sb - k * cb))
        }
    }
}
