import Foundation
import LayerKitCore
import XCTest

/// Scenes that are valid but extreme, rendered by the `layerkit` executable in a child process
/// under a memory limit, so that unbounded memory fails the test instead of the machine.
final class ExtremeSceneTests: XCTestCase {
    /// Address space the child may map: 1 GiB. llvmpipe's context alone maps about 600 MiB
    /// (it cannot start under 512 MiB), so this is the tightest round limit both backends
    /// start under; the 50-level scene reached 11 GB before offscreen passes were
    /// bounded (resident memory is now about 30 MB on the CPU and 110 MB on GL).
    static let addressSpaceKiB = 1 << 20

    /// Runs `layerkit ARGS` under `ulimit -v`.
    private func runLimited(_ arguments: [String]) throws -> CLIRun {
        let quoted = ([layerkitExecutable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let outputs = try temporaryDirectory(for: self)
        let (out, err) = (outputs.appendingPathComponent("stdout"), outputs.appendingPathComponent("stderr"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v \(Self.addressSpaceKiB) && exec " + quoted.joined(separator: " ")]
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let start = Date()
        try process.run()
        // A hang is a failure too: ten minutes is far beyond a debug build's half a minute.
        while process.isRunning && Date().timeIntervalSince(start) < 600 { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                      stderr: try String(contentsOf: err, encoding: .utf8), seconds: Date().timeIntervalSince(start))
    }

    /// 50 levels of group opacity, shadow and mask (`BenchmarkScene.nested`), on both backends.
    func testFiftyNestedOffscreenLevelsRenderWithinTheMemoryLimit() throws {
        let dir = try temporaryDirectory(for: self)
        let scene = dir.appendingPathComponent("nested-50.json")
        try BenchmarkScene.nested.make(count: 50).jsonData().write(to: scene)
        for backend in ["cpu", "gl"] {
            let png = dir.appendingPathComponent("\(backend).png")
            let run = try runLimited(["render", scene.path, "-o", png.path, "--backend", backend])
            XCTAssertEqual(run.status, 0, "\(backend): \(run.stderr)")
            let image = try Bitmap(contentsOfPNGFile: png.path)
            XCTAssertEqual([image.width, image.height], [200, 200])
            // The levels drew: the centre, inside every mask, is not the white background.
            let centre = (100 * 200 + 100) * 4
            XCTAssertLessThan(image.pixels[centre..<(centre + 3)].min()!, 245, "\(backend)")
        }
    }
}
