import CPURenderer
import Foundation
import LayerCompositor
import LayerKit
import LayerKitTestSupport
import XCTest

/// Every seed scene and every scene of the project's own corpus, rendered by the CPU reference
/// at scale 1 and 2 and compared with golden images listed in `Goldens/goldens.list`.
final class GoldenImageTests: XCTestCase {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    func testGoldenImages() throws {
        let list = try String(contentsOf: Self.goldens.appendingPathComponent("goldens.list"), encoding: .utf8)
        let entries = list.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        XCTAssertGreaterThanOrEqual(entries.count, 24, "every seed scene has a golden")
        let update = ProcessInfo.processInfo.environment["LAYERKIT_UPDATE_GOLDENS"] == "1"
        let renderer = CPURenderer()
        for entry in entries {
            let fields = entry.split(separator: " ")
            let path = String(fields[0]), budget = String(fields[1])
            XCTAssertEqual(budget, "exact", "unknown budget in \(entry)")
            let scene = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent(path).path)
            for scale in [1.0, 2.0] {
                let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "@\(Int(scale))x.png")
                let golden = Self.goldens.appendingPathComponent(name).path
                let image = try renderer.render(Compositor.displayList(for: scene, scale: scale))
                if update {
                    try image.writePNG(to: golden)
                    continue
                }
                guard let expected = try? Bitmap(contentsOfPNGFile: golden) else {
                    XCTFail("\(name): no golden image (run with LAYERKIT_UPDATE_GOLDENS=1 and look at it)")
                    continue
                }
                guard expected.width == image.width, expected.height == image.height else {
                    XCTFail("\(name): size \(image.width)x\(image.height), golden \(expected.width)x\(expected.height)")
                    continue
                }
                let diff = BitmapDifference(image, expected, threshold: 0)
                if diff.pixelsOver > 0 {
                    let actual = FileManager.default.temporaryDirectory.appendingPathComponent("actual-" + name).path
                    try? image.writePNG(to: actual)
                    XCTFail("\(name) differs from its golden: \(diff), \(diff.pixelsOver) pixels; actual written to \(actual)")
                }
            }
        }
    }
}
