import Foundation

/// The outline of a `CAShapeLayer` stroke as polygons, for `PathRasterizer` to fill with the
/// nonzero rule.
///
/// A stroke is the union of a quad per segment, a join piece on the outer side of every corner
/// and a cap piece at the ends of every open piece. Rather than one polygon per piece, each
/// drawn piece of the path is outlined whole: one polygon running forward along the left
/// offset and back along the right (two rings for a closed subpath), the joins and caps inline.
/// Its winding number is the sum of the pieces' (every piece turned the same way round, the
/// edges they share cancel), less 1 where an inner corner is cut short at the two offsets'
/// crossing, which lies inside both segments' quads, so nonzero filling paints the same union
/// with far fewer edges crossing each row.
/// Before outlining, the flattened path is cut into the pieces that are drawn: the dash pattern
/// (in path length, restarting at each subpath, shifted by the phase, as Core Graphics dashes)
/// intersected with `strokeStart…strokeEnd` (fractions of the whole path's length, as Core
/// Animation trims). Everything is in pixels.
struct PathStroker {
    typealias Point = PathRasterizer.Point

    /// Half the line width.
    var halfWidth: Double
    /// The ends of open pieces (and of dashes).
    var cap: CAShapeLayerLineCap
    /// The corners.
    var join: CAShapeLayerLineJoin
    /// Longest miter, as a multiple of the line width (Core Graphics' ratio).
    var miterLimit: Double
    /// Alternating dash and gap lengths; `nil`, empty, negative or all-zero patterns draw solid.
    var dashes: [Double]?
    /// How far into the dash pattern each subpath starts.
    var dashPhase: Double
    /// The stroked part of the path, as fractions of its whole length.
    var start: Double, end: Double

    /// How far round joins, round caps and the flattened path may stray from the true stroke.
    static let tolerance = 0.1

    /// The largest turn per flattened curve segment that keeps the stroke's outer edge within
    /// `tolerance`: half a width out from the curve, segments that turn by θ cut inside the
    /// true outline by about `halfWidth · θ² / 8`.
    static func maxTurn(halfWidth: Double) -> Double {
        halfWidth > 0 ? (8 * tolerance / halfWidth).squareRoot() : .infinity
    }

    /// The stroke outline of flattened subpaths, as polygons whose nonzero winding is the
    /// stroke; non-finite points (of a path whose length overflows) are left out.
    func outline(_ polylines: [PathRasterizer.Polyline]) -> [[Point]] {
        guard halfWidth > 0 else { return [] }
        var polygons: [[Point]] = []
        for piece in pieces(polylines) {
            switch piece {
            case .closed(let ring): outlineClosed(ring, into: &polygons)
            case .open(let points, let tangent): outlineOpen(points, tangent: tangent, into: &polygons)
            }
        }
        return polygons.map { $0.filter { $0.x.isFinite && $0.y.isFinite } }.filter { $0.count > 2 }
    }

    /// A part of the path that is drawn.
    enum Piece {
        /// A whole closed subpath: its corners, the last joined back to the first.
        case closed([Point])
        /// A dash or an open (or trimmed) subpath: its points (one for a dot) and the
        /// direction of travel at its start.
        case open([Point], tangent: Point)
    }

    /// The parts of flattened subpaths that are drawn: the dashes intersected with the trimmed
    /// range, in order.
    func pieces(_ polylines: [PathRasterizer.Polyline]) -> [Piece] {
        guard start < end else { return [] }
        let subpaths = polylines.compactMap(Subpath.init)
        let total = subpaths.reduce(0) { $0 + $1.length }
        let from = start * total, to = end * total
        var pieces: [Piece] = []
        var offset = 0.0
        for sp in subpaths {
            defer { offset += sp.length }
            let a = from - offset, b = to - offset
            if sp.closed && dashPattern == nil && a <= 0 && b >= sp.length {
                pieces.append(.closed(sp.ring))
                continue
            }
            for (d0, d1) in dashIntervals(length: sp.length) {
                let lo = max(d0, a), hi = min(d1, b)
                // A zero-length dash is a dot (round and square caps draw it) if it lies in the
                // trimmed range; a dash that trimming shrinks to nothing draws nothing.
                guard lo < hi || (d0 == d1 && lo == hi) else { continue }
                let (points, tangent) = sp.extract(lo, hi)
                pieces.append(.open(points, tangent: tangent))
            }
        }
        return pieces
    }

