@testable import CPURenderer
import XCTest

/// Where rows cross a polygon: walked down its two sides when each side goes down from the top
/// vertex to the bottom one (any convex polygon, either orientation), else asked of every edge.
final class EdgeListTests: XCTestCase {
    private func reach(_ polygon: [SIMD2<Double>], _ y: Double, band: Double = 0) -> [Double] {
        let r = EdgeList(polygon).reach(row: y, band: band)
        return [r.lo, r.hi]
    }

    func testSidesOfConvexPolygonsInEitherOrientation() {
        let square: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(4, 0), SIMD2(4, 2), SIMD2(0, 2)]
        XCTAssertEqual(EdgeList(square).sideCount, 1, "one edge a side: the edges along rows are left out")
        XCTAssertEqual(EdgeList(square).edges.count, 2)
        XCTAssertEqual(reach(square, 1), [0, 4])
        XCTAssertEqual(reach(square.reversed(), 1), [0, 4])
        // The top edge's row: its two ends, from the sides that start there.
        XCTAssertEqual(reach(square, 0), [0, 4])
        XCTAssertEqual(reach(square, 2.5), [.infinity, -.infinity])
        // A turned square: sides of two edges each; at y = 1 the left side is on its first edge
        // (x = 2 - 1), the right on its first (x = 2 + 1); at y = 3, x = 2 -/+ 1 on the second.
        let diamond: [SIMD2<Double>] = [SIMD2(2, 0), SIMD2(4, 2), SIMD2(2, 4), SIMD2(0, 2)]
        XCTAssertEqual(EdgeList(diamond).sideCount, 2)
        XCTAssertEqual(reach(diamond, 1), [1, 3])
        XCTAssertEqual(reach(diamond, 3), [1, 3])
        XCTAssertEqual(reach(diamond.reversed(), 3.5), [1.5, 2.5])
        XCTAssertEqual(EdgeList(diamond).inside(row: 2.5), 1..<3, "centres 1.5 and 2.5 inside 0.5 ... 3.5")
    }

    /// A crossing that overflowed (a side whose slope is infinite at 10^308 coordinates) gives no
    /// interior run: C's conversion of an infinity to a column is undefined (on x86-64 the
    /// lowest `long`, a run of 2^63 pixels); those pixels are left to the per-pixel coverage.
    func testInfiniteCrossingsGiveNoInteriorRun() {
        let square = EdgeList([SIMD2(0, 0), SIMD2(8, 0), SIMD2(8, 8), SIMD2(0, 8)])
        XCTAssertEqual(square.inside(row: 4.5, crossing: (lo: 0, hi: 8)), 0..<8)
        XCTAssertEqual(square.inside(row: 4.5, crossing: (lo: -.infinity, hi: 8)), 0..<0)
        XCTAssertEqual(square.inside(row: 4.5, crossing: (lo: 0, hi: .infinity)), 0..<0)
    }

    /// A polygon whose side turns back up is asked edge by edge: its extent, not one crossing a side.
    func testPolygonsNotMonotoneInYAskEveryEdge() {
        let w: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(4, 0), SIMD2(4, 4), SIMD2(2, 1), SIMD2(0, 4)]
        XCTAssertEqual(EdgeList(w).sideCount, 0)
        XCTAssertEqual(EdgeList(w).edges.count, 5)
        XCTAssertEqual(reach(w, 2), [0, 4])
        // Within the notch: (4, 4)-(2, 1) meets y = 1.5 at x = 2 + 0.5 * 2/3; the extent is still the outer edges'.
        XCTAssertEqual(reach(w, 1.5), [0, 4])
        // A band takes every edge's part within it: y 0.5 ... 1.5 of the notch's edges and the sides.
        XCTAssertEqual(reach(w, 1, band: 0.5), [0, 4])
    }

    /// A polygon with no height (a layer seen edge on) has no sides; its edges along the row
    /// still give its extent on that row.
    func testPolygonWithoutHeight() {
        let line: [SIMD2<Double>] = [SIMD2(1, 3), SIMD2(5, 3), SIMD2(2, 3)]
        XCTAssertEqual(EdgeList(line).sideCount, 0)
        XCTAssertEqual(reach(line, 3), [1, 5])
        XCTAssertEqual(reach(line, 3.2), [.infinity, -.infinity])
    }
}
