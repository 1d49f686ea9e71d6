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
    /// so nearly so that dx/dy overflows), which `isAlongRow` marks.
    struct Edge {
        let ax: Double, ay: Double, bx: Double, by: Double, slope: Double
        let isAlongRow: Bool
        /// `min(ay, by)` and `max(ay, by)`: a band of rows from y0 to y1 meets the edge when
        /// `top <= y1 && bottom >= y0`.
        let top: Double, bottom: Double

        /// Where the edge's line meets the row `y`.
        @inline(__always)
        func x(at y: Double) -> Double { ax + (y - ay) * slope }
    }

    /// The edges by `top`, then `bottom` (NaN last), so that the rows of a band, taken from the
    /// top down, meet them in order (`Window`).
    let edges: [Edge]
    /// The polygon's extent in y.
    let top: Double, bottom: Double

    /// The edges of `polygon` (at least one vertex), closing it from the last vertex to the first.
    init(_ polygon: [SIMD2<Double>]) {
        var edges: [Edge] = [], top = Double.infinity, bottom = -Double.infinity
        edges.reserveCapacity(polygon.count)
        for i in polygon.indices {
            let a = polygon[i], b = polygon[i + 1 == polygon.count ? 0 : i + 1]
            let slope = (b.x - a.x) / (b.y - a.y)
            let alongRow = a.y == b.y || !slope.isFinite
            edges.append(Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y, slope: alongRow ? 0 : slope, isAlongRow: alongRow,
                              top: min(a.y, b.y), bottom: max(a.y, b.y)))
            top = min(top, a.y)
            bottom = max(bottom, a.y)
        }
        // A total order: NaN, which meets no band, sorts as +∞.
        func key(_ v: Double) -> Double { v.isNaN ? .infinity : v }
        edges.sort { (key($0.top), key($0.bottom)) < (key($1.top), key($1.bottom)) }
        (self.edges, self.top, self.bottom) = (edges, top, bottom)
    }

    /// The edges a band of rows may meet, as rows go down: `edges[first..<end]`, of which those
    /// with `bottom >= y0` are exactly the ones meeting the band y0...y1. Every row's span
    /// tested every edge of the outline, and again of its interior; moving a window instead
    /// leaves about the two edges that cross the row, one each side (sorted by top, the edges
    /// a convex polygon is done with are mostly the first ones).
    struct Window {
        var first = 0, end = 0
    }

    /// Moves `window` to the band y0...y1, which must not start or end above the band it was
    /// last moved to: edges with `top <= y1` are entered in order, and those at the front with
    /// `bottom < y0` are left for good.
    @inline(__always)
    func advance(_ window: inout Window, y0: Double, y1: Double) {
        while window.end < edges.count && edges[window.end].top <= y1 { window.end += 1 }
        while window.first < window.end && edges[window.first].bottom < y0 { window.first += 1 }
    }

    /// The least and greatest x where the edges meet the band y0...y1 (each edge clamped to
    /// the band; an edge along a row, its ends when within the band), or `nil` where none does;
    /// `window` moved there (`advance`).
    @inline(__always)
    func extent(y0: Double, y1: Double, _ window: inout Window) -> (lo: Double, hi: Double)? {
        advance(&window, y0: y0, y1: y1)
        var lo = Double.infinity, hi = -Double.infinity
        for i in window.first..<window.end where edges[i].bottom >= y0 {
            let e = edges[i]
            if e.isAlongRow {
                if e.ay >= y0 && e.ay <= y1 {
                    lo = min(lo, e.ax, e.bx)
                    hi = max(hi, e.ax, e.bx)
                }
            } else {
                let xa = e.x(at: min(max(e.ay, y0), y1)), xb = e.x(at: min(max(e.by, y0), y1))
                lo = min(lo, xa, xb)
                hi = max(hi, xa, xb)
            }
        }
        return lo.isFinite ? (lo, hi) : nil
    }
}

extension Double {
    /// `Int(rounded(.down))` for a value well inside `Int`'s range, without the libm call that
    /// `rounded` is on the x86-64 baseline (no SSE4.1 `roundsd`): four of them a row and quad.
    @inline(__always)
    var roundedDown: Int {
        let t = Int(self)
        return Double(t) > self ? t - 1 : t
    }

    /// `Int(rounded(.up))` for a value well inside `Int`'s range (see `roundedDown`).
    @inline(__always)
    var roundedUp: Int {
        let t = Int(self)
        return Double(t) < self ? t + 1 : t
    }
}