    /// The dash pattern made even (an odd one repeats, as Core Graphics does), or `nil` when the
    /// stroke is solid.
    var dashPattern: [Double]? {
        guard let d = dashes, !d.isEmpty, d.allSatisfy({ $0 >= 0 && $0.isFinite }), d.contains(where: { $0 > 0 }) else { return nil }
        return d.count % 2 == 0 ? d : d + d
    }

    /// The dashes of a subpath of length `l` as intervals of its length, in order.
    private func dashIntervals(length l: Double) -> [(Double, Double)] {
        guard let pattern = dashPattern else { return [(0, l)] }
        let period = pattern.reduce(0, +)
        guard period.isFinite else {
            // Finite lengths whose sum overflows (two of 1.8e308) made the period infinite and
            // the walk below endless (found by the fuzzer): the same dashes at half the scale,
            // exact in binary, until the sum fits.
            var half = self
            half.dashes = pattern.map { $0 / 2 }
            half.dashPhase = dashPhase / 2
            return half.dashIntervals(length: l / 2).map { ($0.0 * 2, $0.1 * 2) }
        }
        // A pattern far finer than a pixel would only cost time: it reads as a solid line.
        guard l / period < 100_000 else { return [(0, l)] }
        var result: [(Double, Double)] = []
        var phase = dashPhase.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        var pos = -phase, i = 0
        while pos <= l {
            let len = pattern[i]
            if i % 2 == 0 {
                let a = max(pos, 0), b = min(pos + len, l)
                if a < b || (len == 0 && pos >= 0) { result.append((a, b)) }
            }
            pos += len
            i = (i + 1) % pattern.count
        }
        return result
    }

    /// A whole closed subpath, joined at every corner: its left offset ring forward and its
    /// right offset ring backward (two polygons whose winding adds up to the quads' and joins').
    private func outlineClosed(_ ring: [Point], into polygons: inout [[Point]]) {
        let n = ring.count
        let directions = (0..<n).map { direction(ring[$0], ring[($0 + 1) % n]) }
        for side in [1.0, -1.0] {
            var chain: [Point] = []
            for i in 0..<n {
                addCorner(ring[i], from: ring[(i + n - 1) % n], directions[(i + n - 1) % n], to: ring[(i + 1) % n], directions[i],
                          side: side, chain: &chain)
            }
            polygons.append(side > 0 ? chain : chain.reversed())
        }
    }

    /// An open piece as one polygon: its left offset forward, the end cap, its right offset
    /// backward, the start cap; joins at its inner points. A single point is a dot along
    /// `tangent`.
    private func outlineOpen(_ points: [Point], tangent: Point, into polygons: inout [[Point]]) {
        guard points.count > 1 else {
            let p = points[0], d = tangent * halfWidth, n = normal(tangent) * halfWidth
            let dot: [Point]? = switch cap {
            case .butt: nil
            case .round: arc(center: p, from: normal(tangent), sweep: 2 * .pi)
            case .square: [p + n + d, p + n - d, p - n - d, p - n + d]
            }
            // Turned as every other piece is, so that overlapping pieces add up.
            if let turned = dot.flatMap(Self.clockwise) { polygons.append(turned) }
            return
        }
        let directions = (1..<points.count).map { direction(points[$0 - 1], points[$0]) }
        let last = points.count - 1
        var sides: [[Point]] = []
        for side in [1.0, -1.0] {
            var chain = [points[0] + normal(directions[0]) * (halfWidth * side)]
            for i in 1..<last {
                addCorner(points[i], from: points[i - 1], directions[i - 1], to: points[i + 1], directions[i], side: side, chain: &chain)
            }
            chain.append(points[last] + normal(directions[last - 1]) * (halfWidth * side))
            sides.append(chain)
        }
        var polygon = sides[0]
        // A cap runs from the left offset round to the right one; without one (butt) the
        // polygon's edge crosses straight over.
        if let c = capPiece(at: points[last], outward: directions[last - 1]) { polygon += c }
        polygon += sides[1].reversed()
        if let c = capPiece(at: points[0], outward: -directions[0]) { polygon += c }
        polygons.append(polygon)
    }

