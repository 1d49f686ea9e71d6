import Foundation

/// An immutable vector path: subpaths of lines and Bézier curves, as Core Graphics' `CGPath`.
///
/// A reference type, as in Core Graphics: build one with `CGMutablePath`, then hand out
/// `copy()` where it must not change (a shape layer's `path` setter stores such a copy, as Core
/// Animation does). Arcs and shapes are stored as cubic Béziers, so every consumer handles
/// just the four kinds of element `applyWithBlock` reports.
///
/// `@unchecked Sendable`: a `CGPath`'s elements change only through `CGMutablePath`'s methods,
/// so a plain `CGPath` never changes after it is made and any thread may read it. A
/// `CGMutablePath`, like Core Graphics', must not be mutated while another thread reads it;
/// layers and snapshots keep immutable copies, so the renderers never see one.
public class CGPath: Hashable, @unchecked Sendable {
    /// One drawing command.
    package enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case moveTo(CGPoint)
        /// A straight line to a point.
        case lineTo(CGPoint)
        /// A quadratic Bézier with one control point.
        case quadCurveTo(CGPoint, control: CGPoint)
        /// A cubic Bézier with two control points.
        case curveTo(CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the current subpath with a line back to its start.
        case closeSubpath
    }

    /// The commands in order: a value, so a copy shares the storage until either changes it.
    package fileprivate(set) var elements: [Element]

    /// An empty path.
    public init() { elements = [] }

    /// A path made of the given commands.
    package init(elements: [Element]) { self.elements = elements }

    /// A closed rectangle path, through `transform` when one is given
    /// (`CGPath(rect:transform:)`).
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let m = CGMutablePath()
        m.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: m.elements)
    }

    /// A closed ellipse path inscribed in `rect`, through `transform` when one is given
    /// (`CGPath(ellipseIn:transform:)`).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let m = CGMutablePath()
        m.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: m.elements)
    }

    /// A closed rounded rectangle path with elliptical corners of `cornerWidth` x
    /// `cornerHeight`, through `transform` when one is given
    /// (`CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`). Core Graphics requires the
    /// corners to fit; here they are clamped to half the rectangle's sides.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>? = nil) {
        let m = CGMutablePath()
        m.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(elements: m.elements)
    }

    /// An immutable copy (`CGPathCreateCopy`): the receiver itself when it is already
    /// immutable. Optional, as Core Graphics' is; never `nil` here.
    public func copy() -> CGPath? { type(of: self) == CGPath.self ? self : CGPath(elements: elements) }

    /// An immutable copy with every point mapped through `transform` when one is given
    /// (`CGPathCreateCopyByTransformingPath`).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let t = transform?.pointee else { return copy() }
        return CGPath(elements: elements.map { $0.applying(t) })
    }

    /// A mutable copy (`CGPathCreateMutableCopy`) that later changes to either path do not
    /// reach. Optional, as Core Graphics' is; never `nil` here.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }

    /// A mutable copy with every point mapped through `transform` when one is given
    /// (`CGPathCreateMutableCopyByTransformingPath`).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        guard let t = transform?.pointee else { return mutableCopy() }
        return CGMutablePath(elements: elements.map { $0.applying(t) })
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next element starts: the end of the last element, the start of the
    /// last subpath after `closeSubpath`, `.zero` for an empty path.
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, current = CGPoint.zero
        for e in elements {
            switch e {
            case .moveTo(let p): start = p
                current = p
            case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): current = p
            case .closeSubpath: current = start
            }
        }
        return current
    }

    /// The bounding box of all points, control points included (`CGPath.boundingBox`); null
    /// for an empty path.
    public var boundingBox: CGRect {
        var pts: [CGPoint] = []
        for e in elements {
            switch e {
            case .moveTo(let p), .lineTo(let p): pts.append(p)
            case .quadCurveTo(let p, let c): pts += [p, c]
            case .curveTo(let p, let c1, let c2): pts += [p, c1, c2]
            case .closeSubpath: break
            }
        }
        return CGRect.boundingBox(of: pts)
    }

    /// Whether the path is one closed axis-aligned rectangle (a moveto, three lines, perhaps a
    /// fourth back to the start, and a close, as `addRect` makes, turned either way); if so and
    /// `rect` is given, it receives the rectangle (`CGPathIsRect`).
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var corners: [CGPoint] = []
        for (i, e) in elements.enumerated() {
            switch e {
            case .moveTo(let p) where i == 0: corners.append(p)
            case .lineTo(let p) where i > 0: corners.append(p)
            case .closeSubpath where i == elements.count - 1: break
            default: return false
            }
        }
        if corners.count == 5 && corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4, elements.last == .closeSubpath else { return false }
        // Sides alternate horizontal and vertical, starting with either.
        func side(_ i: Int) -> (horizontal: Bool, vertical: Bool) {
            let a = corners[i], b = corners[(i + 1) % 4]
            return (a.y == b.y && a.x != b.x, a.x == b.x && a.y != b.y)
        }
        let firstHorizontal = side(0).horizontal
        guard (0..<4).allSatisfy({ side($0).horizontal == (firstHorizontal == ($0 % 2 == 0)) && side($0).vertical != side($0).horizontal })
        else { return false }
        rect?.pointee = CGRect.boundingBox(of: corners)
        return true
    }

    /// Calls `block` with each element in order, its points laid out as Core Graphics lays
    /// them out: control points first, the end point last (`CGPathApply`).
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        for e in elements {
            var element = CGPathElement(type: .closeSubpath, points: points)
            switch e {
            case .moveTo(let p): element.type = .moveToPoint
                points[0] = p
            case .lineTo(let p): element.type = .addLineToPoint
                points[0] = p
            case .quadCurveTo(let p, let c): element.type = .addQuadCurveToPoint
                points[0] = c
                points[1] = p
            case let .curveTo(p, c1, c2): element.type = .addCurveToPoint
                points[0] = c1
                points[1] = c2
                points[2] = p
            case .closeSubpath: break
            }
            withUnsafePointer(to: element, block)
        }
    }

    /// Whether both paths have the same elements with the same points (`CGPathEqualToPath`).
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }

    /// Hashes the elements, so equal paths hash equally.
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

