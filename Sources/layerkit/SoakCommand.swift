import ArgumentParser
import Foundation
import LayerCompositor
import LayerKitCore

/// `layerkit soak SCENE --frames N`: draws a scene for many frames the way an app would (edit,
/// lay out, snapshot, composite, render) and samples resident memory and the backend's texture
/// count as it goes. A leak shows as growth after warm-up, and growth over the limits fails the
/// run with exit code 1.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Render a scene for many frames; fail (exit 1) when resident memory or the GL texture count grows after warm-up.",
        discussion: """
            Samples after the first frame, after the warm-up, every --every frames and after the \
            last: "frame F: rss R MiB, textures T" (textures "-" on the CPU backend, which keeps \
            none it can count). The last line sums up: rss at the first, warm-up and last \
            samples, growth since the warm-up, and the texture count's range. The check: from \
            the warm-up sample to the last, rss may grow by at most --max-rss-growth MiB and the \
            texture count by at most --max-texture-growth; otherwise one line on standard error \
            per limit broken and exit 1.
            """)

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "cpu, gl, or auto.")
    var backend: Backend = .auto

    @Option(parsing: .unconditional, help: "Frames drawn.")
    var frames: Int = 10_000

    @Option(parsing: .unconditional, help: "Frames between samples.")
    var every: Int = 1000

    @Option(parsing: .unconditional, help: "Frames drawn before the sample growth is measured from (caches, textures and allocator pools fill up first; default: a tenth of --frames; 0: before the first frame).")
    var warmup: Int?

    @Option(name: .customLong("max-rss-growth"), parsing: .unconditional, help: "Resident memory (MiB) the process may gain from the warm-up sample to the last.")
    var maxRSSGrowth: Double = 16

    @Option(name: .customLong("max-texture-growth"), parsing: .unconditional, help: "Textures the GL backend may gain from the warm-up sample to the last.")
    var maxTextureGrowth: Int = 0

    @Option(parsing: .unconditional, help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Flag(help: "Play the scene's own animations (frame n at n/60 s), or change every layer's transform every frame when it has none, as bench --animate does.")
    var animate = false

    @Flag(help: "No progress line on standard error (shown only when it is a terminal).")
    var quiet = false

    @Flag(help: "Print one JSON object with every sample and the check's result instead of lines.")
    var json = false

    func validate() throws {
        guard frames > 0, frames <= 10_000_000 else { throw ValidationError("--frames must be 1...10000000") }
        guard every > 0 else { throw ValidationError("--every must be at least 1") }
        if let warmup, !(0...frames).contains(warmup) { throw ValidationError("--warmup must be 0...--frames (\(frames))") }
        guard maxRSSGrowth >= 0, maxRSSGrowth.isFinite else { throw ValidationError("--max-rss-growth must be a number ≥ 0") }
        guard maxTextureGrowth >= 0 else { throw ValidationError("--max-texture-growth must be ≥ 0") }
    }

    /// One measurement between frames.
    struct Sample {
        /// Frames drawn so far.
        let frame: Int
        /// Resident set size in bytes.
        let residentBytes: Int
        /// The backend's texture count, when it has one.
        let textures: Int?
    }

    /// Frames drawn before the baseline sample.
    var warmupFrames: Int { warmup ?? max(frames / 10, 1) }

    func run() throws {
        let loaded = try loadScene(scene, use: backend.memoryUse)
        let canvas = try canvas(of: loaded, path: scene, scale: scale)
        let loop = FrameLoop(renderer: try backend.makeRenderer())
        loop.profiler.frameLimit = 1  // a soak runs for as long as asked: keep no history
        let renderer = loop.renderer
        let (source, animator) = frameSource(for: loaded, animate: animate)
        var samples: [Sample] = []
        let progress = ProgressLine("soaking", total: frames, unit: "frames", quiet: quiet)
        defer { progress?.clear() }
        func sample(_ drawn: Int) {
            let s = Sample(frame: drawn, residentBytes: residentMemoryBytes(), textures: renderer.texturesHeld)
            samples.append(s)
            if !json {
                progress?.clear()
                print("frame \(drawn): rss \(mebibytes(s.residentBytes)) MiB, textures \(s.textures.map(String.init) ?? "-")")
            }
        }
        if warmupFrames == 0 { sample(0) }
        let start = Date()
        for frame in 0..<frames {
            do {
                try loop.drawFrame(source, at: Double(frame) / 60, canvas: canvas, updatePhase: "animate",
                                   update: animator.map { animator in { animator.step(frame) } })
            } catch {
                throw CLIError.badInput("\(scene): frame \(frame): \(renderer.name) backend: \(error)")
            }
            let drawn = frame + 1
            progress?.update(drawn, detail: "rss \(mebibytes(samples.last?.residentBytes ?? 0)) MiB")
            if drawn == 1 || drawn == warmupFrames || drawn % every == 0 || drawn == frames { sample(drawn) }
        }
        progress?.clear()
        let seconds = Date().timeIntervalSince(start)
        let (first, last) = (samples.first!, samples.last!)
        let base = samples.first { $0.frame == warmupFrames }!
        let rssGrowth = last.residentBytes - base.residentBytes
        let textureGrowth = last.textures.flatMap { l in base.textures.map { l - $0 } }
        var failures: [String] = []
        if Double(rssGrowth) > maxRSSGrowth * 1_048_576 {
            failures.append("rss grew by \(mebibytes(rssGrowth)) MiB from frame \(base.frame) to frame \(last.frame); "
                            + "at most \(maxRSSGrowth) MiB allowed (--max-rss-growth)")
        }
        if let textureGrowth, textureGrowth > maxTextureGrowth {
            failures.append("the GL backend holds \(textureGrowth) more textures at frame \(last.frame) than at frame \(base.frame); "
                            + "at most \(maxTextureGrowth) allowed (--max-texture-growth)")
        }
        let textures = samples.compactMap(\.textures)
        if json {
            let object: [String: Any] = [
                "scene": scene, "backend": renderer.name, "frames": frames, "animate": animate, "seconds": seconds,
                "warmup": warmupFrames, "rss_growth_bytes": rssGrowth, "texture_growth": textureGrowth.map { $0 as Any } ?? NSNull(),
                "max_rss_growth_mib": maxRSSGrowth, "max_texture_growth": maxTextureGrowth, "failures": failures,
                "samples": samples.map { s -> [String: Any] in
                    ["frame": s.frame, "rss_bytes": s.residentBytes, "textures": s.textures.map { $0 as Any } ?? NSNull()]
                },
            ]
            print(String(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!)
        } else {
            let range = textures.isEmpty ? "-" : "\(textures.min()!)...\(textures.max()!)"
            print("\(scene) on \(renderer.name): \(counted(frames, "frame")) in \(String(format: "%.1f", seconds)) s; "
                  + "rss \(mebibytes(first.residentBytes)) -> \(mebibytes(base.residentBytes)) (frame \(base.frame)) -> "
                  + "\(mebibytes(last.residentBytes)) MiB (\(rssGrowth >= 0 ? "+" : "")\(mebibytes(rssGrowth)) MiB after warm-up); "
                  + "textures \(range)")
        }
        for failure in failures { FileHandle.standardError.write(Data("layerkit: soak: \(scene): \(failure)\n".utf8)) }
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

/// The process's resident set size in bytes, from /proc/self/statm (0 where there is none).
func residentMemoryBytes() -> Int {
    // statm: size resident shared text lib data dt, in pages.
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * sysconf(Int32(_SC_PAGESIZE))
}

private func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