    /// Adds to `chain`, the offset on `side` (1 left, -1 right) followed forward, its way round
    /// corner `p`, where the segment from `p0` in direction `d0` turns into the one to `p1` in
    /// direction `d1`: on the outer side, the join piece's outer edge; on the inner side, the
    /// crossing of the two offsets when it lies within both segments (the quads' overlap there,
    /// covered twice, loses one turn of winding), else the quads' ends through `p` itself.
    private func addCorner(_ p: Point, from p0: Point, _ d0: Point, to p1: Point, _ d1: Point, side: Double,
                           chain: inout [Point]) {
        let a = p + normal(d0) * (halfWidth * side), b = p + normal(d1) * (halfWidth * side)
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if cross == 0 && dot > 0 {
            chain.append(a)
            chain.append(b)
            return
        }
        if (cross > 0 ? 1.0 : -1.0) == side {
            chain.append(a)
            if let j = joinPiece(at: p, d0, d1) { chain += j.dropFirst() }
            chain.append(b)
            return
        }
        // The overlap cut off (the crossing, the two offsets' ends at the corner, and the
        // corner) reaches back along each segment halfWidth · tan(turn / 2) (the crossing),
        // where tan²(turn / 2) = (1 - dot) / (1 + dot), or halfWidth · sin(turn) (the other
        // segment's offset end), whichever is further.
        let reach2 = halfWidth * halfWidth * max((1 - dot) / (1 + dot), cross * cross)
        if 1 + dot > 0, reach2 <= min((p - p0).dot(p - p0), (p1 - p).dot(p1 - p)) {
            chain.append(p + (a + b - 2 * p) / (1 + dot))
        } else {
            chain.append(a)
            chain.append(p)
            chain.append(b)
        }
    }

    /// The piece that fills the outer side of a corner where direction `d0` turns into `d1`;
    /// `nil` where the path goes straight on.
    private func joinPiece(at p: Point, _ d0: Point, _ d1: Point) -> [Point]? {
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if cross == 0 && dot > 0 { return nil }
        // The outer side is opposite the turn (a clockwise turn bulges anticlockwise); a full
        // reversal has two, either will do.
        let side: Double = cross > 0 ? 1 : -1
        let o0 = normal(d0) * side, o1 = normal(d1) * side
        let a = p + o0 * halfWidth, b = p + o1 * halfWidth
        switch join {
        case .bevel:
            return [p, a, b]
        case .miter:
            // Miter length / line width = 1 / cos(turn / 2), and cos²(turn / 2) = (1 + dot) / 2.
            guard 1 + dot > 0, 2 / (1 + dot) <= miterLimit * miterLimit else { return [p, a, b] }
            return [p, a, p + (o0 + o1) * (halfWidth / (1 + dot)), b]
        case .round:
            // Sweep with the turn, or through the forward direction at a reversal.
            let sweep = cross == 0 ? side * .pi : atan2(cross, dot)
            return [p] + arc(center: p, from: o0, sweep: sweep)
        }
    }

    /// The cap beyond an end point; `outward` points away from the piece.
    private func capPiece(at p: Point, outward e: Point) -> [Point]? {
        let n = normal(e) * halfWidth, d = e * halfWidth
        switch cap {
        case .butt: return nil
        case .square: return [p + n, p + n + d, p - n + d, p - n]
        case .round: return arc(center: p, from: normal(e), sweep: .pi)
        }
    }

