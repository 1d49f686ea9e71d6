import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The windowed demo end to end: the built `layerkit-demo` opens a real GLFW window (under Xvfb
/// when there is no display), draws a page with the GL backend into the window's framebuffer
/// and saves it (`--screenshot`); each screenshot must match the CPU reference's render of the
/// same tree at the same size and scale within the GL equivalence budget. The HUD is off in
/// scripted runs, so the window shows only the page's canvas.
final class DemoWindowTests: WindowTestCase {
    /// A seed scene in a window of its canvas's size.
    func testSeedCubeMatchesReference() throws {
        try assertScreenshot(page: "5.9-cube-corner", matches: "5.9-cube-corner")
    }

    /// A seed scene with shadows, masks of offscreen passes and rounded corners.
    func testSeedShadowMatchesReference() throws {
        try assertScreenshot(page: "4.x-shadow", matches: "4.x-shadow")
    }

    /// HiDPI: at `--scale 2` an 800 x 800 pixel window holds the 400-point canvas at 2x.
    func testSeedAtScale2MatchesReference() throws {
        try assertScreenshot(page: "5.9-cube-corner", matches: "5.9-cube-corner", arguments: ["--scale", "2", "--size", "800x800"],
                             scale: 2)
    }

    /// A live page: the clock built in Swift, frozen at 10:08:42, is listing 3.1–3.2's tree,
    /// the very tree `3.x-clock.json` describes, so it must draw what the reference draws
    /// for that scene.
    /// `--scale 2` alone sizes the scripted window to the canvas in pixels at scale 2, so the
    /// screenshot is the whole scene at 2x (it was the canvas's size in points: a crop).
    func testScale2WithoutASizeIsTheWholeCanvas() throws {
        try assertScreenshot(page: "5.9-cube-corner", matches: "5.9-cube-corner", arguments: ["--scale", "2"], scale: 2)
    }

    func testLiveClockMatchesReference() throws {
        try assertScreenshot(page: "clock", matches: "3.x-clock", arguments: ["--time", "36522"])
    }

    /// An animation page: the frame is the presentation tree at the media time `--time` gives,
    /// where the page begins its animations (the ship at the path's start, turned to its
    /// tangent), as the CPU reference draws the page's tree sampled at that time.
    func testShipPageDrawsThePresentationTree() throws {
        let page = ShipPathPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        let reference = try CPURenderer().render(Compositor.displayList(root: page.root.snapshot(atTime: 100), width: 400, height: 400,
                                                                        scale: 1, background: page.canvas.background))
        try assertScreenshot(page: "8.7-ship-path", matches: reference, named: "ShipPathPage at 100", arguments: ["--time", "100"],
                             scale: 1, file: #filePath, line: #line)
    }

    /// Without a display the demo explains itself in one line, with the way out, and exits 2.
    func testNoDisplayIsOneLineAndExit2() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let shot = temporaryFile("no-display.png")
        let r = try runProcess(try demoBinary(), ["--page", "clock", "--screenshot", shot.path], environment: environment)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("layerkit-demo: no display"), r.stderr)
        XCTAssertTrue(r.stderr.contains("xvfb-run"), r.stderr)
        XCTAssertTrue(r.stderr.contains("layerkit render"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shot.path))
    }

    /// Bad input is refused before any window opens: exit 2, one line.
    func testUnknownPageIsExit2() throws {
        let r = try runProcess(try demoBinary(), ["--page", "no-such-page", "--frames", "1"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no such page"), r.stderr)
    }

    /// argument-parser's usage errors start with the demo's name too, and exit 2.
    func testUsageErrorsStartWithTheDemosName() throws {
        let r = try runProcess(try demoBinary(), ["--scale", "-1", "--frames", "1"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderrLines.first, "layerkit-demo: --scale must be in (0, 8]", r.stderr)
    }

    // MARK: - Helpers

    /// Runs the demo on `page` with `--screenshot` (plus `arguments`) and compares the PNG with
    /// the CPU reference's render of seed `scene` at `scale`.
    private func assertScreenshot(page: String, matches scene: String, arguments: [String] = [], scale: Double = 1,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let loaded = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/\(scene).json").path)
        let reference = try CPURenderer().render(Compositor.displayList(for: loaded, scale: scale))
        try assertScreenshot(page: page, matches: reference, named: scene, arguments: arguments, scale: scale, file: file, line: line)
    }

    /// Runs the demo on `page` with `--screenshot` (plus `arguments`) and compares the PNG with
    /// `reference` (called `scene` in messages).
    private func assertScreenshot(page: String, matches reference: Bitmap, named scene: String, arguments: [String], scale: Double,
                                  file: StaticString, line: UInt) throws {
        let shot = temporaryFile("\(page)@\(Int(scale))x.png")
        try? FileManager.default.removeItem(at: shot)
        let r = try runWithDisplay(["--page", page, "--frames", "3", "--screenshot", shot.path] + arguments)
        XCTAssertEqual(r.status, 0, "layerkit-demo failed: \(r.stderr)", file: file, line: line)
        guard r.status == 0 else { return }
        let window = try Bitmap(contentsOfPNGFile: shot.path)
        XCTAssertEqual(window.width, reference.width, "screenshot width", file: file, line: line)
        XCTAssertEqual(window.height, reference.height, "screenshot height", file: file, line: line)
        guard window.width == reference.width, window.height == reference.height else { return }
        let d = BitmapDifference(reference, window, threshold: GLBudget.standard.threshold)
        if d.fraction > GLBudget.standard.fraction {
            try reference.writePNG(to: temporaryFile("\(page)@\(Int(scale))x-reference.png").path)
            try d.heatmap().writePNG(to: temporaryFile("\(page)@\(Int(scale))x-heatmap.png").path)
        }
        XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(page) vs \(scene) at \(scale)x: \(d) (PNGs in \(artifacts.path))",
                                 file: file, line: line)
    }

    /// Where screenshots, references and heat maps are left for inspection.
    private let artifacts = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("layerkit-demo-tests")

    /// `name` in the artifacts folder (created on demand).
    private func temporaryFile(_ name: String) -> URL {
        try? FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        return artifacts.appendingPathComponent(name)
    }

    /// The `layerkit-demo` of this build (skips when it is missing).
    private func demoBinary() throws -> URL {
        let demo = builtExecutable("layerkit-demo")
        guard FileManager.default.isExecutableFile(atPath: demo.path) else {
            throw XCTSkip("no layerkit-demo at \(demo.path); build the package first")
        }
        return demo
    }

    /// Runs the demo on the class's display (`WindowTestCase`: the session's, else one Xvfb
    /// server for all of this class's runs, whose display number the server itself picks, so
    /// that suites running side by side never race for one as `xvfb-run -a` does).
    private func runWithDisplay(_ arguments: [String]) throws -> ProcessRun {
        try requireDisplay()
        return try runProcess(try demoBinary(), arguments)
    }
}
