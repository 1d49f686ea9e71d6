import Foundation
import LayerKitCore
import Testing

/// `--debug-overlay` on `render` and `displaylist`, a value that is none of the three refused
/// with the choices listed, and `bench --json`'s `blended_pixels` and `offscreen_passes`.
@Suite struct DebugOverlayCommandTests {
    private let temporary = TemporaryDirectories()

    /// A 40x20 white canvas with an opaque red square at (0, 0) and a blue one of alpha
    /// 128/255 at (20, 0), both 10x10.
    private func scene() throws -> (directory: URL, path: String) {
        let directory = try temporary.directory()
        let path = directory.appendingPathComponent("squares.json").path
        try Data(#"""
            {"format": "layerkit-scene", "version": 1,
             "canvas": {"width": 40, "height": 20, "background": "#FFFFFF"},
             "root": {"frame": [0, 0, 40, 20], "sublayers": [
                {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"},
                {"frame": [20, 0, 10, 10], "backgroundColor": "#0000FF80"}]}}
            """#.utf8).write(to: URL(fileURLWithPath: path))
        return (directory, path)
    }

    @Test func testRenderDrawsTheOverlay() throws {
        let (directory, path) = try scene()
        let output = directory.appendingPathComponent("out.png").path
        let run = try runLayerKit(["render", path, "-o", output, "--backend", "cpu", "--debug-overlay", "blended"])
        expectEqual(run.status, 0, "\(run.stderr)")
        let bitmap = try Bitmap(contentsOfPNGFile: output)
        // Red under the green tint (alpha 102/255): (255 × 0.6, 102, 0); the blue square over
        // white is (127, 127, 255), under the red tint (102 + 127 × 0.6, 127 × 0.6, 255 × 0.6).
        expectEqual(bitmap.rgba(5, 5), [153, 102, 0, 255])
        expectEqual(bitmap.rgba(25, 5), [178, 76, 153, 255])
        expectEqual(bitmap.rgba(15, 5), [255, 255, 255, 255])
        let plain = try runLayerKit(["render", path, "-o", output, "--backend", "cpu"])
        expectEqual(plain.status, 0, "\(plain.stderr)")
        try expectEqual(Bitmap(contentsOfPNGFile: output).rgba(5, 5), [255, 0, 0, 255], "no overlay unless asked")
    }

    @Test func testDisplayListShowsTheTintQuads() throws {
        let (_, path) = try scene()
        let run = try runLayerKit(["displaylist", path, "--debug-overlay", "blended"])
        expectEqual(run.status, 0, "\(run.stderr)")
        expectEqual(run.stdout.components(separatedBy: "(blended overlay)").count - 1, 2, "\(run.stdout)")
        let misaligned = try runLayerKit(["displaylist", path, "--debug-overlay", "misaligned"])
        expectEqual(misaligned.status, 0, "\(misaligned.stderr)")
        expect(!misaligned.stdout.contains("overlay)"), "no images, no tints")
    }

    @Test func testABadValueListsTheChoices() throws {
        let (directory, path) = try scene()
        let output = directory.appendingPathComponent("out.png").path
        for command in [["render", path, "-o", output], ["displaylist", path]] {
            let run = try runLayerKit(command + ["--debug-overlay", "pink"])
            expectEqual(run.status, 2, "\(command[0])")
            let first = String(run.stderrLines.first ?? "")
            expect(first.hasPrefix("layerkit: "), "\(first)")
            for word in ["pink", "--debug-overlay", "blended", "offscreen", "misaligned"] {
                expect(first.contains(word), "\(command[0]): \(word) in \(first)")
            }
        }
        expect(!FileManager.default.fileExists(atPath: output), "nothing written")
    }

    /// The blue square blends over its 10x10 pixels; nothing is drawn offscreen.
    @Test func testBenchCountsBlendedPixelsAndOffscreenPasses() throws {
        let (_, path) = try scene()
        let run = try runLayerKit(["bench", path, "--backend", "cpu", "--frames", "2", "--warmup", "0", "--json"])
        expectEqual(run.status, 0, "\(run.stderr)")
        let report = try require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let counters = try require(report["counters"] as? [String: Double])
        expectEqual(counters["blended_pixels"], 100)
        expectEqual(counters["offscreen_passes"], 0)
    }
}
