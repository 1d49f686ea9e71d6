// The current path: built in user space and kept in device space, each element through the CTM
// as it is added.

import Foundation

extension CGContext {
    private var hasCurrentPoint: Bool { !devicePath.isEmpty }

    private func device(_ p: CGPoint) -> CGPoint? {
        let q = p.applying(state.ctm)
        return q.x.isFinite && q.y.isFinite ? q : nil
    }

    /// Empties the current path.
    public func beginPath() { devicePath = CGMutablePath() }
    /// A copy of the current path in user space (under the current CTM), or `nil` when it is
    /// empty.
    public var path: CGPath? {
        guard !devicePath.isEmpty, state.ctm.hasInverse else { return nil }
        var toUser = state.ctm.inverted()
        return devicePath.copy(using: &toUser)
    }
    /// Whether the current path has no elements.
    public var isPathEmpty: Bool { devicePath.isEmpty }
    /// The current point in user space (`.zero` for an empty path).
    public var currentPointOfPath: CGPoint { devicePath.currentPoint.applying(state.ctm.inverted()) }
    /// The bounding box of the current path, control points included, in user space; null
    /// for an empty path.
    public var boundingBoxOfPath: CGRect {
        devicePath.isEmpty ? .null : devicePath.boundingBox.applying(state.ctm.inverted())
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { if let p = device(point) { devicePath.move(to: p) } }
    /// Adds a line from the current point (or starts a subpath when there is none).
    public func addLine(to point: CGPoint) {
        guard let p = device(point) else { return }
        hasCurrentPoint ? devicePath.addLine(to: p) : devicePath.move(to: p)
    }
    /// Adds a cubic Bézier from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard let p = device(end), let c1 = device(control1), let c2 = device(control2) else { return }
        hasCurrentPoint ? devicePath.addCurve(to: p, control1: c1, control2: c2) : devicePath.move(to: p)
    }
    /// Adds a quadratic Bézier from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        guard let p = device(end), let c = device(control) else { return }
        hasCurrentPoint ? devicePath.addQuadCurve(to: p, control: c) : devicePath.move(to: p)
    }
    /// Closes the current subpath.
    public func closePath() { if hasCurrentPoint { devicePath.closeSubpath() } }

    /// Adds a closed rectangle.
    public func addRect(_ rect: CGRect) { addPath(CGPath(rect: rect)) }
    /// Adds closed rectangles.
    public func addRects(_ rects: [CGRect]) { rects.forEach(addRect) }
    /// Adds a closed ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { addPath(CGPath(ellipseIn: rect)) }
    /// Adds line segments joining `points` in order.
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        points.dropFirst().forEach(addLine)
    }

    /// Adds a circular arc of `radius` about `center` from `startAngle` to `endAngle` (radians,
    /// counterclockwise from +x in user space), turning clockwise (decreasing angles) or not;
    /// a line joins the current point to the arc's start. A sweep is at most a full circle.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        guard [center.x, center.y, radius, startAngle, endAngle].allSatisfy(\.isFinite) else { return }
        let sweep = CGPath.arcSweep(from: Double(startAngle), to: Double(endAngle), clockwise: clockwise)
        let arc = CGPath.arc(center: center, radius: abs(radius), startAngle: Double(startAngle), sweep: sweep)
        addLine(to: arc.start)
        for c in arc.curves { addCurve(to: c.end, control1: c.control1, control2: c.control2) }
    }

    /// Adds the arc of `radius` tangent to the line from the current point to `tangent1End`
    /// and to the line from `tangent1End` to `tangent2End`, after a line from the current point
    /// to the first tangent point (`CGContextAddArcToPoint`); where no such arc exists (zero
    /// radius, or the three points on one line) a line to `tangent1End`. The arc is made in
    /// user space, so a CTM that stretches it makes it elliptical. Without a current point
    /// nothing is added.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        guard device(tangent1End) != nil, device(tangent2End) != nil else { return }
        devicePath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: state.ctm)
    }

    /// Adds `path` (in user space) to the current path.
    public func addPath(_ path: CGPath) {
        for e in path.elements {
            switch e {
            case .moveTo(let p): move(to: p)
            case .lineTo(let p): addLine(to: p)
            case .quadCurveTo(let p, let c): addQuadCurve(to: p, control: c)
            case .curveTo(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closePath()
            }
        }
    }
}