    /// Points on the circle of radius `halfWidth` about `center`, from unit direction `from`
    /// turning by `sweep` radians (positive: clockwise on the y-down screen), ends included.
    private func arc(center: Point, from u: Point, sweep: Double) -> [Point] {
        let step = halfWidth > Self.tolerance / 2 ? 2 * acos(1 - Self.tolerance / halfWidth) : .pi
        // A pen so wide that the step underflows to 0 (or a sweep through non-finite points)
        // still gets a bounded number of points: 4096 only binds beyond a 340,000-pixel pen.
        let estimate = (abs(sweep) / step).rounded(.up)
        let n = estimate.isNaN ? 2 : max(Int(min(estimate, 4096)), 2)
        let a0 = atan2(u.y, u.x)
        return (0...n).map { k in
            let a = a0 + sweep * Double(k) / Double(n)
            return center + Point(cos(a), sin(a)) * halfWidth
        }
    }

    private func direction(_ a: Point, _ b: Point) -> Point {
        let d = b - a, l = d.length
        return l > 0 ? d / l : Point(1, 0)
    }

    /// `d` turned a quarter anticlockwise on the y-down screen.
    private func normal(_ d: Point) -> Point { Point(d.y, -d.x) }

    /// The polygon turned clockwise on the y-down screen (positive shoelace sum), reversed if
    /// needed; `nil` if it encloses no area.
    private static func clockwise(_ poly: [Point]) -> [Point]? {
        var area = 0.0
        for i in 0..<poly.count { area += poly[i].cross(poly[(i + 1) % poly.count]) }
        if area == 0 || !area.isFinite { return nil }
        return area > 0 ? poly : poly.reversed()
    }
}

/// A flattened subpath without repeated points, measured along its length.
private struct Subpath {
    /// The corners; a closed subpath's closing segment runs from the last back to the first.
    let ring: [Point]
    let closed: Bool
    /// `lengths[i]`: path length from the start to point `i` of `ring` (then back to the
    /// start, for a closed subpath).
    let lengths: [Double]
    typealias Point = PathRasterizer.Point

    /// Nil for a lone moveto, which strokes nothing; a subpath whose points all coincide is a
    /// dot of length 0.
    init?(_ p: PathRasterizer.Polyline) {
        var pts: [Point] = []
        for q in p.points where pts.last != q { pts.append(q) }
        if p.closed && pts.count > 1 && pts.first == pts.last { pts.removeLast() }
        guard p.points.count > 1 || p.closed else { return nil }
        ring = pts
        closed = p.closed && pts.count > 1
        var lengths = [0.0]
        let walk = closed ? pts + [pts[0]] : pts
        for i in 1..<max(walk.count, 1) { lengths.append(lengths[i - 1] + (walk[i] - walk[i - 1]).length) }
        self.lengths = lengths
    }

    var length: Double { lengths.last! }

    /// The points from length `a` to length `b` (one point when they are equal) and the
    /// direction of travel at `a`.
    func extract(_ a: Double, _ b: Double) -> (points: [Point], tangent: Point) {
        let walk = closed ? ring + [ring[0]] : ring
        guard walk.count > 1 else { return ([walk[0]], Point(1, 0)) }
        func locate(_ s: Double) -> (index: Int, point: Point) {
            var i = 0
            while i < walk.count - 2 && lengths[i + 1] < s { i += 1 }
            let span = lengths[i + 1] - lengths[i]
            let t = span > 0 ? min(max((s - lengths[i]) / span, 0), 1) : 0
            return (i, walk[i] + (walk[i + 1] - walk[i]) * t)
        }
        let (i0, p0) = locate(a), (i1, p1) = locate(b)
        let d = walk[i0 + 1] - walk[i0]
        var points = [p0]
        if i1 > i0 { for k in (i0 + 1)...i1 where points.last != walk[k] { points.append(walk[k]) } }
        if points.last != p1 { points.append(p1) }
        return (points, d / d.length)
    }
}