/// A path that can be changed, as Core Graphics' `CGMutablePath`: a reference, so
/// `let path = CGMutablePath(); path.move(to: p)` builds in place.
///
/// Every method takes an optional `transform` that maps its points before they are added.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    private func append(_ e: Element, _ transform: CGAffineTransform) {
        elements.append(transform.isIdentity ? e : e.applying(transform))
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) { append(.moveTo(point), transform) }

    /// Adds a line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) { append(.lineTo(point), transform) }

    /// Adds a quadratic Bézier from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        append(.quadCurveTo(end, control: control), transform)
    }

    /// Adds a cubic Bézier from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        append(.curveTo(end, control1: control1, control2: control2), transform)
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() { elements.append(.closeSubpath) }

    /// Adds a closed rectangle, clockwise on a y-down screen from its minimum corner, as Core
    /// Graphics orders it.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// Starts a subpath at the first point and adds lines through the rest; nothing for no
    /// points.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    /// Adds a closed ellipse inscribed in `rect`, as four cubic quarter arcs.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        addRoundedRect(in: r, cornerWidth: r.width / 2, cornerHeight: r.height / 2, transform: transform)
    }

    /// Adds a closed rounded rectangle with elliptical corners; the radii are clamped to half
    /// the rectangle's sides.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let rx = min(max(cornerWidth, 0), r.width / 2), ry = min(max(cornerHeight, 0), r.height / 2)
        // Cubic approximation of a quarter circle: control points at k·radius along the tangents.
        let k: CGFloat = 0.5522847498307936
        let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
        let t = transform
        move(to: CGPoint(x: x0 + rx, y: y0), transform: t)
        addLine(to: CGPoint(x: x1 - rx, y: y0), transform: t)
        addCurve(to: CGPoint(x: x1, y: y0 + ry), control1: CGPoint(x: x1 - rx + k * rx, y: y0), control2: CGPoint(x: x1, y: y0 + ry - k * ry), transform: t)
        addLine(to: CGPoint(x: x1, y: y1 - ry), transform: t)
        addCurve(to: CGPoint(x: x1 - rx, y: y1), control1: CGPoint(x: x1, y: y1 - ry + k * ry), control2: CGPoint(x: x1 - rx + k * rx, y: y1), transform: t)
        addLine(to: CGPoint(x: x0 + rx, y: y1), transform: t)
        addCurve(to: CGPoint(x: x0, y: y1 - ry), control1: CGPoint(x: x0 + rx - k * rx, y: y1), control2: CGPoint(x: x0, y: y1 - ry + k * ry), transform: t)
        addLine(to: CGPoint(x: x0, y: y0 + ry), transform: t)
        addCurve(to: CGPoint(x: x0 + rx, y: y0), control1: CGPoint(x: x0, y: y0 + ry - k * ry), control2: CGPoint(x: x0 + rx - k * rx, y: y0), transform: t)
        closeSubpath()
    }

    /// Adds a circular arc of `radius` about `center` from `startAngle` to `endAngle` (radians
    /// from +x towards +y), turning towards decreasing angles when `clockwise` (clockwise on
    /// Core Graphics' y-up screen, anticlockwise on a y-down layer). A line joins the current
    /// point to the arc's start, or the arc starts a subpath on an empty path. The sweep is at
    /// most a full turn; non-finite arguments add nothing.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        guard [center.x, center.y, radius, startAngle, endAngle].allSatisfy(\.isFinite) else { return }
        let sweep = Self.arcSweep(from: Double(startAngle), to: Double(endAngle), clockwise: clockwise)
        addArc(Self.arc(center: center, radius: abs(radius), startAngle: Double(startAngle), sweep: sweep), transform)
    }

    /// Adds a circular arc of `radius` about `center` from `startAngle` turning by `delta`
    /// radians (positive: towards increasing angles), joined to the current point as
    /// `addArc(center:…)` is. A sweep beyond a full turn draws one full turn.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard [center.x, center.y, radius, startAngle, delta].allSatisfy(\.isFinite) else { return }
        let sweep = min(max(Double(delta), -2 * .pi), 2 * .pi)
        addArc(Self.arc(center: center, radius: abs(radius), startAngle: Double(startAngle), sweep: sweep), transform)
    }

    /// Adds the arc of `radius` tangent to the line from the current point to `tangent1End`
    /// and to the line from `tangent1End` to `tangent2End`, preceded by a line from the current
    /// point to the first tangent point (`CGPathAddArcToPoint`); the current point becomes the
    /// second tangent point. Where no such arc exists (zero radius, or the three points on one
    /// line) it adds a line to `tangent1End`. An empty path has no current point: nothing is
    /// added, as Core Graphics adds nothing.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        guard !isEmpty, [tangent1End.x, tangent1End.y, tangent2End.x, tangent2End.y, radius].allSatisfy(\.isFinite) else { return }
        // The current point is stored transformed; the tangent construction is in user space.
        guard transform.hasInverse else { return addLine(to: tangent1End, transform: transform) }
        let p0 = currentPoint.applying(transform.inverted())
        let (x1, y1) = (Double(tangent1End.x), Double(tangent1End.y)), r = abs(Double(radius))
        var (ux, uy) = (Double(p0.x) - x1, Double(p0.y) - y1), (vx, vy) = (Double(tangent2End.x) - x1, Double(tangent2End.y) - y1)
        let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
        guard r > 0, lu > 0, lv > 0 else { return addLine(to: tangent1End, transform: transform) }
        (ux, uy, vx, vy) = (ux / lu, uy / lu, vx / lv, vy / lv)
        // θ: the angle at tangent1End between the two lines; the tangent points lie r / tan(θ/2)
        // along them, and the centre r / sin(θ/2) along the bisector.
        let theta = atan2(abs(ux * vy - uy * vx), ux * vx + uy * vy)
        guard theta > 0, theta < .pi else { return addLine(to: tangent1End, transform: transform) }
        let d = r / tan(theta / 2), bx = ux + vx, by = uy + vy, lb = (bx * bx + by * by).squareRoot()
        let cx = x1 + bx / lb * r / sin(theta / 2), cy = y1 + by / lb * r / sin(theta / 2)
        let a0 = atan2(y1 + uy * d - cy, x1 + ux * d - cx), a1 = atan2(y1 + vy * d - cy, x1 + vx * d - cx)
        // Points near Double's limit overflow the construction: the arc is then past drawing.
        guard [cx, cy, a0, a1].allSatisfy(\.isFinite) else { return addLine(to: tangent1End, transform: transform) }
        // The short way round: the arc turns by π - θ < π.
        let sweep = remainder(a1 - a0, 2 * .pi)
        addArc(Self.arc(center: CGPoint(x: cx, y: cy), radius: CGFloat(r), startAngle: a0, sweep: sweep), transform)
    }

    /// Adds the elements of `path`, mapped through `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        elements += transform.isIdentity ? path.elements : path.elements.map { $0.applying(transform) }
    }

    private func addArc(_ arc: Arc, _ transform: CGAffineTransform) {
        isEmpty ? move(to: arc.start, transform: transform) : addLine(to: arc.start, transform: transform)
        for c in arc.curves { addCurve(to: c.end, control1: c.control1, control2: c.control2, transform: transform) }
    }
}

