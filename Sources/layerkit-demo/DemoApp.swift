import ArgumentParser
import Foundation
import LayerKitCore
import LayerKitScene

/// Why the demo refused to start: bad arguments or input files (exit code 2, as `layerkit`).
enum DemoError: Error, CustomStringConvertible {
    /// A one-line explanation.
    case badInput(String)

    /// The explanation.
    var description: String {
        switch self { case .badInput(let s): return s }
    }
}

/// `layerkit-demo`: the book's examples, live, in a window drawn by the GL backend.
///
/// With no arguments it opens the gallery (live pages, then every scene of `Examples/seeds`);
/// with scene files it shows those. `--frames`/`--screenshot` draw a few frames, save the last
/// and exit, for tests and docs. Exit codes: 0 success, 1 a failure while running, 2 bad input
/// or no display.
@main
struct DemoApp: ParsableCommand {
    /// Name, summary and discussion, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "layerkit-demo",
        abstract: "The book's Core Animation examples, live, in a window drawn with LayerKit's GL backend.",
        discussion: "Keys: ←/→ or PgUp/PgDn pages, click hit-tests, h HUD, ? keys, s screenshot, "
            + "b/o/i debug overlays (blended, offscreen, misaligned), f flash updated regions, Esc quits. "
            + "Needs a display; without one, run it under `xvfb-run -a` or render scenes with `layerkit render`.")

    @Argument(help: "Scene files to show as pages (default: the gallery).")
    var scenes: [String] = []

    @Option(help: "The Examples folder (default: found above the executable).")
    var examples: String?

    @Option(help: "The page to start on: its number (from 1) or id, e.g. clock or 5.9-cube-corner.")
    var page: String?

    @Option(parsing: .unconditional, help: "Draw this many frames, then exit (prints a one-line summary).")
    var frames: Int?

    @Option(help: "Draw the frames (default 2), save the last as a PNG, then exit.")
    var screenshot: String?

    @Option(help: "Window size in screen coordinates, WxH (default: the page's canvas in pixels at --scale with --frames/--screenshot, else 1000x660).")
    var size: String?

    @Option(parsing: .unconditional, help: "Pixels per point (default: the window's content scale).")
    var scale: Double?

    @Option(parsing: .unconditional, help: "Freeze animation time at T seconds (the clock reads T as seconds since midnight).")
    var time: Double?

    @Flag(inversion: .prefixedNo, help: "Show the HUD (default: on, off with --frames/--screenshot).")
    var hud: Bool?

    /// Checks the options' ranges before anything opens.
    func validate() throws {
        if let frames, !(1...100_000).contains(frames) { throw ValidationError("--frames must be 1...100000") }
        if let scale, !(scale > 0 && scale <= 8) { throw ValidationError("--scale must be in (0, 8]") }
        if let time, !(time.isFinite && time >= 0) { throw ValidationError("--time must be a number of seconds ≥ 0") }
        if let size, Self.parseSize(size) == nil { throw ValidationError("--size must be WxH, e.g. 800x640 (each 16...8192)") }
    }

    /// `WxH` with each side 16…8192.
    static func parseSize(_ s: String) -> (width: Int, height: Int)? {
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...8192).contains(w), (16...8192).contains(h) else { return nil }
        return (w, h)
    }

    /// Builds the pages, opens the window and runs the demo (or the scripted frames).
    func run() throws {
        let pages: [Page]
        if scenes.isEmpty {
            let found = try examples.map { try Examples(directory: URL(fileURLWithPath: $0)) } ?? Examples.locate()
            pages = try Gallery.pages(examples: found)
        } else {
            pages = try Gallery.pages(scenes: scenes)
        }
        let start = try page.map { try Gallery.index(of: $0, in: pages) } ?? 0
        let scripted = frames != nil || screenshot != nil
        let canvas = pages[start].canvas
        // Scripted, the window is the page's canvas in pixels at --scale (or 1): a screenshot is
        // the scene's render at that scale, all of it.
        let pixelsPerPoint = CGFloat(scale ?? 1)
        let windowSize = size.flatMap(Self.parseSize)
            ?? (scripted ? (Int((canvas.width * pixelsPerPoint).rounded(.up)), Int((canvas.height * pixelsPerPoint).rounded(.up)))
                         : (1000, 660))

        let window = try Window(width: windowSize.width, height: windowSize.height, title: "LayerKit demo")
        let demo = try Demo(window: window, pages: pages, pageIndex: start,
                            options: Demo.Options(clock: DemoClock(frozen: time), scale: scale, hud: hud ?? !scripted,
                                                  captions: !scripted))
        guard scripted else { return try demo.run() }
        let pixels = try demo.runScripted(frames: frames ?? 2, readBack: screenshot != nil)
        if let screenshot {
            guard let pixels else { throw DemoError.badInput("--screenshot: the window has no pixels (minimised?)") }
            do { try pixels.writePNG(to: screenshot) } catch { throw DemoError.badInput("\(error)") }
        }
        if frames != nil { print(demo.summary) }
    }

    /// Runs the command line: bad input, usage errors and a missing display exit with 2 and one
    /// line on standard error; failures while running exit with 1.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as DemoError {
            fail(error, code: 2)
        } catch let error as WindowError {
            fail(error, code: 2)
        } catch {
            if exitCode(for: error) == .validationFailure {
                // Like every other error, `layerkit-demo: …` (argument-parser writes "Error: ").
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message = "layerkit-demo: " + message.dropFirst("Error: ".count) }
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            if exitCode(for: error) == .success || error is CleanExit { exit(withError: error) }
            fail(error, code: 1)
        }
    }

    /// Writes `layerkit-demo: ERROR` and exits with `code`.
    private static func fail(_ error: Error, code: Int32) -> Never {
        FileHandle.standardError.write(Data("layerkit-demo: \(error)\n".utf8))
        Foundation.exit(code)
    }
}
