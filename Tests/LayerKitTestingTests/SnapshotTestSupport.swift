import Foundation
@testable import LayerKitTesting
import LayerKit
import XCTest

/// A fresh temporary folder for one test's references and artifacts, removed at the end.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("LayerKitTestingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name).path) }
    /// The files under `folder` (relative), sorted.
    func list(_ folder: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file(folder).path)) ?? []).sorted()
    }
}

/// Runs the whole check with references in `folder/refs` and artifacts in `folder/artifacts`,
/// as a test file `SomeTests.swift` and a test named `testName` would; each call is a new run
/// of the test (its unnamed snapshots count from 1) unless `sameRun`.
func check<Value, Format>(_ value: Value, as snapshotting: Snapshotting<Value, Format>, named name: String? = nil,
                          record: SnapshotTestingConfiguration.Record? = nil, in folder: TemporaryFolder,
                          testName: String = "testSomething()", sameRun: Bool = false) -> SnapshotFailure? {
    if !sameRun { SnapshotCounter.reset() }
    return snapshotFailure(of: { value }, as: snapshotting, named: name, record: record, snapshotDirectory: folder.file("refs").path,
                    artifactsDirectory: folder.file("artifacts").path, filePath: "/nowhere/SomeTests.swift", testName: testName)
}

/// A solid-colour layer with a frame.
func solid(_ frame: CGRect, _ color: CGColor) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.backgroundColor = color
    return l
}

/// Opaque sRGB colour from 0–255 components.
func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: a)
}

/// A 20x10 white layer with a red 4x2 block at (3, 5): a tree whose pixels are known by hand.
func smallTree() -> CALayer {
    let root = solid(CGRect(x: 0, y: 0, width: 20, height: 10), rgb(255, 255, 255))
    root.addSublayer(solid(CGRect(x: 3, y: 5, width: 4, height: 2), rgb(255, 0, 0)))
    return root
}

/// The pixel at (x, y) as [r, g, b, a].
func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
    let p = b[x, y]
    return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}