extension CGPath {
    /// A circular arc as cubic Béziers of at most a quarter turn each.
    package struct Arc {
        /// Where the arc starts.
        package var start: CGPoint
        /// The Béziers in order.
        package var curves: [(end: CGPoint, control1: CGPoint, control2: CGPoint)]
    }

    /// The signed sweep from `a0` to `a1` turning towards decreasing angles when `clockwise`,
    /// increasing otherwise: at most a full turn either way.
    package static func arcSweep(from a0: Double, to a1: Double, clockwise: Bool) -> Double {
        var sweep = a1 - a0
        let turn = 2 * Double.pi
        // Angles near Double's limit, a whole number of turns apart for all rounding tells.
        guard sweep.isFinite else { return clockwise ? -turn : turn }
        if clockwise, sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) - turn }
        if !clockwise, sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) + turn }
        return min(max(sweep, -turn), turn)
    }

    /// The arc of radius `r` about `center` from angle `a0` turning by `sweep` (finite, at
    /// most a full turn either way).
    package static func arc(center: CGPoint, radius r: CGFloat, startAngle a0: Double, sweep: Double) -> Arc {
        let r = Double(r)
        func point(_ a: Double) -> CGPoint { CGPoint(x: Double(center.x) + r * cos(a), y: Double(center.y) + r * sin(a)) }
        // A quarter turn that rounding made a hair longer is still one piece.
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) * (1 - 1e-12)).rounded(.up)))
        let step = sweep / Double(pieces)
        // A cubic through the ends of an arc of angle φ, tangent there: handles 4/3·tan(φ/4)·r long.
        let h = 4.0 / 3.0 * tan(step / 4) * r
        var arc = Arc(start: point(a0), curves: [])
        for i in 0..<pieces {
            let s = a0 + Double(i) * step, e = s + step
            let p0 = point(s), p1 = point(e)
            arc.curves.append((p1, CGPoint(x: Double(p0.x) - h * sin(s), y: Double(p0.y) + h * cos(s)),
                               CGPoint(x: Double(p1.x) + h * sin(e), y: Double(p1.y) - h * cos(e))))
        }
        return arc
    }
}

