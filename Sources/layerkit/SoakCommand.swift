import ArgumentParser
import Foundation
import LayerCompositor
import LayerKit

/// `layerkit soak SCENE --frames N`: draws a scene for many frames the way an app would (edit,
/// lay out, snapshot, composite, render) and samples resident memory and the backend's texture
/// count as it goes, so that a leak shows as growth between the first sample and the last.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Render a scene for many frames, sampling resident memory and GL texture count.",
        discussion: """
            Samples after the first frame, every --every frames and after the last: \
            "frame F: rss R MiB, textures T" (textures "-" on the CPU backend, which keeps none \
            it can count). The last line sums up: rss first and last sample, growth, and the \
            texture count's range over the samples.
            """)

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "cpu, gl, or auto.")
    var backend: Backend = .auto

    @Option(help: "Frames drawn.")
    var frames: Int = 10_000

    @Option(help: "Frames between samples.")
    var every: Int = 1000

    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Flag(help: "Change every layer's transform every frame, as bench --animate does.")
    var animate = false

    @Flag(help: "Print one JSON object with every sample instead of lines.")
    var json = false

    func validate() throws {
        guard frames > 0, frames <= 10_000_000 else { throw ValidationError("--frames must be 1...10000000") }
        guard every > 0 else { throw ValidationError("--every must be at least 1") }
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

    func run() throws {
        let loaded = try loadScene(scene)
        let canvas = try canvas(of: loaded, path: scene, scale: scale)
        let loop = FrameLoop(renderer: try backend.makeRenderer())
        loop.profiler.frameLimit = 1  // a soak runs for as long as asked: keep no history
        let renderer = loop.renderer
        let animator = animate ? Animator(loaded.root) : nil
        let source = LayerTreeSource(loaded.root)
        var samples: [Sample] = []
        let start = Date()
        for frame in 0..<frames {
            do {
                try loop.drawFrame(source, at: Double(frame) / 60, canvas: canvas, updatePhase: "animate",
                                   update: animator.map { animator in { animator.step(frame) } })
            } catch {
                throw CLIError.badInput("\(scene): frame \(frame): \(renderer.name) backend: \(error)")
            }
            let drawn = frame + 1
            if drawn == 1 || drawn % every == 0 || drawn == frames {
                let sample = Sample(frame: drawn, residentBytes: residentMemoryBytes(), textures: renderer.texturesHeld)
                samples.append(sample)
                if !json {
                    print("frame \(drawn): rss \(mebibytes(sample.residentBytes)) MiB, textures \(sample.textures.map(String.init) ?? "-")")
                }
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let first = samples.first!, last = samples.last!
        let textures = samples.compactMap(\.textures)
        if json {
            let object: [String: Any] = [
                "scene": scene, "backend": renderer.name, "frames": frames, "animate": animate, "seconds": seconds,
                "samples": samples.map { s -> [String: Any] in
                    ["frame": s.frame, "rss_bytes": s.residentBytes, "textures": s.textures.map { $0 as Any } ?? NSNull()]
                },
            ]
            print(String(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!)
        } else {
            let growth = last.residentBytes - first.residentBytes
            let range = textures.isEmpty ? "-" : "\(textures.min()!)...\(textures.max()!)"
            print("\(scene) on \(renderer.name): \(frames) frames in \(String(format: "%.1f", seconds)) s; "
                  + "rss \(mebibytes(first.residentBytes)) -> \(mebibytes(last.residentBytes)) MiB "
                  + "(\(growth >= 0 ? "+" : "")\(mebibytes(growth)) MiB); textures \(range)")
        }
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
