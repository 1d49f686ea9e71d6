import Foundation
import LayerKitCore
import LayerKitScene

/// The compass example, live: `compass.json` (gradient, shape layer dial, four text layers on
/// `anchorPoint` (0.5, 3.0)) with its arrow, turned about its bottom end, pointing at the pointer.
final class CompassPage: Page {
    private let arrow: CALayer

    /// Reads `seeds/compass.json`.
    init(examples: Examples) throws {
        let path = examples.seeds.appendingPathComponent("compass.json").path
        let scene: Scene
        do { scene = try Scene(contentsOfFile: path) } catch { throw DemoError.badInput("\(error)") }
        guard let arrow = scene.root.sublayers?.first(where: { $0.name == "arrow" }) else {
            throw DemoError.badInput("\(path): no layer named arrow among the root's sublayers")
        }
        self.arrow = arrow
        super.init(id: "compass-pointer", title: "compass: the arrow follows the pointer", canvas: scene.canvas, root: scene.root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "move", action: "the arrow turns towards the pointer")] }

    override func pointerMoved(to p: CGPoint) -> Bool {
        // The arrow points up at angle 0 and turns clockwise (y down) about its anchor, which
        // sits at `position` in the root; the root fills the canvas, so that is canvas space.
        let anchor = arrow.position
        let angle = atan2(p.x - anchor.x, anchor.y - p.y)
        arrow.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        return true
    }
}
