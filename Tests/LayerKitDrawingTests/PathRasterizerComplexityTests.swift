import XCTest
@testable import LayerKitDrawing

/// The fill's sweep does at most O(k log k) work per sample row for k edges crossing it, however
/// much the edges criss-cross: counted (edge updates, swaps, sorts), never timed.
final class PathRasterizerComplexityTests: XCTestCase {
    /// A polygon through `n` points scattered over a 64 x 1 pixel box (a fixed generator): its
    /// edges cross one another some n² / 50 times, about 2.5 × 10⁷ for n = 40,000, and an
    /// insertion sort from one sample row to the next pays one swap per crossing.
    private func scattered(_ n: Int) -> [PathRasterizer.Point] {
        var seed: UInt64 = 1
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / 0x1p53
        }
        return (0..<n).map { _ in PathRasterizer.Point(next() * 64, next()) }
    }

    func testCrissCrossingEdgesCostAtMostKLogKASampleRow() {
        let n = 40_000
        let work = PathRasterizer.Work()
        let cover = PathRasterizer.coverage(of: [scattered(n)], rule: .nonZero, width: 64, height: 1, work: work)
        XCTAssertEqual(cover.runs.count, 1)
        // Four sample rows, each: every edge updated, at most the swap budget (n⌈log₂ n⌉)
        // spent, then at most one sort (n⌈log₂ n⌉ again).
        let log2n = Int.bitWidth - n.leadingZeroBitCount
        XCTAssertLessThanOrEqual(work.steps, 4 * n * (2 * log2n + 1))
        XCTAssertGreaterThan(work.steps, 4 * n / 3)
    }

    func testEdgesInOrderCostOneStepEachASampleRow() {
        // A comb of 10,000 thin vertical teeth 8 rows tall: each sample row costs its 20,000
        // edges, and the first also one swap a tooth (each tooth's right side comes before
        // its left one in the polygon); the order never changes after.
        var comb: [[PathRasterizer.Point]] = []
        for i in 0..<10_000 {
            let x = Double(i) * 0.5
            comb.append([.init(x, 0), .init(x + 0.25, 0), .init(x + 0.25, 8), .init(x, 8)])
        }
        let work = PathRasterizer.Work()
        let cover = PathRasterizer.coverage(of: comb, rule: .nonZero, width: 5000, height: 8, work: work)
        // Half of each pixel is covered: 2 teeth of 0.25 px.
        XCTAssertEqual(cover.runs.first.map { cover.values[$0.start] }, 128)
        // The teeth's sides are vertical, so rows after the first repeat it: one row's four
        // sample rows are swept.
        XCTAssertEqual(work.steps, 4 * 20_000 + 10_000)
    }
}
