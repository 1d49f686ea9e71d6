import Foundation
@testable import LayerKitTesting
import LayerKit
import XCTest

/// The record and compare paths of `assertSnapshot`'s check, against references in a temporary folder.
final class RecordCompareTests: XCTestCase {
    func testMissingReferenceIsRecordedAndFailsSayingSo() throws {
        let folder = try TemporaryFolder()
        let failure = try XCTUnwrap(check(smallTree(), as: .image, in: folder))
        XCTAssertTrue(failure.message.contains("no reference was found; recorded one at"), failure.message)
        let recorded = try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path)
        XCTAssertEqual([recorded.width, recorded.height], [20, 10])
        XCTAssertEqual(pixel(recorded, 4, 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(recorded, 2, 5), [255, 255, 255, 255])
        // The second run compares, and passes.
        XCTAssertNil(check(smallTree(), as: .image, in: folder))
        XCTAssertEqual(folder.list("artifacts"), [])
    }

    func testAChangedTreeFailsWithWhatItObserved() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        let changed = smallTree()
        changed.sublayers![0].position.x += 1  // the block moves right: x 3…6 → 4…7
        let failure = try XCTUnwrap(check(changed, as: .image, in: folder))
        // Column 3 turns white (255 in green and blue over 0) and column 7 red: 2 columns of 2 rows.
        XCTAssertTrue(failure.message.contains("largest channel difference 255 (first at x=3 y=5)"), failure.message)
        XCTAssertTrue(failure.message.contains("4 pixels differ, 4 by more than the budget allows"), failure.message)
        XCTAssertTrue(failure.message.contains("first at x=3 y=5, all within x=3 y=5 width=5 height=2"), failure.message)
        XCTAssertTrue(failure.message.contains("maxChannelDifference=0;pixelCount=0"), failure.message)
        XCTAssertFalse(failure.message.contains("does not match"))
    }

    func testTranslucentPixelsSurviveTheRoundTripThroughPNG() throws {
        // Premultiplied pixels are stored straight in the PNG; what is read back must equal
        // what was drawn, or a fresh recording would fail its own comparison.
        let folder = try TemporaryFolder()
        let root = CAGradientLayer()
        root.frame = CGRect(x: 0, y: 0, width: 256, height: 4)
        root.colors = [rgb(255, 0, 0, 0), rgb(20, 200, 90, 1)]
        root.startPoint = CGPoint(x: 0, y: 0.5)
        root.endPoint = CGPoint(x: 1, y: 0.5)
        _ = check(root, as: .image, in: folder)
        XCTAssertNil(check(root, as: .image, in: folder))
    }

    func testEachTakenSnapshotIsNumberedAndNamesReplaceTheCounter() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder, testName: "testCounts()")
        _ = check(smallTree(), as: .recursiveDescription, in: folder, testName: "testCounts()", sameRun: true)
        _ = check(smallTree(), as: .image, named: "dark mode!", in: folder, testName: "testCounts()", sameRun: true)
        _ = check(smallTree(), as: .image, in: folder, testName: "testCounts()", sameRun: true)
        _ = check(smallTree(), as: .image, in: folder, testName: "test_other(x:)", sameRun: true)
        XCTAssertEqual(folder.list("refs"), ["testCounts.1.png", "testCounts.2.txt", "testCounts.3.png", "testCounts.dark-mode.png",
                                             "test_other-x.1.png"])
    }

    func testReferencesLieBesideTheTestFileInSnapshotsFolder() throws {
        let folder = try TemporaryFolder()
        let testFile = folder.file("Tests/AppTests/ButtonTests.swift").path
        let failure = snapshotFailure(of: { smallTree() }, as: .image, named: nil, record: nil,
                                      artifactsDirectory: folder.file("artifacts").path, filePath: testFile, testName: "testRed()")
        XCTAssertNotNil(failure)
        XCTAssertTrue(folder.exists("Tests/AppTests/__Snapshots__/ButtonTests/testRed.1.png"))
    }

    func testSanitizingNamesAsSwiftSnapshotTestingDoes() {
        XCTAssertEqual(sanitizedPathComponent("testShadow()"), "testShadow")
        XCTAssertEqual(sanitizedPathComponent("rendersAt(scale:)"), "rendersAt-scale")
        XCTAssertEqual(sanitizedPathComponent("a  b..c"), "a-b-c")
        XCTAssertEqual(sanitizedPathComponent("under_score"), "under_score")
    }

    func testFailureArtifactsAreWrittenNamedAfterTheReference() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        let changed = smallTree()
        changed.sublayers![0].backgroundColor = rgb(253, 0, 0)  // 2 off in red on the block's 8 pixels
        let failure = try XCTUnwrap(check(changed, as: .image(fuzzy: Fuzzy(maxChannelDifference: 0...1, pixelCount: 0...100)), in: folder))
        XCTAssertEqual(folder.list("artifacts/SomeTests"), ["testSomething.1.actual.png", "testSomething.1.difference.png",
                                                            "testSomething.1.reference.png"])
        XCTAssertEqual(failure.attachments.map(\.name), ["testSomething.1.reference.png", "testSomething.1.actual.png",
                                                         "testSomething.1.difference.png"])
        let actual = try Bitmap(contentsOfPNGFile: folder.file("artifacts/SomeTests/testSomething.1.actual.png").path)
        XCTAssertEqual(pixel(actual, 3, 5), [253, 0, 0, 255])
        XCTAssertEqual(try Data(contentsOf: folder.file("artifacts/SomeTests/testSomething.1.reference.png")),
                       try Data(contentsOf: folder.file("refs/testSomething.1.png")))
        // Over-budget pixels red; equal ones the reference's grey (white: 32 + 255 / 4 = 95).
        let difference = try Bitmap(contentsOfPNGFile: folder.file("artifacts/SomeTests/testSomething.1.difference.png").path)
        XCTAssertEqual(pixel(difference, 3, 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(difference, 0, 0), [95, 95, 95, 255])
        for path in ["reference", "actual", "difference"] {
            XCTAssertTrue(failure.message.contains("\(path): " + folder.file("artifacts/SomeTests/testSomething.1.\(path).png").path), failure.message)
        }
    }

    func testWithinBudgetPixelsAreYellowInTheDifferenceImage() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        let changed = smallTree()
        changed.sublayers![0].backgroundColor = rgb(253, 0, 0)
        changed.addSublayer(solid(CGRect(x: 15, y: 0, width: 1, height: 1), rgb(0, 0, 0)))
        // 8 pixels 2 off (within 0...2), 1 pixel 255 off: over on the first axis.
        _ = check(changed, as: .image(fuzzy: Fuzzy(maxChannelDifference: 0...2, pixelCount: 0...100)), in: folder)
        let difference = try Bitmap(contentsOfPNGFile: folder.file("artifacts/SomeTests/testSomething.1.difference.png").path)
        XCTAssertEqual(pixel(difference, 3, 5), [255, 255, 0, 255])
        XCTAssertEqual(pixel(difference, 15, 0), [255, 0, 0, 255])
    }

    func testAnUnreadableReferenceFailsNamingIt() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("refs"), withIntermediateDirectories: true)
        try Data("not a png".utf8).write(to: folder.file("refs/testSomething.1.png"))
        let failure = try XCTUnwrap(check(smallTree(), as: .image, in: folder))
        XCTAssertTrue(failure.message.contains("cannot read the reference \(folder.file("refs/testSomething.1.png").path)"), failure.message)
        // Record mode failed replaces it.
        XCTAssertTrue(try XCTUnwrap(check(smallTree(), as: .image, record: .failed, in: folder)).message.hasSuffix("re-recorded the reference (record mode failed)"))
        XCTAssertNil(check(smallTree(), as: .image, in: folder))
    }

    func testASizeChangeFailsSayingBothSizes() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        let failure = try XCTUnwrap(check(smallTree(), as: .image(size: CGSize(width: 21, height: 10)), in: folder))
        XCTAssertTrue(failure.message.contains("the image is 21x10 pixels, the reference 20x10"), failure.message)
    }

    func testAnEmptyLayerFailsSayingWhy() throws {
        let folder = try TemporaryFolder()
        let failure = try XCTUnwrap(check(CALayer(), as: .image, in: folder))
        XCTAssertTrue(failure.message.contains("the image would be 0.0x0.0 points"), failure.message)
        XCTAssertEqual(folder.list("refs"), [])
    }

    func testAThrowingValueFailsWithItsError() throws {
        let folder = try TemporaryFolder()
        struct Broken: Error, CustomStringConvertible { var description: String { "no scene here" } }
        let failure = snapshotFailure(of: { () throws -> CALayer in throw Broken() }, as: .image, named: nil, record: nil,
                                      snapshotDirectory: folder.path, filePath: "/x/T.swift", testName: "t()")
        XCTAssertEqual(failure?.message, "cannot take snapshot t.1: no scene here")
    }

    func testScaleAndSizeCombine() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image(scale: 2, size: CGSize(width: 8, height: 8)), in: folder)
        let image = try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path)
        XCTAssertEqual([image.width, image.height], [16, 16])
        // The block's top left corner (3, 5) points is pixel (6, 10) at 2x.
        XCTAssertEqual(pixel(image, 5, 10), [255, 255, 255, 255])
        XCTAssertEqual(pixel(image, 6, 10), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 6, 9), [255, 255, 255, 255])
    }

    func testTheLayersOwnPositionIsNotApplied() throws {
        let folder = try TemporaryFolder()
        let tree = smallTree()
        tree.position = CGPoint(x: 500, y: -40)
        tree.transform = CATransform3DMakeScale(3, 3, 1)
        tree.bounds.origin = CGPoint(x: 2, y: 4)  // the bounds' origin is the image's top left
        _ = check(tree, as: .image, in: folder)
        let image = try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path)
        XCTAssertEqual([image.width, image.height], [20, 10])
        XCTAssertEqual(pixel(image, 1, 1), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 0, 1), [255, 255, 255, 255])
        XCTAssertEqual(pixel(image, 5, 1), [255, 255, 255, 255])
    }
}

/// Unnamed snapshots count from 1 again in each XCTest test (XCTest runs a class's tests in
/// the order written: the second test sees what the first counted).
final class SnapshotCounterTests: XCTestCase {
    func test1CountsUp() {
        XCTAssertEqual(SnapshotCounter.next(file: "/x/CounterTests.swift", test: "t()"), 1)
        XCTAssertEqual(SnapshotCounter.next(file: "/x/CounterTests.swift", test: "t()"), 2)
        XCTAssertEqual(SnapshotCounter.next(file: "/x/CounterTests.swift", test: "u()"), 1)
        XCTAssertEqual(SnapshotCounter.next(file: "/x/OtherTests.swift", test: "t()"), 1)
    }

    func test2StartsAgainInTheNextTest() {
        XCTAssertEqual(SnapshotCounter.next(file: "/x/CounterTests.swift", test: "t()"), 1)
    }
}
