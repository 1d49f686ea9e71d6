import Foundation

/// A vector path: subpaths of lines and Bézier curves, as Core Graphics' `CGPath`.
///
/// Arcs and shapes are stored as cubic Béziers, so every consumer handles just four kinds of
/// element. `CGMutablePath` is the same type here: build with the `add…` methods.
public struct CGPath: Equatable, Sendable {
    /// One drawing command.
    public enum Element: Equatable, Sendable {
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

    /// The commands in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A path made of the given commands.
    public init(elements: [Element]) { self.elements = elements }

    /// A closed rectangle path (`CGPath(rect:transform:)`).
    public init(rect: CGRect) { addRect(rect) }

    /// A closed ellipse path inscribed in `rect` (`CGPath(ellipseIn:transform:)`).
    public init(ellipseIn rect: CGRect) { addEllipse(in: rect) }

    /// A rounded rectangle path with circular corners of `cornerRadius` (clamped to half the
    /// shorter side), as `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`.
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) { addRoundedRect(in: rect, cornerRadius: cornerRadius) }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next element starts.
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, current = CGPoint.zero
        for e in elements {
            switch e {
            case .moveTo(let p): start = p; current = p
            case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): current = p
            case .closeSubpath: current = start
            }
        }
        return current
    }

    /// Starts a new subpath.
    public mutating func move(to p: CGPoint) { elements.append(.moveTo(p)) }
    /// Adds a line from the current point.
    public mutating func addLine(to p: CGPoint) { elements.append(.lineTo(p)) }
    /// Adds a quadratic Bézier from the current point.
    public mutating func addQuadCurve(to p: CGPoint, control: CGPoint) { elements.append(.quadCurveTo(p, control: control)) }
    /// Adds a cubic Bézier from the current point.
    public mutating func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint) {
        elements.append(.curveTo(p, control1: control1, control2: control2))
    }
    /// Closes the current subpath.
    public mutating func closeSubpath() { elements.append(.closeSubpath) }

    /// Adds a closed rectangle, clockwise on a y-down screen from its minimum corner.
    public mutating func addRect(_ r: CGRect) {
        let r = r.standardized
        move(to: CGPoint(x: r.minX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        addLine(to: CGPoint(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Adds a closed ellipse inscribed in `rect`, as four cubic quarter arcs.
    public mutating func addEllipse(in rect: CGRect) {
        let r = rect.standardized
        addRoundedRect(in: r, cornerWidth: r.width / 2, cornerHeight: r.height / 2)
    }

    /// Adds a closed rounded rectangle with circular corners of `cornerRadius`.
    public mutating func addRoundedRect(in rect: CGRect, cornerRadius: CGFloat) {
        addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    /// Adds a closed rounded rectangle with elliptical corners; radii are clamped to half the
    /// rectangle's sides.
    public mutating func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat) {
        let r = rect.standardized
        let rx = min(max(cornerWidth, 0), r.width / 2), ry = min(max(cornerHeight, 0), r.height / 2)
        // Cubic approximation of a quarter circle: control points at k·radius along the tangents.
        let k: CGFloat = 0.5522847498307936
        let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
        move(to: CGPoint(x: x0 + rx, y: y0))
        addLine(to: CGPoint(x: x1 - rx, y: y0))
        addCurve(to: CGPoint(x: x1, y: y0 + ry), control1: CGPoint(x: x1 - rx + k * rx, y: y0), control2: CGPoint(x: x1, y: y0 + ry - k * ry))
        addLine(to: CGPoint(x: x1, y: y1 - ry))
        addCurve(to: CGPoint(x: x1 - rx, y: y1), control1: CGPoint(x: x1, y: y1 - ry + k * ry), control2: CGPoint(x: x1 - rx + k * rx, y: y1))
        addLine(to: CGPoint(x: x0 + rx, y: y1))
        addCurve(to: CGPoint(x: x0, y: y1 - ry), control1: CGPoint(x: x0 + rx - k * rx, y: y1), control2: CGPoint(x: x0, y: y1 - ry + k * ry))
        addLine(to: CGPoint(x: x0, y: y0 + ry))
        addCurve(to: CGPoint(x: x0 + rx, y: y0), control1: CGPoint(x: x0, y: y0 + ry - k * ry), control2: CGPoint(x: x0 + rx - k * rx, y: y0))
        closeSubpath()
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
}

/// Core Graphics' mutable path is the same value type here.
public typealias CGMutablePath = CGPath
