import LayerKit
@testable import LayerKitTesting
import Testing
import XCTest

/// `assertSnapshot` as a test calls it, against references committed beside this file
/// (`__Snapshots__/AssertSnapshotTests/`).
final class AssertSnapshotTests: XCTestCase {
    func testCommittedReferencesMatch() {
        assertSnapshot(of: smallTree(), as: .image)
        assertSnapshot(of: smallTree(), as: .recursiveDescription)
        assertSnapshot(of: smallTree(), as: .image(scale: 2), named: "2x")
    }

    func testTheCommittedReferencesAreWhereSwiftSnapshotTestingPutsThem() {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/AssertSnapshotTests")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted()
        XCTAssertEqual(files, ["testCommittedReferencesMatch.1.png", "testCommittedReferencesMatch.2.txt",
                               "testCommittedReferencesMatch.2x.png"])
    }
}

/// Under Swift Testing, failures are issues (with the artifacts attached) and the trait sets
/// the record mode. Serialized: `swift test` runs Swift Testing's tests after XCTest's, but
/// these read the references the XCTest test above checks and must not write any.
@Suite(.serialized, .snapshots(record: .never))
struct SwiftTestingSnapshotTests {
    @Test func aMissingReferenceUnderNeverIsAnIssueNamingTheMode() {
        withKnownIssue {
            assertSnapshot(of: smallTree(), as: .image, named: "never-recorded")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("no reference at") && $0.rawValue.contains("record mode never") }
        }
    }

    @Test func aDifferenceIsAnIssueWithWhatWasObserved() {
        let changed = smallTree()
        changed.sublayers![0].backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        withKnownIssue {
            // The reference committed for the XCTest test above.
            assertSnapshot(of: changed, as: .image, named: "1", testName: "testCommittedReferencesMatch()")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("largest channel difference 255") }
        }
    }

    @Test func aMatchIsNoIssue() {
        assertSnapshot(of: smallTree(), as: .image, named: "1", testName: "testCommittedReferencesMatch()")
    }
}

/// The issue's spellings, as a test writes them, through `verifySnapshot` into a temporary
/// folder: each records on the first run and matches on the second.
final class IssueSpellingTests: XCTestCase {
    func testEverySpellingRecordsThenMatches() throws {
        let folder = try TemporaryFolder()
        let layer = smallTree()
        let scene = Scene(canvas: Canvas(width: 20, height: 10), root: smallTree())
        func run() -> [String?] {
            [
                verifySnapshot(of: layer, as: .image, snapshotDirectory: folder.path),
                verifySnapshot(of: layer, as: .image(fuzzy: .init(maxChannelDifference: 2, pixelCount: 0...20)),
                               snapshotDirectory: folder.path),
                verifySnapshot(of: layer, as: .image(atTimes: [0, 0.25, 1]), snapshotDirectory: folder.path),
                verifySnapshot(of: layer, as: .image(backend: .gl), snapshotDirectory: folder.path),
                verifySnapshot(of: layer, as: .recursiveDescription, snapshotDirectory: folder.path),
                verifySnapshot(of: scene, as: .image, snapshotDirectory: folder.path),
                verifySnapshot(of: layer, as: .image, named: "dark", record: .missing, snapshotDirectory: folder.path),
            ]
        }
        XCTAssertEqual(run().map { $0?.contains("recorded one at") }, [true, true, true, true, true, true, true])
        // `testName` is #function where `verifySnapshot` is written: here the helper `run()`.
        XCTAssertEqual(folder.list(), ["run.1.png", "run.2.png", "run.3.t0.0.png", "run.3.t0.25.png", "run.3.t1.0.png", "run.4.png",
                                       "run.5.txt", "run.6.png", "run.dark.png"])
        SnapshotCounter.reset()
        XCTAssertEqual(run(), [nil, nil, nil, nil, nil, nil, nil])
    }
}
