import ArgumentParser
import CPURenderer
import Foundation
import LayerCompositor
import LayerKit

/// `layerkit render SCENE -o OUT.png`: draws a scene file to a PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file to a PNG image.")

    @Argument(help: "The scene file (JSON, format layerkit-scene 1).")
    var scene: String

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Option(help: "cpu, gl, or auto (GL, falling back to the CPU when no GL context can be made).")
    var backend: Backend = .auto

    func run() throws {
        if let scale, !(scale > 0 && scale.isFinite) {
            throw CLIError.badInput("--scale must be a positive number, got \(scale)")
        }
        let loaded = try loadScene(scene)
        let list = Compositor.displayList(for: loaded, scale: scale)
        try checkCanvasSize(list, scene: scene)
        let bitmap = try backend.makeRenderer().render(list)
        do { try bitmap.writePNG(to: output) } catch { throw CLIError.badInput("\(error)") }
    }
}
