import Foundation
import LayerKitCore

/// Listing 5.9 live: the die cube, whose camera (the container's `sublayerTransform`) turns as
/// the pointer drags, with keys that change `m34`'s distance to show what perspective does.
final class CubePage: Page {
    private let cube: Cube
    private let captionLayer: CATextLayer
    private var camera = CubeCamera()

    /// Builds the cube from the die pictures.
    init(examples: Examples) throws {
        cube = try Cube(examples: examples)
        let (canvas, root) = Page.whiteCanvas(400, 440)
        captionLayer = Page.caption(canvasWidth: 400, y: 400)
        root.addSublayer(cube.container)
        root.addSublayer(captionLayer)
        super.init(id: "cube", title: "5.9 cube: drag to turn the camera", canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] { CubeCamera.keys }

    override func update(clock: DemoClock) -> Redraw {
        cube.container.sublayerTransform = camera.transform
        captionLayer.string = camera.summary + " — drag to turn, +/- to change the distance"
        return .onInput
    }

    override func dragged(by delta: CGSize) -> Bool {
        camera.drag(delta)
        return true
    }

    override func typed(_ c: Character) -> Bool { camera.typed(c) }
}
