import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// Every scene of `Goldens/scenes.list` with a golden (every seed scene and every scene of the
/// project's own corpus), rendered by the CPU reference at scale 1 and 2 and compared with its
/// golden images in `Goldens/`, byte for byte.
final class GoldenImageTests: XCTestCase {
    /// A scene added to `Examples/seeds`, `Examples/corpus`, `Examples/animation` or `Examples/drawing` is drawn by the
    /// rendering tests
    /// only once `scenes.list` names it with its budgets.
    func testEverySeedCorpusAndDrawingSceneIsListed() throws {
        let listed = Set(try sceneList().map(\.path))
        let scenes = try exampleScenePaths().map { String($0.dropFirst(examplesDirectory.path.count + 1)) }
            .filter { path in ["seeds/", "corpus/", "animation/", "drawing/"].contains { path.hasPrefix($0) } }
        XCTAssertGreaterThanOrEqual(scenes.count, 24)
        for scene in scenes { XCTAssertTrue(listed.contains(scene), "\(scene) is not in scenes.list") }
    }

    func testGoldenImages() throws {
        let entries = try sceneList().filter(\.hasGolden)
        XCTAssertGreaterThanOrEqual(entries.count, 24, "every seed scene has a golden")
        let update = ProcessInfo.processInfo.environment["LAYERKIT_UPDATE_GOLDENS"] == "1"
        let renderer = CPURenderer()
        for entry in entries {
            let scene = try Scene(contentsOfFile: entry.url.path)
            for scale in [1.0, 2.0] {
                let golden = entry.golden(scale: scale).path, name = (golden as NSString).lastPathComponent
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
