import Foundation

// The questions Core Graphics answers about a path: its tight bounds, which points it
// contains, and the paths of its stroke and dashes. Containment, stroking and dashing work on
// the path flattened as the rasterizer flattens it, finer by `flatteningScale`.

extension CGPath {
    /// How much finer than the rasterizer's 0.1 pixel the geometry queries flatten curves: the
    /// chords stay within about 0.006 units of the curve.
    private static let flatteningScale = 16.0

    /// The subpaths flattened to polylines, in units.
    private func flattened(maxTurn: Double = .infinity) -> [PathRasterizer.Polyline] {
        let s = Self.flatteningScale
        return PathRasterizer.polylines(self, maxTurn: maxTurn) { PathRasterizer.Point(Double($0.x), Double($0.y)) * s }
            .map { PathRasterizer.Polyline(points: $0.points.map { $0 / s }, closed: $0.closed) }
    }

    /// The smallest rectangle holding every point the path passes through, control points
    /// left out (`CGPath.boundingBoxOfPath`): a curve counts with its ends and its extreme
    /// points. Null for an empty path.
    public var boundingBoxOfPath: CGRect {
        var pts: [CGPoint] = []
        var start = CGPoint.zero, current = CGPoint.zero
        for e in elements {
            switch e {
            case .moveTo(let p): start = p
                current = p
                pts.append(p)
            case .lineTo(let p): current = p
                pts.append(p)
            case let .quadCurveTo(p, c):
                pts += Self.extremes(of: [current, c, p])
                current = p
            case let .curveTo(p, c1, c2):
                pts += Self.extremes(of: [current, c1, c2, p])
                current = p
            case .closeSubpath: current = start
            }
        }
        return CGRect.boundingBox(of: pts)
    }

    /// The end and the axis-extreme points of a quadratic (3 points) or cubic (4) Bézier.
    private static func extremes(of b: [CGPoint]) -> [CGPoint] {
        func at(_ t: Double) -> CGPoint {
            let u = 1 - t
            let w = b.count == 3 ? [u * u, 2 * u * t, t * t] : [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
            return CGPoint(x: zip(w, b).reduce(0) { $0 + $1.0 * Double($1.1.x) }, y: zip(w, b).reduce(0) { $0 + $1.0 * Double($1.1.y) })
        }
        // Where the derivative of each coordinate is zero, inside (0, 1).
        var ts: [Double] = []
        for v in [b.map { Double($0.x) }, b.map { Double($0.y) }] {
            if v.count == 3 {
                let den = v[0] - 2 * v[1] + v[2]
                if den != 0 { ts.append((v[0] - v[1]) / den) }
            } else {
                // B'(t)/3 = a·t² + 2b·t + c with the differences of the control points.
                let a = -v[0] + 3 * v[1] - 3 * v[2] + v[3], bb = v[0] - 2 * v[1] + v[2], c = v[1] - v[0]
                if a == 0 {
                    if bb != 0 { ts.append(-c / (2 * bb)) }
                } else {
                    let disc = bb * bb - a * c
                    if disc >= 0 { ts += [(-bb + disc.squareRoot()) / a, (-bb - disc.squareRoot()) / a] }
                }
            }
        }
        return [b.last!] + ts.filter { $0 > 0 && $0 < 1 }.map(at)
    }

    /// Whether `point`, mapped through `transform`, is inside the path under `rule`
    /// (`CGPathContainsPoint`); every subpath counts as closed, as for filling.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        let q = point.applying(transform)
        let x = Double(q.x), y = Double(q.y)
        var winding = 0
        for poly in flattened() where poly.points.count > 1 {
            let pts = poly.points
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                // An edge counts when it crosses the horizontal line through the point to its
                // right, half-open in y so a shared vertex counts once.
                guard (a.y <= y) != (b.y <= y) else { continue }
                let crossX = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                if crossX > x { winding += a.y < b.y ? 1 : -1 }
            }
        }
        return rule == .evenOdd ? winding % 2 != 0 : winding != 0
    }

    /// The outline of the path's stroke as a path that the nonzero (winding) rule fills
    /// (`CGPathCreateCopyByStrokingPath`): a closed subpath per stroked piece running out along
    /// one side and back along the other, joins and caps inline (a closed subpath's stroke is
    /// two, one each side), mapped through `transform`. Curves and round pieces are
    /// flattened within about 0.1 unit.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat,
                     transform: CGAffineTransform = .identity) -> CGPath {
        let halfWidth = Double(lineWidth) / 2
        let stroker = PathStroker(halfWidth: halfWidth, cap: CAShapeLayerLineCap(lineCap), join: CAShapeLayerLineJoin(lineJoin),
                                  miterLimit: Double(miterLimit), dashes: nil, dashPhase: 0, start: 0, end: 1)
        let polygons = halfWidth.isFinite ? stroker.outline(flattened(maxTurn: PathStroker.maxTurn(halfWidth: halfWidth))) : []
        return Self.polygonPath(polygons.map { ($0, true) }, transform: transform)
    }

    /// The dashes of the path as open subpaths (`CGPathCreateCopyByDashingPath`): `lengths`
    /// alternate dash and gap, restarting at each subpath shifted by `phase`, as strokes dash.
    /// A pattern that draws solid (empty, negative or all zero) gives the path itself; dashed
    /// curves come back flattened within about 0.006 units. Mapped through `transform`.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity) -> CGPath {
        let stroker = PathStroker(halfWidth: 0, cap: .butt, join: .miter, miterLimit: 10,
                                  dashes: lengths.map(Double.init), dashPhase: Double(phase), start: 0, end: 1)
        guard stroker.dashPattern != nil, phase.isFinite else { return CGPath(elements: elements.map { $0.applying(transform) }) }
        return Self.polygonPath(stroker.pieces(flattened()).map { piece in
            switch piece {
            case .closed(let ring): (ring, true)
            // A zero-length dash stays a dot: a line to its own start.
            case .open(let points, _): (points.count == 1 ? points + points : points, false)
            }
        }, transform: transform)
    }

    /// Subpaths through `polygons`, closed where marked, mapped through `transform`.
    static func polygonPath(_ polygons: [(points: [PathRasterizer.Point], closed: Bool)], transform: CGAffineTransform) -> CGPath {
        let path = CGMutablePath()
        for poly in polygons {
            path.addLines(between: poly.points.map { CGPoint(x: $0.x, y: $0.y) }, transform: transform)
            if poly.closed { path.closeSubpath() }
        }
        return CGPath(elements: path.elements)
    }
}
