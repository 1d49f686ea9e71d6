import LayerKit
import LayerKitTesting
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
