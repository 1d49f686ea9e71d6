import XCTest
@testable import LayerKitCore

/// A keyframe curve is built once in time and memory linear in its keyframes and then placed
/// in O(log n) per frame: counted here (entries its searches look at, segments it makes), never
/// timed. Before, every frame summed all segment lengths, walked them in order and converted
/// every key time.
final class KeyframeCurveComplexityTests: XCTestCase {
    private let n = 20_000
    /// ⌈log₂ 20,001⌉: the most entries a binary search over n + 1 entries looks at.
    private let log2n = 15

    /// Keyframes (k, k mod 3) for k = 0…n-1.
    private var values: [AnimatedValue] { (0..<n).map { .components([Double($0), Double($0 % 3)]) } }

    private func probes() -> [Double] { (0...1000).map { Double($0) / 1000 } }

    func testPacedPositionsAreFoundByBinarySearch() {
        for spline in [nil, ([NSNumber](), [NSNumber](), [NSNumber]())] as [([NSNumber]?, [NSNumber]?, [NSNumber]?)?] {
            let curve = KeyframeCurve(values: values, spline: spline)
            XCTAssertEqual(curve.segmentCount, n - 1)
            for p in probes() { _ = curve.locate(p, paced: true, keyTimes: nil, easing: nil) }
            XCTAssertLessThanOrEqual(curve.scratch.entriesCompared, probes().count * log2n)
            // Probes in order move from segment to segment; each is made once.
            XCTAssertLessThanOrEqual(curve.scratch.segmentsMade, probes().count)
        }
    }

    func testKeyTimesGivenOrEvenAreFoundByBinarySearch() {
        let curve = KeyframeCurve(values: values, spline: nil)
        let given = KeyTimes((0..<n).map { Double($0) / Double(n - 1) })
        for times in [given, nil] {
            let before = curve.scratch.entriesCompared
            for p in probes() { _ = curve.locate(p, paced: false, keyTimes: times, easing: nil) }
            XCTAssertLessThanOrEqual(curve.scratch.entriesCompared - before, probes().count * log2n)
        }
    }

    func testKeyTimesOutOfOrderAreStillSearchedAsBefore() {
        // A program may set any list: the last time at or before p wins, as a linear scan finds.
        let times = KeyTimes([0, 0.5, 0.2, 1])
        let curve = KeyframeCurve(values: [.components([0]), .components([1]), .components([2]), .components([3])], spline: nil)
        XCTAssertEqual(times.lastIndex(atOrBefore: 0.3, counting: curve.scratch), 2)
        XCTAssertEqual(times.lastIndex(atOrBefore: 0.6, counting: curve.scratch), 2)
        XCTAssertEqual(times.lastIndex(atOrBefore: -1, counting: curve.scratch), nil)
    }

    func testPositionsAreTheSegmentAndFractionWorkedOutByHand() throws {
        // Keyframes (k, 0): every segment is 1 long.
        let line = KeyframeCurve(values: (0..<n).map { .components([Double($0), 0]) }, spline: nil)
        // Paced: 0.25 of 19,999 is 4,999.75 along: segment 4,999 at 0.75.
        let paced = try XCTUnwrap(line.locate(0.25, paced: true, keyTimes: nil, easing: nil))
        XCTAssertEqual(paced.segment, 4_999)
        XCTAssertEqual(paced.u, 0.75)
        let half = try XCTUnwrap(line.locate(0.5, paced: true, keyTimes: nil, easing: nil))
        XCTAssertEqual(half.segment, 9_999)
        XCTAssertEqual(half.u, 0.5)
        // The whole length ends the last segment.
        let end = try XCTUnwrap(line.locate(1, paced: true, keyTimes: nil, easing: nil))
        XCTAssertEqual(end.segment, 19_998)
        XCTAssertEqual(end.u, 1)
        // Even key times: keyframe k at k / 19,999; p = 0.75 is 14,999.25 keyframes in.
        let timed = try XCTUnwrap(line.locate(0.75, paced: false, keyTimes: nil, easing: nil))
        XCTAssertEqual(timed.segment, 14_999)
        XCTAssertEqual(timed.u, 0.25, accuracy: 1e-6)
        XCTAssertEqual(line.segment(timed.segment).value(at: 0.5), .components([14_999.5, 0]))
    }
}
