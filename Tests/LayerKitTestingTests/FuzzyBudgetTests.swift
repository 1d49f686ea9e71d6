@testable import LayerKitTesting
import LayerKit
import XCTest

/// `Fuzzy` budgets at their boundaries, on both axes: a 10x10 grey reference and an image with
/// three pixels 2 off and one pixel 5 off (largest difference 5, 4 pixels differing).
final class FuzzyBudgetTests: XCTestCase {
    private let reference = Bitmap(width: 10, height: 10, pixels: [UInt8]((0..<100).flatMap { _ in [100, 100, 100, 255] as [UInt8] }))

    private var actual: Bitmap {
        var b = reference
        for (x, y, d) in [(1, 2, 2), (7, 2, 2), (4, 6, -2), (8, 9, 5)] {
            b.pixels[(y * 10 + x) * 4 + 1] = UInt8(100 + d)
        }
        return b
    }

    private func verdict(_ budget: Fuzzy, _ image: Bitmap? = nil) -> String? {
        compareImages(reference, image ?? actual, budget: budget)?.message
    }

    func testAnExactNumberIsThatNumber() {
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 5, pixelCount: 4)))
        XCTAssertNotNil(verdict(Fuzzy(maxChannelDifference: 6, pixelCount: 4)))
        XCTAssertNotNil(verdict(Fuzzy(maxChannelDifference: 5, pixelCount: 3)))
        XCTAssertNotNil(verdict(Fuzzy(maxChannelDifference: 4, pixelCount: 4)))
    }

    func testTheLargestDifferenceAxisIsInclusiveAtBothEnds() {
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 0...5, pixelCount: 0...100)))
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 5...9, pixelCount: 0...100)))
        XCTAssertEqual(verdict(Fuzzy(maxChannelDifference: 0...4, pixelCount: 0...100)),
                       "largest channel difference 5 (first at x=8 y=9); 4 pixels differ, 1 by more than the budget allows; "
                       + "first at x=1 y=2, all within x=1 y=2 width=8 height=8 (pixels, from the top left); "
                       + "the budget is maxChannelDifference=0-4;pixelCount=0-100")
        XCTAssertEqual(verdict(Fuzzy(maxChannelDifference: 6...9, pixelCount: 0...100)),
                       "largest channel difference 5 (first at x=8 y=9); 4 pixels differ, 0 by more than the budget allows; "
                       + "first at x=1 y=2, all within x=1 y=2 width=8 height=8 (pixels, from the top left); "
                       + "the budget maxChannelDifference=6-9;pixelCount=0-100 expects more (the rendering improved?): tighten it")
    }

    func testThePixelCountAxisIsInclusiveAtBothEnds() {
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 0...255, pixelCount: 0...4)))
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 0...255, pixelCount: 4...7)))
        XCTAssertTrue(verdict(Fuzzy(maxChannelDifference: 0...255, pixelCount: 0...3))!.hasSuffix(
            "the budget is maxChannelDifference=0-255;pixelCount=0-3"))
        XCTAssertTrue(verdict(Fuzzy(maxChannelDifference: 0...255, pixelCount: 5...7))!.hasSuffix("expects more (the rendering improved?): tighten it"))
    }

    func testPixelsOverTheLargestAllowedDifferenceAreCounted() {
        // With 0...1 allowed, all four pixels are over it.
        XCTAssertTrue(verdict(Fuzzy(maxChannelDifference: 0...1, pixelCount: 0...100))!.contains("4 pixels differ, 4 by more than the budget allows"))
    }

    func testAnEqualImagePassesWhenEitherRangeStartsAtZero() {
        XCTAssertNil(verdict(.exact, reference))
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 2, pixelCount: 0...20), reference))
        XCTAssertNil(verdict(Fuzzy(maxChannelDifference: 0...2, pixelCount: 3), reference))
        XCTAssertEqual(verdict(Fuzzy(maxChannelDifference: 1...2, pixelCount: 1...3), reference),
                       "the image equals its reference, but the budget maxChannelDifference=1-2;pixelCount=1-3 expects a difference "
                       + "(a fix?): let its ranges include 0, or tighten it")
    }

    func testTheIssuesSpellingReadsAsWebPlatformTestsWriteIt() {
        let budget = Fuzzy(maxChannelDifference: 2, pixelCount: 0...20)
        XCTAssertEqual(budget.maxChannelDifference, 2...2)
        XCTAssertEqual(budget.pixelCount, 0...20)
        XCTAssertEqual(budget.description, "maxChannelDifference=2;pixelCount=0-20")
    }

    func testTheExactBudgetFailsOnOneLevelOfOneChannel() {
        var b = reference
        b.pixels[0] = 101
        XCTAssertEqual(verdict(.exact, b),
                       "largest channel difference 1 (first at x=0 y=0); 1 pixel differs, 1 by more than the budget allows; "
                       + "first at x=0 y=0, all within x=0 y=0 width=1 height=1 (pixels, from the top left); "
                       + "the budget is maxChannelDifference=0;pixelCount=0")
    }
}
