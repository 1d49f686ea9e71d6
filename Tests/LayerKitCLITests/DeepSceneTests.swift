import Foundation
import LayerKitCore
import LayerKitScene
import Testing

/// A scene as deep as the documented limit (1000 levels, which `validate` accepts) renders on
/// both backends, dumps its display list and hit-tests, in a subprocess with the main thread's
/// usual 8 MB stack; one level more is refused the same way by every command. (The compositor
/// recursed once per level and overflowed that stack near 835 levels.)
@Suite struct DeepSceneTests {
    private let temporary = TemporaryDirectories()

    /// `depth` nested 100x100 layers; the deepest, named "deepest", is opaque green.
    private func deepScene(_ depth: Int, in dir: URL) throws -> String {
        var layer = ##"{"name": "deepest", "bounds": [0, 0, 100, 100], "position": [50, 50], "backgroundColor": "#00FF00"}"##
        for _ in 1..<depth {
            layer = #"{"bounds": [0, 0, 100, 100], "position": [50, 50], "sublayers": [\#(layer)]}"#
        }
        let text = #"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 100, "height": 100}, "root": \#(layer)}"#
        let path = dir.appendingPathComponent("deep-\(depth).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func testEveryCommandHandlesASceneAtTheDepthLimit() throws {
        let dir = try temporary.directory()
        let scene = try deepScene(Scene.maximumDepth, in: dir)
        let validate = try runLayerKit(["validate", scene])
        expectEqual(validate.status, 0, "\(validate.stderr)")
        expect(validate.stdout.contains("1000 layers, depth 1000"), "\(validate.stdout)")
        for backend in ["cpu", "gl"] {
            let out = dir.appendingPathComponent("\(backend).png").path
            let render = try runLayerKit(["render", scene, "-o", out, "--backend", backend])
            expectEqual(render.status, 0, "\(backend): \(render.stderr)")
            let image = try Bitmap(contentsOfPNGFile: out)
            expectEqual(image[50, 50].g, 255, "\(backend): the deepest layer is drawn")
            expectEqual(image[0, 99].a, 255, "\(backend): over the whole canvas")
        }
        let dump = try runLayerKit(["displaylist", scene])
        expectEqual(dump.status, 0, "\(dump.stderr)")
        expect(dump.stdout.contains("deepest"), "the deepest layer's quad is listed")
        let hit = try runLayerKit(["hit", scene, "50", "50"])
        expectEqual(hit.status, 0, "\(hit.stderr)")
        expectEqual(hit.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "deepest")
    }

    @Test func testOneLevelPastTheLimitIsRefusedByEveryCommand() throws {
        let dir = try temporary.directory()
        let scene = try deepScene(Scene.maximumDepth + 1, in: dir)
        let commands = [["validate", scene], ["render", scene, "-o", dir.appendingPathComponent("cpu.png").path, "--backend", "cpu"],
                        ["render", scene, "-o", dir.appendingPathComponent("gl.png").path, "--backend", "gl"],
                        ["displaylist", scene], ["hit", scene, "50", "50"]]
        for arguments in commands {
            let run = try runLayerKit(arguments)
            expectEqual(run.status, 2, "\(arguments[0]): \(run.stderr)")
            expectEqual(run.stderrLines.count, 1, "\(arguments[0]): \(run.stderr)")
            expect(run.stderr.contains("layers nest more than 1000 deep"), "\(arguments[0]): \(run.stderr)")
        }
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("cpu.png").path))
    }
}
