import CHotLoops

/// A pixel-space polygon's edges with their slopes, for the rows that cross it: where a row
/// meets an edge then costs a multiply and an add, where working it out from the endpoints
/// cost a division (and finding the next vertex an integer division) per edge and per row,
/// which was most of the per-row work of a small quad.
///
/// `x(at:)` rounds differently from interpolating between the endpoints, by a few units in the
/// last place of the edge's x extent: far below the margins its users keep (`spanMargin`, at
/// least 10⁻³ pixel; `interiorMargin`, 10⁻⁴ pixel, on coordinates under 10⁶).
struct EdgeList {
    /// The edge from (ax, ay) to (bx, by); `slope` is dx/dy, 0 for an edge along a row (or one
    /// so nearly so that dx/dy overflows), which `isAlongRow` marks. `ylo` and `yhi` are the
    /// rows it crosses, none for an edge along a row (whose ends its neighbours meet).
    struct Edge {
        let ax: Double, ay: Double, bx: Double, by: Double, slope: Double
        let ylo: Double, yhi: Double
        let isAlongRow: Bool

        /// Where the edge's line meets the row `y`.
        @inline(__always)
        func x(at y: Double) -> Double { ax + (y - ay) * slope }
    }

    /// The edges: for a polygon whose two sides from its top vertex to its bottom one each go
    /// down (a convex one), one side's then the other's, top to bottom and without the edges
    /// along rows (`sideCount` the first side's); else every edge in the polygon's order
    /// (`sideCount` 0).
    let edges: [Edge]
    let sideCount: Int
    /// The polygon's extent in y.
    let top: Double, bottom: Double

    /// The edges of `polygon` (at least one vertex), closing it from the last vertex to the first.
    init(_ polygon: [SIMD2<Double>]) {
        let n = polygon.count
        var (top, bottom, t, b) = (Double.infinity, -Double.infinity, 0, 0)
        for i in polygon.indices {
            if polygon[i].y < top { (top, t) = (polygon[i].y, i) }
            if polygon[i].y > bottom { (bottom, b) = (polygon[i].y, i) }
        }
        func edge(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Edge {
            let slope = (b.x - a.x) / (b.y - a.y)
            let alongRow = a.y == b.y || !slope.isFinite
            return Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y, slope: alongRow ? 0 : slope,
                        ylo: alongRow ? .infinity : min(a.y, b.y), yhi: alongRow ? -.infinity : max(a.y, b.y),
                        isAlongRow: alongRow)
        }
        // The two sides from the top vertex to the bottom one, each edge pointing down.
        var sides: [Edge] = [], monotone = top < bottom
        sides.reserveCapacity(n)
        func side(_ step: Int) {
            var i = t
            while monotone && i != b {
                let (p, q) = (polygon[i], polygon[(i + step) % n])
                monotone = q.y >= p.y
                let e = edge(p, q)
                if !e.isAlongRow { sides.append(e) }
                i = (i + step) % n
            }
        }
        side(1)
        let firstSide = sides.count
        side(n - 1)
        if monotone && firstSide > 0 && sides.count > firstSide {
            (edges, sideCount) = (sides, firstSide)
        } else {
            edges = polygon.indices.map { edge(polygon[$0], polygon[$0 + 1 == n ? 0 : $0 + 1]) }
            sideCount = 0
        }
        (self.top, self.bottom) = (top, bottom)
    }

    /// Where a side (edges top to bottom) crosses the row `y`, which lies within its extent:
    /// its first edge reaching down to y.
    @inline(__always)
    private static func x<Side: RandomAccessCollection>(on side: Side, at y: Double) -> Double where Side.Element == Edge, Side.Index == Int {
        var i = side.startIndex
        while i < side.endIndex - 1 && y > side[i].yhi { i += 1 }
        return side[i].x(at: y)
    }

    /// The polygon's x extent over the rows y ± `band`: where its edges cross them (infinite,
    /// lo > hi, when none does).
    @inline(__always)
    func reach(row y: Double, band: Double) -> (lo: Double, hi: Double) {
        if band == 0 && sideCount > 0 {
            // A band of one row (aliased edges, interiors): where each side crosses it, walked
            // down from the top (a quad's side has one or two edges), instead of asking every
            // edge whether it crosses, which was most of a row's cost. Either side may be the
            // left one.
            guard y >= top && y <= bottom else { return (.infinity, -.infinity) }
            return edges.withUnsafeBufferPointer { e in
                let (a, b) = (EdgeList.x(on: e[0..<sideCount], at: y), EdgeList.x(on: e[sideCount...], at: y))
                return (min(a, b), max(a, b))
            }
        }
        var lo = Double.infinity, hi = -Double.infinity
        let (b0, b1) = (y - band, y + band)
        for e in edges {
            if e.isAlongRow {
                if e.ay >= b0 && e.ay <= b1 {
                    lo = min(lo, e.ax, e.bx)
                    hi = max(hi, e.ax, e.bx)
                }
            } else if e.ylo <= b1 && e.yhi >= b0 {
                let xa = e.x(at: min(max(e.ay, b0), b1)), xb = e.x(at: min(max(e.by, b0), b1))
                lo = min(lo, xa, xb)
                hi = max(hi, xa, xb)
            }
        }
        return (lo, hi)
    }

    /// The columns of `within` whose pixel centres lie in [lo, hi]. Clamped before converting:
    /// an edge far off the target (1e30) would overflow Int. (To whole columns, so clamping
    /// before rounding is the same as after.)
    @inline(__always)
    static func columns(_ lo: Double, _ hi: Double, within: Range<Int>) -> Range<Int> {
        let (a, b) = (Double(within.lowerBound), Double(within.upperBound))
        let s = min(max(lo - 0.5, a), b).roundedUp, e = max(min(hi + 0.5, b), a).roundedDown
        return s < e ? s..<e : within.lowerBound..<within.lowerBound
    }
}

extension Double {
    /// `Int(rounded(.down))` for a finite value well inside `Int`'s range, without the libm call
    /// that `rounded` is on the x86-64 baseline (no SSE4.1 `roundsd`) or the range checks of
    /// `Int(_:)`: four of them a row and quad (`lk_floor`).
    @inline(__always)
    var roundedDown: Int { lk_floor(self) }

    /// `Int(rounded(.up))` for a finite value well inside `Int`'s range (see `roundedDown`).
    @inline(__always)
    var roundedUp: Int { lk_ceil(self) }
}
