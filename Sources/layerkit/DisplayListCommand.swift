import ArgumentParser
import Foundation
import LayerCompositor

/// `layerkit displaylist SCENE`: prints what the compositor decided.
struct DisplayListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "displaylist",
        abstract: "Print a scene's display list: passes, quads, matrices, clips.")

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    func run() throws {
        let loaded = try loadScene(scene)
        print(Compositor.displayList(for: loaded, scale: scale).dump(), terminator: "")
    }
}
