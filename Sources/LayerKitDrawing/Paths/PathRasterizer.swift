import Foundation

/// Fills paths into coverage on the CPU, once, so both backends draw the same pixels: shadow
/// paths, and the fills and (outlined, see `PathStroker`) strokes of shape layers.
///
/// Curves are flattened to lines within 0.1 pixel; coverage is the fraction of a 4x4 grid of
/// samples per pixel inside the polygons under the fill rule, so edges are antialiased.
package enum PathRasterizer {
    static let samples = 4

    /// A point in pixel space.
    typealias Point = SIMD2<Double>

    /// One flattened subpath: its corners in order, and whether `closeSubpath` ended it (a
    /// stroke joins a closed subpath's last point to its first; a fill closes every subpath).
    struct Polyline {
        var points: [Point]
        var closed: Bool
    }

    /// A white (premultiplied: coverage in every channel) image of `rect` at `scale` pixels per
    /// unit, with `path` (in the same units) filled.
    package static func fill(_ path: CGPath, rule: CAShapeLayerFillRule, into rect: CGRect, scale: Double) -> CGImage {
        let w = max(Int((Double(rect.width) * scale).rounded(.up)), 1)
        let h = max(Int((Double(rect.height) * scale).rounded(.up)), 1)
        let origin = Point(Double(rect.minX), Double(rect.minY))
        let polygons = polylines(path) { (Point(Double($0.x), Double($0.y)) - origin) * scale }.map(\.points)
        let cover = coverage(of: polygons, rule: rule, width: w, height: h)
        var bmp = Bitmap(width: w, height: h)
        for i in 0..<(w * h) where cover[i] > 0 {
            let v = cover[i]
            bmp.pixels[i * 4] = v; bmp.pixels[i * 4 + 1] = v; bmp.pixels[i * 4 + 2] = v; bmp.pixels[i * 4 + 3] = v
        }
        return CGImage(bitmap: bmp, source: "path")
    }

    /// The subpaths of `path` flattened to polylines in mapped (pixel) coordinates.
    ///
    /// Each curve gets enough segments that the chords stay within about 0.1 pixel, and at
    /// least enough that no segment turns by more than `maxTurn` radians: a stroke's outline
    /// lies half a line width away from the curve, where the same chords err further.
    static func polylines(_ path: CGPath, maxTurn: Double = .infinity, map: (CGPoint) -> Point) -> [Polyline] {
        var result: [Polyline] = []
        var current: Polyline? = nil
        var start = Point.zero
        func finish() { if let c = current { result.append(c) }; current = nil }
        func line(to p: Point) {
            if current == nil { current = Polyline(points: [start], closed: false) }
            current!.points.append(p)
        }
        func curve(_ pts: [Point]) {
            var len = 0.0, turn = 0.0
            for i in 1..<pts.count { len += (pts[i] - pts[i - 1]).length }
            for i in 1..<(pts.count - 1) { turn += angle(pts[i] - pts[i - 1], pts[i + 1] - pts[i]) }
            var steps = max(1, segmentCount((len / 2).squareRoot().rounded(.up) * 2))
            if maxTurn < .infinity { steps = max(steps, segmentCount((turn / maxTurn).rounded(.up))) }
            for s in 1...steps {
                let t = Double(s) / Double(steps), u = 1 - t
                if pts.count == 3 {
                    line(to: u * u * pts[0] + 2 * u * t * pts[1] + t * t * pts[2])
                } else {
                    line(to: u * u * u * pts[0] + 3 * u * u * t * pts[1] + 3 * u * t * t * pts[2] + t * t * t * pts[3])
                }
            }
        }
        for e in path.elements {
            switch e {
            case .moveTo(let p):
                finish(); start = map(p); current = Polyline(points: [start], closed: false)
            case .lineTo(let p): line(to: map(p))
            case .quadCurveTo(let p, let c): curve([current?.points.last ?? start, map(c), map(p)])
            case .curveTo(let p, let c1, let c2): curve([current?.points.last ?? start, map(c1), map(c2), map(p)])
            case .closeSubpath:
                // A later drawing command without a moveto starts a new subpath at this start.
                current?.closed = true
                finish()
            }
        }
        finish()
        return result
    }

    /// `estimate` segments, at most 1000; a non-finite estimate (a curve through infinite or
    /// enormous coordinates) gets the most, where converting it to `Int` would trap.
    static func segmentCount(_ estimate: Double) -> Int {
        estimate.isNaN ? 1000 : Int(min(max(estimate, 0), 1000))
    }

    /// The angle between two directions in radians, 0…π (0 for a zero vector).
    static func angle(_ a: Point, _ b: Point) -> Double {
        guard a.length > 0, b.length > 0 else { return 0 }
        return atan2(abs(a.cross(b)), a.dot(b))
    }

    /// Coverage 0…255 per pixel of a `width` x `height` grid (rows top to bottom) inside
    /// `polygons` (each implicitly closed, in pixel coordinates) under `rule`.
    static func coverage(of polygons: [[Point]], rule: CAShapeLayerFillRule, width w: Int, height h: Int) -> [UInt8] {
        // Edges (top, bottom, x at top, dx per y, direction), sorted by top: a sample row only
        // looks at the edges that span it.
        var edges: [(top: Double, bottom: Double, x: Double, slope: Double, dir: Int)] = []
        for poly in polygons where poly.count > 1 {
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                guard a.y != b.y, a.x.isFinite, b.x.isFinite else { continue }
                let (p, q, dir) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                edges.append((p.y, q.y, p.x, (q.x - p.x) / (q.y - p.y), dir))
            }
        }
        edges.sort { $0.top < $1.top }
        let n = samples
        // Samples inside, per pixel: a sample row's spans do not overlap, so at most n × n.
        var cover = [UInt8](repeating: 0, count: w * h)
        var active: [Int] = []
        var next = 0
        var crossings: [(x: Double, dir: Int)] = []
        for sy in 0..<(h * n) {
            let y = (Double(sy) + 0.5) / Double(n)
            while next < edges.count && edges[next].top <= y { active.append(next); next += 1 }
            active.removeAll { edges[$0].bottom <= y }
            if active.isEmpty { if next == edges.count { break }; continue }
            crossings.removeAll(keepingCapacity: true)
            for i in active where edges[i].top <= y {
                let e = edges[i]
                crossings.append((e.x + (y - e.top) * e.slope, e.dir))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            let row = (sy / n) * w
            for i in 0..<max(crossings.count - 1, 0) {
                winding += crossings[i].dir
                let inside = rule == .evenOdd ? winding % 2 != 0 : winding != 0
                guard inside else { continue }
                // Horizontal samples at (k + 0.5) / n inside [xa, xb).
                let xa = crossings[i].x * Double(n) - 0.5, xb = crossings[i + 1].x * Double(n) - 0.5
                let s = max(Int(max(xa, -1).rounded(.up)), 0)
                let e = min(Int(min(xb, Double(w * n)).rounded(.up)) - 1, w * n - 1)
                guard s <= e else { continue }
                // Samples s…e: the partial pixels at the ends, n in each pixel between.
                let first = s / n, last = e / n
                if first == last {
                    cover[row + first] &+= UInt8(e - s + 1)
                } else {
                    cover[row + first] &+= UInt8(n - s % n)
                    for p in (first + 1)..<last { cover[row + p] &+= UInt8(n) }
                    cover[row + last] &+= UInt8(e % n + 1)
                }
            }
        }
        let full = n * n
        let level = (0...full).map { UInt8(($0 * 255 + full / 2) / full) }
        return cover.map { level[Int($0)] }
    }
}

/// The little vector algebra the path code needs (Linux has no `simd` module).
extension SIMD2 where Scalar == Double {
    /// Euclidean length.
    var length: Double { (x * x + y * y).squareRoot() }
    /// The z component of the 3D cross product: positive when `b` turns clockwise from `self`
    /// on the y-down screen.
    func cross(_ b: Self) -> Double { x * b.y - y * b.x }
    /// Dot product.
    func dot(_ b: Self) -> Double { x * b.x + y * b.y }
}
