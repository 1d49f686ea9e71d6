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

        /// Where the edge's line meets the row `y`.
        @inline(__always)
        func x(at y: Double) -> Double { ax + (y - ay) * slope }
    }

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
            edges.append(Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y, slope: alongRow ? 0 : slope, isAlongRow: alongRow))
            top = min(top, a.y)
            bottom = max(bottom, a.y)
        }
        (self.edges, self.top, self.bottom) = (edges, top, bottom)
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
