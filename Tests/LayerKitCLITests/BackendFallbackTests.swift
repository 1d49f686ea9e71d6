import Foundation
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import Testing

/// `--backend` without a GL driver: `auto` warns in one line and renders on the CPU, `gl`
/// refuses in one line with exit code 2. glvnd's libEGL loads its vendor drivers from the JSON
/// files `__EGL_VENDOR_LIBRARY_FILENAMES` lists, so naming a file that does not exist leaves
/// EGL with no driver at all, as on a machine without Mesa.
@Suite struct BackendFallbackTests {
    private let temporary = TemporaryDirectories()
    private let noDriver = ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"]
    private let scene = examplesDirectory.appendingPathComponent("seeds/5.1-rotate45.json").path

    @Test func testAutoFallsBackToTheCPUWithOneWarning() throws {
        let output = try temporary.directory().appendingPathComponent("out.png")
        let run = try runLayerKit(["render", scene, "-o", output.path, "--backend", "auto"], environment: noDriver)
        expectEqual(run.status, 0, "\(run.stderr)")
        expectEqual(run.stderrLines.count, 1, "\(run.stderr)")
        expect(run.stderr.hasPrefix("layerkit: warning: no GL context ("), "\(run.stderr)")
        expect(run.stderr.contains("using the CPU renderer"), "\(run.stderr)")
        let image = try Bitmap(contentsOfPNGFile: output.path)
        let expected = try Scene(contentsOfFile: scene).canvas
        expectEqual([image.width, image.height] as [Int], [expected.pixelWidth, expected.pixelHeight])
    }

    @Test func testGLWithoutADriverIsOneLineAndExitCode2() throws {
        let output = try temporary.directory().appendingPathComponent("out.png")
        let run = try runLayerKit(["render", scene, "-o", output.path, "--backend", "gl"], environment: noDriver)
        expectEqual(run.status, 2, "\(run.stderr)")
        expectEqual(run.stderrLines.count, 1, "\(run.stderr)")
        expect(run.stderr.hasPrefix("layerkit: cannot use the GL backend: no headless EGL display"), "\(run.stderr)")
        expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// With the driver there, `--backend gl` renders what the CPU renders, silently.
    @Test func testGLRendersLikeTheCPU() throws {
        let dir = try temporary.directory()
        let (cpu, gl) = (dir.appendingPathComponent("cpu.png").path, dir.appendingPathComponent("gl.png").path)
        let cpuRun = try runLayerKit(["render", scene, "-o", cpu, "--backend", "cpu"])
        expectEqual(cpuRun.status, 0, "\(cpuRun.stderr)")
        let glRun = try runLayerKit(["render", scene, "-o", gl, "--backend", "gl"])
        expectEqual(glRun.status, 0, "\(glRun.stderr)")
        expectEqual(glRun.stderr, "")
        let d = BitmapDifference(try Bitmap(contentsOfPNGFile: cpu), try Bitmap(contentsOfPNGFile: gl), threshold: 2)
        expect(d.fraction <= 0.001, "\(d)")
    }
}
