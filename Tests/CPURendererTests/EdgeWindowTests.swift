@testable import CPURenderer
import XCTest

/// Row spans and interior runs walk a window down a polygon's edges (`EdgeList.Window`)
/// instead of testing every edge on every row; the window must leave exactly the edges every
/// row met before, so every span and run is the same to the bit.
final class EdgeWindowTests: XCTestCase {
    /// The extent every row computed before the window: each edge meeting the band, clamped to
    /// it (an edge along a row, its ends when within the band).
    private func referenceExtent(_ list: EdgeList, y0: Double, y1: Double) -> (lo: Double, hi: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for e in list.edges {
            if e.isAlongRow {
                if e.ay >= y0 && e.ay <= y1 { (lo, hi) = (min(lo, e.ax, e.bx), max(hi, e.ax, e.bx)) }
            } else if min(e.ay, e.by) <= y1 && max(e.ay, e.by) >= y0 {
                let xa = e.x(at: min(max(e.ay, y0), y1)), xb = e.x(at: min(max(e.by, y0), y1))
                (lo, hi) = (min(lo, xa, xb), max(hi, xa, xb))
            }
        }
        return lo.isFinite ? (lo, hi) : nil
    }

    /// Random polygons: convex ones (points around an ellipse, sheared), star-shaped ones, and
    /// some with vertices on pixel centres' rows and edges along rows.
    private func polygons() -> [[SIMD2<Double>]] {
        var rng = SystemRandomNumberGenerator()
        var result: [[SIMD2<Double>]] = []
        for k in 0..<300 {
            let n = Int.random(in: 3...9, using: &rng)
            let c = SIMD2(Double.random(in: -20...60, using: &rng), Double.random(in: -20...60, using: &rng))
            let (rx, ry, shear) = (Double.random(in: 0.3...40, using: &rng), Double.random(in: 0.3...40, using: &rng),
                                   Double.random(in: -2...2, using: &rng))
            var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }.sorted()
            if k % 3 == 2 { angles = (0..<n).map { 2 * .pi * Double($0) / Double(n) } }
            var poly = angles.map { a -> SIMD2<Double> in
                let r = k % 2 == 1 ? Double.random(in: 0.2...1, using: &rng) : 1
                let y = c.y + ry * r * sin(a)
                return SIMD2(c.x + rx * r * cos(a) + shear * (y - c.y), y)
            }
            if k % 4 == 0 { poly = poly.map { SIMD2($0.x, ($0.y * 2).rounded() / 2) } }
            result.append(poly)
        }
        return result
    }

    func testWindowedExtentsEqualEveryEdgeTested() {
        var rows = 0
        for poly in polygons() {
            let list = EdgeList(poly)
            for band in [0, 0.501, 1] {
                var window = EdgeList.Window()
                for py in -30...110 {
                    let y = Double(py) + 0.5
                    let got = list.extent(y0: y - band, y1: y + band, &window), want = referenceExtent(list, y0: y - band, y1: y + band)
                    XCTAssertEqual(got?.lo, want?.lo, "\(poly) row \(py) band \(band)")
                    XCTAssertEqual(got?.hi, want?.hi, "\(poly) row \(py) band \(band)")
                    if want != nil { rows += 1 }
                }
            }
        }
        XCTAssertGreaterThan(rows, 10_000)
    }

    func testWindowedInteriorRunsEqualEveryEdgeTested() {
        var runs = 0
        for poly in polygons() {
            let list = EdgeList(poly)
            var window = EdgeList.Window()
            for py in -30...110 {
                let y = Double(py) + 0.5, m = PreparedQuad.interiorMargin
                var want = 0..<0
                if y > list.top + m && y < list.bottom - m {
                    let xs = list.edges.filter { !$0.isAlongRow && min($0.ay, $0.by) <= y && max($0.ay, $0.by) >= y }.map { $0.x(at: y) }
                    if let lo = xs.min(), let hi = xs.max(), lo < hi {
                        let first = Int((lo + m - 0.5).rounded(.up)), end = Int((hi - m - 0.5).rounded(.down)) + 1
                        if first < end { want = first..<end }
                    }
                }
                XCTAssertEqual(list.inside(row: y, &window), want, "\(poly) row \(py)")
                if !want.isEmpty { runs += 1 }
            }
        }
        XCTAssertGreaterThan(runs, 3_000)
    }

    /// The window keeps few edges: on a convex polygon's rows, about the two crossing them.
    func testWindowOnAConvexPolygonHoldsTheCrossingEdges() {
        // A regular octagon 40 px across: rows between vertices cross two edges.
        let poly = (0..<8).map { (i: Int) -> SIMD2<Double> in
            let a: Double = Double(i) * Double.pi / 4 + 0.1
            return SIMD2(50 + 20 * cos(a), 50 + 20 * sin(a))
        }
        let list = EdgeList(poly)
        var window = EdgeList.Window(), most = 0
        for py in 30..<70 {
            list.advance(&window, y0: Double(py) + 0.5, y1: Double(py) + 0.5)
            most = max(most, window.end - window.first)
        }
        XCTAssertLessThanOrEqual(most, 4)
    }
}
