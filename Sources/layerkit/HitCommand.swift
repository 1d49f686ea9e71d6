import ArgumentParser
import Foundation
import LayerKitCore
import LayerKitScene

/// `layerkit hit SCENE X Y`: which layer Core Animation's `hitTest` returns at a canvas point.
struct HitCommand: ParsableCommand {
    /// The verb and its summary, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Print the layer hit at a canvas point: its name, its path when unnamed, or none.",
        discussion: "Put -- before negative coordinates: layerkit hit scene.json -- -5 10"
    )

    /// The scene file.
    @Argument(help: "Scene file (.json).")
    var scene: String

    /// The point's x, in canvas points.
    @Argument(help: "x in canvas points (finite).")
    var x: Double

    /// The point's y, in canvas points.
    @Argument(help: "y in canvas points (finite).")
    var y: Double

    func run() throws {
        // A point with no place on the canvas is bad input, not a miss.
        for (name, value) in [("X", x), ("Y", y)] where !value.isFinite {
            throw CLIError.badInput("\(name) must be a finite number, not \(value)")
        }
        let loaded = try loadScene(scene, use: .reading)
        print(loaded.describe(loaded.hitTest(CGPoint(x: x, y: y))))
    }
}
