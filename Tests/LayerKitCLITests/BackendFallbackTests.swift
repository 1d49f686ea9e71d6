import Foundation
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// `--backend` without a GL driver: `auto` warns in one line and renders on the CPU, `gl`
/// refuses in one line with exit code 2. glvnd's libEGL loads its vendor drivers from the JSON
/// files `__EGL_VENDOR_LIBRARY_FILENAMES` lists, so naming a file that does not exist leaves
/// EGL with no driver at all, as on a machine without Mesa.
final class BackendFallbackTests: XCTestCase {
    private let noDriver = ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"]
    private let scene = examplesDirectory.appendingPathComponent("seeds/5.1-rotate45.json").path

    func testAutoFallsBackToTheCPUWithOneWarning() throws {
        let output = try temporaryDirectory(for: self).appendingPathComponent("out.png")
        let run = try runLayerKit(["render", scene, "-o", output.path, "--backend", "auto"], environment: noDriver)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("layerkit: warning: no GL context ("), run.stderr)
        XCTAssertTrue(run.stderr.contains("using the CPU renderer"), run.stderr)
        let image = try Bitmap(contentsOfPNGFile: output.path)
        let expected = try Scene(contentsOfFile: scene).canvas
        XCTAssertEqual([image.width, image.height], [expected.pixelWidth, expected.pixelHeight])
    }

    func testGLWithoutADriverIsOneLineAndExitCode2() throws {
        let output = try temporaryDirectory(for: self).appendingPathComponent("out.png")
        let run = try runLayerKit(["render", scene, "-o", output.path, "--backend", "gl"], environment: noDriver)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("layerkit: cannot use the GL backend: no headless EGL display"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    /// With the driver there, `--backend gl` renders what the CPU renders, silently.
    func testGLRendersLikeTheCPU() throws {
        let dir = try temporaryDirectory(for: self)
        let (cpu, gl) = (dir.appendingPathComponent("cpu.png").path, dir.appendingPathComponent("gl.png").path)
        let cpuRun = try runLayerKit(["render", scene, "-o", cpu, "--backend", "cpu"])
        XCTAssertEqual(cpuRun.status, 0, cpuRun.stderr)
        let glRun = try runLayerKit(["render", scene, "-o", gl, "--backend", "gl"])
        XCTAssertEqual(glRun.status, 0, glRun.stderr)
        XCTAssertEqual(glRun.stderr, "")
        let d = BitmapDifference(try Bitmap(contentsOfPNGFile: cpu), try Bitmap(contentsOfPNGFile: gl), threshold: 2)
        XCTAssertLessThanOrEqual(d.fraction, 0.001, "\(d)")
    }
}
