import ArgumentParser
import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene

/// `layerkit render SCENE -o OUT.png`: draws a scene file to a PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file to a PNG image.")

    @Argument(help: "The scene file (JSON, format layerkit-scene 1).")
    var scene: String

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @Option(parsing: .unconditional, help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Option(help: "cpu, gl, or auto (GL, falling back to the CPU when no GL context can be made).")
    var backend: Backend = .auto

    @Option(help: "The scene time in seconds to draw the presentation tree at (default: the scene's \"time\", else 0).")
    var time: Double?

    @Option(help: "Tint the frame as Instruments' Core Animation options do: blended (green opaque, red blended), offscreen (yellow), misaligned (magenta offset, yellow scaled images).")
    var debugOverlay: DebugOverlay?

    func run() throws {
        try checkOutputPath(output, option: "-o")
        if let time, !time.isFinite { throw CLIError.badInput("--time: expected a finite number of seconds, found \(time)") }
        var list = try displayList(for: try loadScene(scene, use: backend.memoryUse), path: scene, scale: scale, time: time)
        if let debugOverlay { list = list.withDebugOverlay(debugOverlay) }
        let renderer = try backend.makeRenderer()
        let bitmap: Bitmap
        // A backend failing mid-frame (a GL error, naming its call) is reported like bad input:
        // one line, exit 2, never a crash.
        do {
            bitmap = try renderer.render(list, profiler: nil)
        } catch {
            throw CLIError.badInput("\(scene): \(renderer.name) backend: \(error)")
        }
        let png: [UInt8]
        do { png = try bitmap.pngData() } catch { throw CLIError.badInput("\(error)") }
        try writeOutput(png, to: output, option: "-o")
    }
}

/// `--debug-overlay blended|offscreen|misaligned`; another value is a usage error (exit 2)
/// listing the three.
extension DebugOverlay: ExpressibleByArgument {}
