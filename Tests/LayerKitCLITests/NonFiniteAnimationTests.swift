import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// Finite animation inputs whose value overflows (issue 23): the layer is not drawn where its
/// value is not finite, and the command says so once per layer and key path on standard error.
@Suite struct NonFiniteAnimationTests {
    private let temporary = TemporaryDirectories()

    @Test func testOverflowingValuesHideTheLayerWithAWarning() throws {
        let dir = try temporary.directory()
        let layer = #""frame": [10, 10, 50, 50], "backgroundColor": [1, 0, 0, 1]"#
        let overflow = #"{"type": "basic", "keyPath": "position.x", "fromValue": 1e308, "toValue": 1e308, "duration": 1, "additive": true}"#
        for (name, animations, keyPath, time) in [
            // Two additive 1e308s on top of the model's 35: 2e308 is infinite.
            ("additive positions", "[\(overflow), \(overflow)]", "position.x", "0.5"),
            // Tension 1e308 makes the cubic pieces' tangents −1e308 x (50 − 0) = −∞.
            ("cubic tension", #"[{"type": "keyframe", "keyPath": "position.x", "values": [0, 50, 20, 40], "duration": 1, "calculationMode": "cubic", "tensionValues": [1e308, 1e308, 1e308, 1e308]}]"#, "position.x", "0.5"),
            // The layer's time: 1e308 + 1e308, infinite, where no animation has a value.
            ("time offset", #"[{"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 50, "duration": 1, "repeatCount": "infinity"}]"#, "position.x", "1e308"),
            // A cumulative scale of 1e307 a pass, 100 passes: 1e309.
            ("cumulative scale", #"[{"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 1e307, "duration": 0.01, "cumulative": true, "repeatCount": 100}]"#, "transform.scale", "0.5"),
        ] {
            let scene = dir.appendingPathComponent("scene.json")
            let timing = name == "time offset" ? #""timeOffset": 1e308, "# : ""
            try Data(sceneText(root: #"{"sublayers": [{"name": "witness", "frame": [0, 0, 5, 5], "backgroundColor": [0, 1, 0, 1]}, {\#(timing)\#(layer), "animations": \#(animations)}]}"#).utf8).write(to: scene)
            let png = dir.appendingPathComponent("out.png")
            let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", "cpu", "--time", time])
            expectEqual(run.status, 0, "\(name): \(run.stderr)")
            expectEqual(run.stderrLines, [
                #"layerkit: warning: \#(scene.path): root.sublayers[1]: the animated "\#(keyPath)" is not finite at layer time \#(time == "1e308" ? "inf" : time); the layer is not drawn there"#,
            ], "\(name)")
            let image = try Bitmap(contentsOfPNGFile: png.path)
            expectEqual(image.rgba(2, 2), [0, 255, 0, 255], "\(name)")
            // Nowhere is the red layer drawn.
            expect(!(0..<100).contains { y in (0..<100).contains { x in image.rgba(x, y) == [255, 0, 0, 255] } }, "\(name)")
            // Many frames, one warning (the first two are not finite from the first frame on).
            guard name == "additive positions" || name == "cubic tension" else { continue }
            let soak = try runLayerKit(["soak", scene.path, "--backend", "cpu", "--frames", "3", "--every", "1", "--warmup", "0",
                                        "--max-rss-growth", "1000", "--animate"])
            expectEqual(soak.stderrLines.filter { $0.contains("not finite") }.count, 1, "\(name): \(soak.stderr)")
        }
    }
}
