import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// The bitmaps of a scene's drawings are budgeted when the file is read (issue 23: a
/// 16,384-point drawing, an 8,192-point one at contentsScale 2 and four 8,192-point ones
/// aborted with "failed to allocate" under a 4 GB address-space limit; one over 16,384 pixels
/// a side was dropped without a word). Each is refused, exit 2, naming the drawing and why.
@Suite struct DrawingBudgetTests {
    private let temporary = TemporaryDirectories()
    private static let addressSpaceKiB = 4_000_000

    private func drawing(_ side: Int, scale: Int = 1, width: Int? = nil) -> String {
        #"{"frame": [0, 0, \#(width ?? side), \#(side)], "contentsScale": \#(scale), "drawing": [{"op": "setFillColor", "color": [1, 0, 0, 1]}, {"op": "fill", "rect": [0, 0, 50, 50]}]}"#
    }

    @Test func testDrawingsOverTheBudgetAreRefused() throws {
        let dir = try temporary.directory()
        let budget = "over the budget of 67108864 (256 MiB) for all of them"
        for (layers, message) in [
            ([drawing(16384)], "root.sublayers[0].drawing: the drawing's bitmap of 16384 x 16384 pixels (bounds x contentsScale) brings the scene's drawings to 268435456 pixels, \(budget)"),
            ([drawing(8192, scale: 2)], "root.sublayers[0].drawing: the drawing's bitmap of 16384 x 16384 pixels (bounds x contentsScale) brings the scene's drawings to 268435456 pixels, \(budget)"),
            // 8,192² is the whole budget: the second drawing is over it.
            (Array(repeating: drawing(8192), count: 4), "root.sublayers[1].drawing: the drawing's bitmap of 8192 x 8192 pixels (bounds x contentsScale) brings the scene's drawings to 134217728 pixels, \(budget)"),
            ([drawing(10, width: 16385)], "root.sublayers[0].drawing: the drawing's bitmap would be 16385 x 10 pixels (bounds x contentsScale), over the limit of 16384 pixels a side"),
        ] {
            let scene = dir.appendingPathComponent("scene.json")
            try Data(sceneText(root: #"{"sublayers": [\#(layers.joined(separator: ", "))]}"#).utf8).write(to: scene)
            let png = dir.appendingPathComponent("out.png")
            let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", "cpu"], addressSpaceKiB: Self.addressSpaceKiB)
            expectEqual(run.status, 2, "\(message)")
            expectEqual(run.stderrLines, ["layerkit: \(scene.path): \(message)"])
            expect(!FileManager.default.fileExists(atPath: png.path))
        }
    }

    /// Four 4,096-point drawings fill the budget exactly, and draw under the limit.
    @Test func testDrawingsWithinTheBudgetDraw() throws {
        let dir = try temporary.directory()
        let scene = dir.appendingPathComponent("scene.json")
        try Data(sceneText(root: #"{"sublayers": [\#(Array(repeating: drawing(4096), count: 4).joined(separator: ", "))]}"#).utf8).write(to: scene)
        let png = dir.appendingPathComponent("out.png")
        let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", "cpu"], addressSpaceKiB: Self.addressSpaceKiB)
        expectEqual(run.status, 0, "\(run.stderr)")
        try expectEqual(Bitmap(contentsOfPNGFile: png.path).rgba(20, 20), [255, 0, 0, 255])
    }
}
