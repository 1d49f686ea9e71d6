import Foundation
@testable import LayerKitTesting
import LayerKit
import XCTest

/// Record modes, given to the assertion, scoped with `withSnapshotTesting`, and set by
/// `SNAPSHOT_TESTING_RECORD`, in that order of precedence.
final class RecordModeTests: XCTestCase {
    private func changedTree() -> CALayer {
        let tree = smallTree()
        tree.sublayers![0].backgroundColor = rgb(0, 0, 255)
        return tree
    }

    /// The pixel of the block in the recorded reference.
    private func recordedBlock(_ folder: TemporaryFolder) throws -> [Int] {
        pixel(try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path), 4, 5)
    }

    override func tearDown() {
        unsetenv("SNAPSHOT_TESTING_RECORD")
        super.tearDown()
    }

    func testAllRecordsEvenAMatchAndFails() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        let failure = try XCTUnwrap(check(changedTree(), as: .image, record: .all, in: folder))
        XCTAssertTrue(failure.message.contains("recorded (record mode all)"), failure.message)
        XCTAssertEqual(try recordedBlock(folder), [0, 0, 255, 255])
        XCTAssertNotNil(check(changedTree(), as: .image, record: .all, in: folder))
        XCTAssertNil(check(changedTree(), as: .image, in: folder))
    }

    func testFailedReplacesADifferingReferenceAndFails() throws {
        let folder = try TemporaryFolder()
        _ = check(smallTree(), as: .image, in: folder)
        XCTAssertNil(check(smallTree(), as: .image, record: .failed, in: folder))
        let failure = try XCTUnwrap(check(changedTree(), as: .image, record: .failed, in: folder))
        XCTAssertTrue(failure.message.contains("largest channel difference 255"), failure.message)
        XCTAssertTrue(failure.message.hasSuffix("re-recorded the reference (record mode failed)"), failure.message)
        XCTAssertEqual(try recordedBlock(folder), [0, 0, 255, 255])
        XCTAssertNil(check(changedTree(), as: .image, record: .failed, in: folder))
    }

    func testFailedRecordsAMissingReferenceAndFails() throws {
        let folder = try TemporaryFolder()
        XCTAssertTrue(try XCTUnwrap(check(smallTree(), as: .image, record: .failed, in: folder)).message.contains("no reference was found"))
        XCTAssertTrue(folder.exists("refs/testSomething.1.png"))
    }

    func testNeverWritesNoReferenceButLeavesTheActualImage() throws {
        let folder = try TemporaryFolder()
        let failure = try XCTUnwrap(check(smallTree(), as: .image, record: .never, in: folder))
        XCTAssertTrue(failure.message.hasPrefix("snapshot testSomething.1.png: no reference at \(folder.file("refs/testSomething.1.png").path), "
                                                + "and record mode never records one"), failure.message)
        XCTAssertFalse(folder.exists("refs/testSomething.1.png"))
        XCTAssertEqual(folder.list("artifacts/SomeTests"), ["testSomething.1.actual.png"])
        // A mismatch is not re-recorded either.
        _ = check(smallTree(), as: .image, in: folder)
        XCTAssertNotNil(check(changedTree(), as: .image, record: .never, in: folder))
        XCTAssertEqual(try recordedBlock(folder), [255, 0, 0, 255])
    }

    func testTheEnvironmentVariableSetsTheDefault() throws {
        let folder = try TemporaryFolder()
        setenv("SNAPSHOT_TESTING_RECORD", "never", 1)
        XCTAssertTrue(try XCTUnwrap(check(smallTree(), as: .image, in: folder)).message.contains("record mode never"))
        XCTAssertFalse(folder.exists("refs/testSomething.1.png"))
        setenv("SNAPSHOT_TESTING_RECORD", "all", 1)
        XCTAssertTrue(try XCTUnwrap(check(smallTree(), as: .image, in: folder)).message.contains("record mode all"))
        XCTAssertTrue(folder.exists("refs/testSomething.1.png"))
        setenv("SNAPSHOT_TESTING_RECORD", "missing", 1)
        XCTAssertNil(check(smallTree(), as: .image, in: folder))
        setenv("SNAPSHOT_TESTING_RECORD", "failed", 1)
        XCTAssertTrue(try XCTUnwrap(check(changedTree(), as: .image, in: folder)).message.contains("re-recorded"))
    }

    func testAnUnknownModeInTheEnvironmentFailsNamingTheModes() throws {
        let folder = try TemporaryFolder()
        setenv("SNAPSHOT_TESTING_RECORD", "sometimes", 1)
        XCTAssertEqual(check(smallTree(), as: .image, in: folder)?.message,
                       "cannot take snapshot testSomething.1: SNAPSHOT_TESTING_RECORD=sometimes is not a record mode: use all, failed, missing or never")
        XCTAssertEqual(folder.list(), [])
    }

    func testTheAssertionsModeOutranksTheScopesWhichOutranksTheEnvironment() throws {
        let folder = try TemporaryFolder()
        setenv("SNAPSHOT_TESTING_RECORD", "all", 1)
        withSnapshotTesting(record: .never) {
            XCTAssertTrue(check(smallTree(), as: .image, in: folder)!.message.contains("record mode never"))
            XCTAssertTrue(check(smallTree(), as: .image, record: .missing, in: folder)!.message.contains("no reference was found"))
            // An inner scope without a mode keeps the outer one's.
            withSnapshotTesting {
                XCTAssertNil(check(smallTree(), as: .image, in: folder))
            }
        }
        XCTAssertTrue(check(smallTree(), as: .image, in: folder)!.message.contains("record mode all"))
    }
}
