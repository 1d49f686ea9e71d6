import ArgumentParser
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene

/// `layerkit record SCENE -o OUTDIR`: plays a scene's timeline and writes every frame as a PNG
/// and the whole as one animated PNG (and an MP4 through ffmpeg with `--video`).
struct RecordCommand: ParsableCommand {
    /// The verb, its summary and what it writes, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Play a scene's timeline and write its frames as PNGs and one animated PNG.",
        discussion: """
            Draws N = ceil(duration × fps) frames at scene times 0, 1/fps, …, (N−1)/fps (the end \
            is exclusive: a loop of the duration plays seamlessly; N = 0 is an error, nothing to \
            record) and writes OUTDIR/frame-0000.png … and OUTDIR/animation.png, an animated PNG \
            showing each frame for 1/fps s and repeating forever. With --video, also \
            OUTDIR/animation.mp4 through ffmpeg (which must be on PATH). Before drawing, the \
            output is estimated (N × pixels × 4 bytes, twice: the frames and the animated PNG, \
            uncompressed) and refused over --max-bytes. Everything is written into a hidden \
            folder OUTDIR/.layerkit-record-… and moved into OUTDIR only when all of it is \
            written: a recording that fails leaves nothing behind. OUTDIR must be empty or \
            missing, unless --overwrite. With --frames A..B, draws only frames A through B, \
            numbered and named as in the whole recording and byte-identical to its frames, so \
            that slices drawn by separate jobs (on any machines) together make the whole; a \
            slice writes no animated PNG or video, may share OUTDIR with other slices, and \
            checks only its own frames' names. While drawing, a progress line on standard \
            error when it is a terminal (not with --quiet). Exits with 2 on bad input.
            """)

    @Argument(help: "The scene file (JSON, format layerkit-scene 1).")
    var scene: String

    @Option(name: .shortAndLong, help: "The directory to write the frames into (created when missing; must be empty unless --overwrite).")
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

    @Option(name: .customLong("max-bytes"), help: "The most bytes the recording may write, as estimated before drawing (frames × pixels × 4, twice, uncompressed): a whole number, optionally with K, M, G or T (binary units).")
    var maxBytes: ByteCount = ByteCount(RecordingPlan.defaultMaximumBytes)

    @Option(help: "Draw only frames A..B (both included, numbered from 0 as in the whole recording); a slice past the last frame is cut there.")
    var frames: String?

    @Flag(help: "No progress line on standard error.")
    var quiet = false

    @Flag(help: "Record into a non-empty OUTDIR: first remove the files a recording writes there (frame-NNNN.png, animation.png, animation.mp4) and what an interrupted recording left (.layerkit-record-…), and nothing else.")
    var overwrite = false

    /// The names of the frame files: "frame-" and at least four digits.
    static func frameName(_ i: Int, digits: Int) -> String {
        "frame-" + String(repeating: "0", count: max(0, digits - String(i).count)) + String(i) + ".png"
    }

    func run() throws {
        try checkOutputDirectory(output, option: "-o")
        let slice: ClosedRange<Int>?
        do {
            try RecordingPlan.checkArguments(duration: duration, fps: fps)
            slice = try frames.map { s throws(RecordingError) in try RecordingPlan.parseSlice(s) }
        } catch { throw CLIError.badInput(error.description) }
        if slice != nil, video {
            throw CLIError.badInput("--video needs the whole recording, not a slice (--frames); encode the slices' frames with ffmpeg (docs/command-line.md)")
        }
        let ffmpeg = video ? try findFFmpeg() : nil
        let loaded = try loadScene(scene, use: backend.memoryUse)
        let canvas = try canvas(of: loaded, path: scene, scale: scale)
        let plan: RecordingPlan
        do {
            plan = try RecordingPlan(duration: duration, fps: fps, timeline: loaded.timeline, pixelWidth: canvas.pixelWidth,
                                     pixelHeight: canvas.pixelHeight, maximumBytes: maxBytes.value, scene: scene, slice: slice)
        } catch { throw CLIError.badInput(error.description) }

        let digits = max(4, String(plan.frameCount - 1).count)
        let folder = try RecordingFolder(path: output, overwrite: overwrite,
                                         sliceNames: plan.isSlice ? plan.frames.map { Self.frameName($0, digits: digits) } : nil)
        do {
            var names = try drawFrames(loaded, canvas: canvas, plan: plan, digits: digits, into: folder)
            if let ffmpeg {
                try encodeVideo(ffmpeg: ffmpeg, fps: plan.fps, digits: digits, in: folder.staging)
                names.append("animation.mp4")
            }
            try folder.publish(names)
        } catch {
            folder.abandon()
            throw error
        }
    }

    /// Draws the plan's frames into `folder`'s staging directory, each frame a PNG and, for the
    /// whole recording, a frame of the animated PNG; returns the names written. Each frame is
    /// drawn from the scene at its time alone, so a slice's frames are the whole's.
    private func drawFrames(_ scene: Scene, canvas: Canvas, plan: RecordingPlan, digits: Int, into folder: RecordingFolder) throws -> [String] {
        let loop = FrameLoop(renderer: try backend.makeRenderer())
        loop.profiler.frameLimit = 1  // a recording keeps no history
        let source = PresentationTreeSource(scene.root)
        let progress = ProgressLine("recording", total: plan.frames.count, unit: "frames", quiet: quiet)
        defer { progress?.clear() }  // an error then starts on a clean line
        var names: [String] = []
        do {
            let apng = plan.isSlice ? nil
                : try AnimatedPNGWriter(path: folder.staged("animation.png"), frameCount: plan.frameCount, delay: plan.frameDelay)
            for i in plan.frames {
                let frame: FrameLoop.Frame
                do {
                    frame = try loop.drawFrame(source, at: plan.time(ofFrame: i), canvas: canvas)
                } catch {
                    throw CLIError.badInput("\(self.scene): frame \(i): \(loop.renderer.name) backend: \(error)")
                }
                let png = try frame.pixels.pngData()
                let name = Self.frameName(i, digits: digits)
                // Named by the folder the user gave, not by the staging folder.
                do { try writeOutputFile(png, to: folder.staged(name)) } catch { throw CLIError.badInput("cannot write -o \(output): \(error.reason)") }
                names.append(name)
                try apng?.append(png: png)
                progress?.update(i + 1 - plan.frames.lowerBound)
            }
            try apng?.finish()
        } catch let error as CLIError {
            throw error
        } catch let ImageError.cannotEncode(_, reason) {
            throw CLIError.badInput("cannot write -o \(output): \(reason)")
        } catch {
            throw CLIError.badInput("\(error)")
        }
        return plan.isSlice ? names : names + ["animation.png"]
    }

    private func findFFmpeg() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = (String(dir) as NSString).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CLIError.badInput("--video needs ffmpeg, and there is none on PATH; install it (apt-get install ffmpeg) or leave out --video for the PNG frames and animation.png")
    }

    private func encodeVideo(ffmpeg: String, fps: Double, digits: Int, in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        // yuv420p (what players expect) needs even sides: pad by a pixel where odd.
        process.arguments = ["-y", "-loglevel", "error", "-framerate", shortestDecimal(fps),
                             "-i", (folder as NSString).appendingPathComponent("frame-%0\(digits)d.png"),
                             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                             (folder as NSString).appendingPathComponent("animation.mp4")]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError.badInput("ffmpeg exited with \(process.terminationStatus) making \(output)/animation.mp4 (its message is above)")
        }
    }
}
