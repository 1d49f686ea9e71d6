import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// Finite numbers whose geometry overflows (issue 23: a `shadowRadius` of 1e308 made the blur
/// margin 3 x 1e308 + 1 infinite, and a rectangle intersection trapped): every command that
/// draws the scene exits 0 and draws the layer, whether the radius is static or reached by an
/// animation.
@Suite struct OverflowingGeometryTests {
    private let temporary = TemporaryDirectories()

    /// A red 50 x 50 layer at (10, 10) on a white 100 x 100 canvas, casting a shadow with radius
    /// 1e308 (static, or animated there and held).
    private func scenes() -> [(name: String, text: String)] {
        let layer = #""frame": [10, 10, 50, 50], "backgroundColor": [1, 0, 0, 1], "shadowOpacity": 1"#
        let canvas = #"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 100, "height": 100, "background": [1, 1, 1, 1]}, "root": {"sublayers": [{LAYER}]}}"#
        return [
            ("static", canvas.replacingOccurrences(of: "LAYER", with: layer + #", "shadowRadius": 1e308"#)),
            ("animated", canvas.replacingOccurrences(of: "LAYER", with: layer + #", "animations": [{"type": "basic", "keyPath": "shadowRadius", "fromValue": 1e308, "toValue": 1e308, "duration": 1, "fillMode": "both", "removedOnCompletion": false}]"#)),
            ("rasterized at 1e308", canvas.replacingOccurrences(of: "LAYER", with: #""frame": [10, 10, 50, 50], "backgroundColor": [1, 0, 0, 1], "shouldRasterize": true, "rasterizationScale": 1e308"#)),
        ]
    }

    @Test func testHugeShadowRadiusDrawsInEveryCommand() throws {
        let dir = try temporary.directory()
        for (name, text) in scenes() {
            let scene = dir.appendingPathComponent("scene.json")
            try Data(text.utf8).write(to: scene)
            for backend in ["cpu", "gl"] {
                let png = dir.appendingPathComponent("\(backend).png")
                let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", backend, "--time", "0.5"])
                expectEqual(run.status, 0, "\(name), \(backend): \(run.stderr)")
                guard run.status == 0 else { continue }
                let image = try Bitmap(contentsOfPNGFile: png.path)
                // The layer itself, and the canvas beside it: a shadow that wide is invisible.
                expectEqual(image.rgba(35, 35), [255, 0, 0, 255], "\(name), \(backend)")
                expectEqual(image.rgba(80, 80), [255, 255, 255, 255], "\(name), \(backend)")
            }
            let list = try runLayerKit(["displaylist", scene.path])
            expectEqual(list.status, 0, "\(name): \(list.stderr)")
            let bench = try runLayerKit(["bench", scene.path, "--backend", "cpu", "--frames", "2", "--warmup", "0", "--animate"])
            expectEqual(bench.status, 0, "\(name): \(bench.stderr)")
            let soak = try runLayerKit(["soak", scene.path, "--backend", "cpu", "--frames", "2", "--every", "1", "--warmup", "0",
                                        "--max-rss-growth", "1000", "--animate"])
            expectEqual(soak.status, 0, "\(name): \(soak.stderr)")
        }
    }
}
