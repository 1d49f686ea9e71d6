import Foundation
import LayerKitCore
import Testing

/// `layerkit render --time`: the presentation tree at a scene time, the scene's own `time` by
/// default, and a time that is not finite refused as bad input.
@Suite struct RenderTimeTests {
    private let temporary = TemporaryDirectories()

    @Test func testRenderDrawsTheSceneAtTheGivenTime() throws {
        let directory = try temporary.directory()
        let scene = directory.appendingPathComponent("fade.json").path
        // A red layer over a blue canvas, its opacity 0 → 1 over 1 s; the scene's time is 0.5.
        try Data(#"""
            {"format": "layerkit-scene", "version": 1, "time": 0.5,
             "canvas": {"width": 10, "height": 10, "background": "#0000FF"},
             "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
                      "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}}
            """#.utf8).write(to: URL(fileURLWithPath: scene))
        let output = directory.appendingPathComponent("out.png").path
        // Opacity ½ by default (127.5 each of red and blue), ¼ at --time 0.25 (63.75, 191.25).
        for (time, want) in [(nil, [127.5, 0, 127.5]), ("0.25", [63.75, 0, 191.25])] as [(String?, [Double])] {
            let run = try runLayerKit(["render", scene, "-o", output, "--backend", "cpu"] + (time.map { ["--time", $0] } ?? []))
            expectEqual(run.status, 0, "\(run.stderr)")
            let p = try Bitmap(contentsOfPNGFile: output)[5, 5]
            for (g, w) in zip([p.r, p.g, p.b], want) { expect(abs(Double(g) - w) <= 1, "--time \(time ?? "default")") }
        }
        let bad = try runLayerKit(["render", scene, "-o", output, "--time", "nan"])
        expectEqual(bad.status, 2)
        expectEqual(bad.stderrLines, ["layerkit: --time: expected a finite number of seconds, found nan"])
    }
}
