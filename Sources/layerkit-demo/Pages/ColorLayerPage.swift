import Foundation
import LayerKitCore

/// Chapter 7's pages: the book's `colorLayer`, a 100-point blue square in the middle of a
/// 300 x 300 canvas, changed by clicks and keys. It is a plain layer, not a view's backing
/// layer, so its changes run their actions and animate implicitly; the page asks for frames
/// while an animation runs (the HUD counts them).
class ColorLayerPage: Page {
    /// The layer the listings change.
    let colorLayer = CALayer()
    /// The colour the next change gives: random, as the book's (tests give fixed ones).
    var nextColor: () -> CGColor = {
        CGColor(red: .random(in: 0...1), green: .random(in: 0...1), blue: .random(in: 0...1), alpha: 1)
    }

    /// A page with the square and nothing else.
    init(id: String, title: String) {
        let (canvas, root) = Page.whiteCanvas(300, 300)
        colorLayer.name = "colorLayer"
        colorLayer.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        colorLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(colorLayer)
        super.init(id: id, title: title, canvas: canvas, root: root)
    }

    override var animatesImplicitly: Bool { true }

    override var keys: [KeyHelp] { [KeyHelp(key: "space", action: "change the colour (or click)")] }

    override func update(clock: DemoClock) -> Redraw { redrawWhileAnimating(clock) }

    /// Listing 7.1's change: a new colour, animated by whatever action the layer finds for
    /// `backgroundColor`.
    func change() { colorLayer.backgroundColor = nextColor() }

    override func clicked(_ hit: CALayer?, at p: CGPoint) { change() }

    override func typed(_ c: Character) -> Bool {
        guard c == " " else { return false }
        change()
        return true
    }
}

/// Listings 7.1–7.3: a click or space gives the layer a new colour, which animates implicitly
/// (0.25 s, the transaction's default). `t` switches to listing 7.3's explicit transaction: a
/// 1 s duration and a completion block that turns the layer 90° further, itself an implicit
/// animation, once the colour has changed.
final class ImplicitColorPage: ColorLayerPage {
    /// Whether changes run in listing 7.3's transaction.
    private(set) var usesTransaction = false
    /// How many times a completion block has run.
    private(set) var completions = 0
    private let label = Page.caption(canvasWidth: 300, y: 250)

    init() {
        super.init(id: "7.1-implicit-color", title: "7.1–7.3 implicit animation: a colour change, and its transaction")
        root.addSublayer(label)
        describe()
    }

    override var keys: [KeyHelp] { super.keys + [KeyHelp(key: "t", action: "in a 1 s transaction whose completion turns the layer")] }

    private func describe() {
        label.string = usesTransaction ? "CATransaction: 1 s, then the completion block turns the layer 90° (t)"
                                       : "implicit: 0.25 s, the transaction's default (t: listing 7.3)"
    }

    override func change() {
        guard usesTransaction else { return super.change() }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock { [unowned self] in
            completions += 1
            colorLayer.setAffineTransform(colorLayer.affineTransform().rotated(by: .pi / 2))
        }
        super.change()
        CATransaction.commit()
    }

    override func typed(_ c: Character) -> Bool {
        guard c == "t" else { return super.typed(c) }
        usesTransaction.toggle()
        describe()
        return true
    }
}

/// Listings 7.5–7.6: the layer's `actions` dictionary maps `backgroundColor` to a
/// `CATransition` that pushes in from the left, so a new colour slides in over the old one
/// instead of fading.
final class CustomActionPage: ColorLayerPage {
    init() {
        super.init(id: "7.6-custom-action", title: "7.5–7.6 custom action: a colour change pushes in from the left")
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromLeft
        colorLayer.actions = ["backgroundColor": transition]
    }
}

/// Listing 7.10: a click elsewhere moves the layer there in a 4 s transaction; a click on the
/// layer gives it a new colour. The click is tested against the presentation layer, where the
/// layer is on screen: the model layer is already where it is going.
final class PresentationHitPage: ColorLayerPage {
    init() {
        super.init(id: "7.10-presentation-hit", title: "7.10 hit testing the presentation layer: click the moving layer")
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "click", action: "on the layer: a new colour; elsewhere: move it there in 4 s")]
    }

    override func hitTest(_ p: CGPoint) -> CALayer? { root.presentation()?.hitTest(p)?.model() }

    override func clicked(_ hit: CALayer?, at p: CGPoint) {
        if hit === colorLayer { return change() }
        CATransaction.begin()
        CATransaction.setAnimationDuration(4)
        colorLayer.position = p
        CATransaction.commit()
    }
}
