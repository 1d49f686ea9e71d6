import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// What the compositor decides for every scene of `scenes.list` (beside the golden images in
/// `Tests/CPURendererTests/Goldens`): passes, quads, their order, matrices, clips, held as text,
/// so that a change in flattening, sorting or pass planning reads as a diff of
/// `DisplayLists/<scene>.txt` rather than only as changed pixels.
///
/// Regenerate with `LAYERKIT_UPDATE_DUMPS=1 swift test --filter DisplayListDumpTests` and read
/// the diff before committing it.
final class DisplayListDumpTests: XCTestCase {
    static let dumps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DisplayLists")

    func testDisplayListsMatchTheirDumps() throws {
        let entries = try sceneList()
        XCTAssertGreaterThanOrEqual(entries.count, 24)
        let update = ProcessInfo.processInfo.environment["LAYERKIT_UPDATE_DUMPS"] == "1"
        for entry in entries {
            let scene = try Scene(contentsOfFile: entry.url.path)
            // Image paths are the scene's, made absolute by the test; the dump names them from
            // the repository so that it reads the same in every checkout.
            let dump = Compositor.displayList(for: scene, scale: 1).dump()
                .replacingOccurrences(of: examplesDirectory.standardizedFileURL.path, with: "Examples")
            let file = Self.dumps.appendingPathComponent(entry.name + ".txt")
            if update {
                try FileManager.default.createDirectory(at: Self.dumps, withIntermediateDirectories: true)
                try dump.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
                XCTFail("\(entry.name): no dump (run with LAYERKIT_UPDATE_DUMPS=1 and read it)")
                continue
            }
            guard dump != expected else { continue }
            let (a, b) = (expected.split(separator: "\n", omittingEmptySubsequences: false),
                          dump.split(separator: "\n", omittingEmptySubsequences: false))
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let actual = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(entry.name).txt")
            try? dump.write(to: actual, atomically: true, encoding: .utf8)
            XCTFail("""
                \(entry.name): display list differs from DisplayLists/\(entry.name).txt at line \(line + 1):
                  expected: \(line < a.count ? String(a[line]) : "(end)")
                  actual:   \(line < b.count ? String(b[line]) : "(end)")
                whole dump in \(actual.path)
                """)
        }
    }
}
