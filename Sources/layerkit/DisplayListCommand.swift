import ArgumentParser
import Foundation
import LayerCompositor
import LayerKitScene

/// `layerkit displaylist SCENE`: prints what the compositor decided.
struct DisplayListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "displaylist",
        abstract: "Print a scene's display list: passes, quads, matrices, clips.")

    @Argument(help: "The scene file.")
    var scene: String

    @Option(parsing: .unconditional, help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Option(help: "Add a debug overlay's tint quads, as `render --debug-overlay` draws them: blended, offscreen or misaligned.")
    var debugOverlay: DebugOverlay?

    func run() throws {
        var list = try displayList(for: try loadScene(scene, use: .cpuDrawing), path: scene, scale: scale)
        if let debugOverlay { list = list.withDebugOverlay(debugOverlay) }
        print(list.dump(), terminator: "")
    }
}