extension CGPath.Element {
    /// The element with every point mapped through `t`.
    func applying(_ t: CGAffineTransform) -> Self {
        switch self {
        case .moveTo(let p): .moveTo(p.applying(t))
        case .lineTo(let p): .lineTo(p.applying(t))
        case let .quadCurveTo(p, c): .quadCurveTo(p.applying(t), control: c.applying(t))
        case let .curveTo(p, c1, c2): .curveTo(p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        case .closeSubpath: .closeSubpath
        }
    }
}

/// The kind of a path element `applyWithBlock` reports (`CGPathElementType`).
public enum CGPathElementType: Int32, Sendable {
    /// Starts a subpath at `points[0]`.
    case moveToPoint = 0
    /// A line to `points[0]`.
    case addLineToPoint = 1
    /// A quadratic Bézier: control point `points[0]`, end `points[1]`.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier: control points `points[0]` and `points[1]`, end `points[2]`.
    case addCurveToPoint = 3
    /// Closes the current subpath; no points.
    case closeSubpath = 4
}

/// One element of a path as `applyWithBlock` reports it (`CGPathElement`): valid only during
/// the call.
public struct CGPathElement {
    /// What the element does.
    public var type: CGPathElementType
    /// Its points: as many as `type` says.
    public var points: UnsafeMutablePointer<CGPoint>

    /// An element of `type` over `points`.
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

