import ArgumentParser
import Foundation
import LayerCompositor
import LayerKitCore

/// `layerkit record SCENE -o OUTDIR`: plays a scene's timeline and writes every frame as a PNG
/// and the whole as one animated PNG (and an MP4 through ffmpeg with `--video`).
struct RecordCommand: ParsableCommand {
    /// The verb, its summary and what it writes, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Play a scene's timeline and write its frames as PNGs and one animated PNG.",
        discussion: """
            Draws N = ceil(duration × fps) frames at scene times 0, 1/fps, …, (N−1)/fps (the end \
            is exclusive: a loop of the duration plays seamlessly) and writes OUTDIR/frame-0000.png \
            … and OUTDIR/animation.png, an animated PNG showing each frame for 1/fps s and \
            repeating forever. With --video, also OUTDIR/animation.mp4 through ffmpeg (which must \
            be on PATH). Exits with 2 on bad input.
            """)

    /// The most frames one recording may have.
    static let maximumFrames = 100_000
    /// The frame rates an animated PNG's frame delay can hold.
    static let fpsRange = 0.02...1000.0

    @Argument(help: "The scene file (JSON, format layerkit-scene 1).")
    var scene: String

    @Option(name: .shortAndLong, help: "The directory to write the frames into (created when missing).")
    var output: String

    @Option(parsing: .unconditional, help: "Seconds to play (default: the scene's timeline duration).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Frames per second (default: the scene's timeline fps, else 60).")
    var fps: Double?

    @Option(parsing: .unconditional, help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Option(help: "cpu, gl, or auto (GL, falling back to the CPU when no GL context can be made).")
    var backend: Backend = .auto

    @Flag(help: "Also write OUTDIR/animation.mp4 with ffmpeg (H.264); an error when ffmpeg is not on PATH.")
    var video = false

    func run() throws {
        try checkOutputDirectory(output, option: "-o")
        if let duration, !(duration >= 0 && duration.isFinite) {
            throw CLIError.badInput("--duration: expected a finite number of seconds ≥ 0, found \(duration)")
        }
        if let fps, !Self.fpsRange.contains(fps) {
            throw CLIError.badInput("--fps: expected \(shortestDecimal(Self.fpsRange.lowerBound))...\(shortestDecimal(Self.fpsRange.upperBound)) frames per second, found \(fps)")
        }
        let ffmpeg = video ? try findFFmpeg() : nil
        let loaded = try loadScene(scene)
        let canvas = try canvas(of: loaded, path: scene, scale: scale)
        guard let duration = duration ?? loaded.timeline?.duration else {
            throw CLIError.badInput("\(scene): no timeline in the scene; give --duration (and --fps)")
        }
        let fps = fps ?? loaded.timeline?.fps ?? 60
        guard Self.fpsRange.contains(fps) else {
            throw CLIError.badInput("\(scene): timeline.fps \(shortestDecimal(fps)) is outside \(shortestDecimal(Self.fpsRange.lowerBound))...\(shortestDecimal(Self.fpsRange.upperBound)), which an animated PNG can show; give --fps")
        }
        let count = Self.frameCount(duration: duration, fps: fps)
        guard count <= Self.maximumFrames else {
            throw CLIError.badInput("\(scene): \(shortestDecimal(duration)) s at \(shortestDecimal(fps)) fps is \(count) frames; at most \(Self.maximumFrames)")
        }

        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let digits = max(4, String(count - 1).count)
        let animationPath = (output as NSString).appendingPathComponent("animation.png")
        let loop = FrameLoop(renderer: try backend.makeRenderer())
        loop.profiler.frameLimit = 1  // a recording keeps no history
        let source = PresentationTreeSource(loaded.root)
        let progress = ProgressBar(total: count)
        defer { progress?.finish() }  // an error then starts on a line of its own
        do {
            let apng = try AnimatedPNGWriter(path: animationPath, frameCount: count, delay: Self.frameDelay(fps: fps))
            for i in 0..<count {
                let frame: FrameLoop.Frame
                do {
                    frame = try loop.drawFrame(source, at: Double(i) / fps, canvas: canvas)
                } catch {
                    throw CLIError.badInput("\(scene): frame \(i): \(loop.renderer.name) backend: \(error)")
                }
                let png = try frame.pixels.pngData()
                let name = "frame-" + String(repeating: "0", count: max(0, digits - String(i).count)) + String(i) + ".png"
                try Data(png).write(to: URL(fileURLWithPath: (output as NSString).appendingPathComponent(name)))
                try apng.append(png: png)
                progress?.update(i + 1)
            }
            try apng.finish()
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.badInput("\(error)")
        }
        if let ffmpeg { try encodeVideo(ffmpeg: ffmpeg, fps: fps, digits: digits) }
    }

    /// Frames in `duration` seconds at `fps`: ceil(duration × fps), at least 1 (a duration of 0
    /// records the still at time 0). The product is rounded to 1e-9 first, so 0.3 s at 10 fps
    /// (2.9999999999999996) is 3 frames, not 4.
    static func frameCount(duration: Double, fps: Double) -> Int {
        let product = duration * fps
        guard product < Double(maximumFrames + 1) else { return maximumFrames + 1 }
        return max(1, Int(((product * 1e9).rounded() / 1e9).rounded(.up)))
    }

    /// An animated PNG's frame delay for `fps`: exactly 1/fps for a whole fps, else the nearest
    /// millisecond.
    static func frameDelay(fps: Double) -> (numerator: UInt16, denominator: UInt16) {
        if fps == fps.rounded() { return (1, UInt16(fps)) }
        return (UInt16(min(65535, (1000 / fps).rounded())), 1000)
    }

    private func findFFmpeg() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = (String(dir) as NSString).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CLIError.badInput("--video needs ffmpeg, and there is none on PATH; install it (apt-get install ffmpeg) or leave out --video for the PNG frames and animation.png")
    }

    private func encodeVideo(ffmpeg: String, fps: Double, digits: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        // yuv420p (what players expect) needs even sides: pad by a pixel where odd.
        process.arguments = ["-y", "-loglevel", "error", "-framerate", shortestDecimal(fps),
                             "-i", (output as NSString).appendingPathComponent("frame-%0\(digits)d.png"),
                             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                             (output as NSString).appendingPathComponent("animation.mp4")]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError.badInput("ffmpeg exited with \(process.terminationStatus) making \(output)/animation.mp4 (its message is above)")
        }
    }
}

/// A one-line progress bar on standard error, drawn only when standard error is a terminal
/// (so logs and pipes get no carriage returns).
struct ProgressBar {
    let total: Int

    /// A bar for `total` steps, or `nil` when standard error is not a terminal.
    init?(total: Int) {
        guard isatty(STDERR_FILENO) != 0 else { return nil }
        self.total = total
    }

    func update(_ done: Int) {
        let width = 30, filled = done * width / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\rrecording [\(bar)] \(done)/\(total)".utf8))
    }

    func finish() { FileHandle.standardError.write(Data("\n".utf8)) }
}
