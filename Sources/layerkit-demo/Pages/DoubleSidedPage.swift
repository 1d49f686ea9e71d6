import Foundation
import LayerKitCore

/// Back faces (chapter 5, "背面"): a cat turning about y under perspective. With `doubleSided`
/// (the default) its back shows, mirrored; without it the layer vanishes while it faces away.
final class DoubleSidedPage: Page {
    private let cat: CALayer
    private let captionLayer: CATextLayer
    private var motion = PausableTime()

    /// Builds the turning cat over a grey placeholder that shows where it is.
    init(examples: Examples) throws {
        let (canvas, root) = Page.whiteCanvas(400, 440)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        root.sublayerTransform = perspective
        let placeholder = CALayer()
        placeholder.name = "placeholder"
        placeholder.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
        placeholder.borderWidth = 1
        placeholder.borderColor = CGColor(gray: 0.75, alpha: 1)
        root.addSublayer(placeholder)
        cat = CALayer()
        cat.name = "cat"
        cat.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
        cat.contents = try examples.image("cat")
        root.addSublayer(cat)
        captionLayer = Page.caption(canvasWidth: 400, y: 400)
        root.addSublayer(captionLayer)
        super.init(id: "double-sided", title: "doubleSided: a layer turning about y", canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "d", action: "toggle the cat's doubleSided"),
         KeyHelp(key: "space", action: "pause / resume the turn")]
    }

    override func update(clock: DemoClock) -> Redraw {
        let angle = CGFloat(motion.time(at: clock.now)) * radians(60)
        cat.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
        let degrees = Int((angle * 180 / .pi).truncatingRemainder(dividingBy: 360))
        captionLayer.string = "cat.doubleSided = \(cat.isDoubleSided) (d) · turned \(degrees)° about y"
            + (motion.isPaused ? " · paused (space)" : "")
        return motion.redraw(clock)
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "d": cat.isDoubleSided.toggle()
        case " ": motion.toggle()
        default: return false
        }
        return true
    }
}
