import Foundation
import LayerKitCore

/// Chapter 8's transitions: a click or space swaps the image layer's contents for the next
/// picture of `Examples/images` under a `CATransition` (fade; `t` steps the type through
/// moveIn, push and reveal, from the left). As in the book, the image is set and then the
/// transition added: the old rendering is the layer as last drawn (see `CATransition`). The
/// contents change runs with actions disabled, as a view's layer does, so only the transition
/// animates.
final class TransitionPage: Page {
    /// The pictures, in turn.
    static let imageNames = ["cat", "star", "clockface", "face1"]
    /// The types `t` steps through.
    static let types: [CATransitionType] = [.fade, .moveIn, .push, .reveal]

    /// The layer whose contents change.
    let imageLayer = CALayer()
    private let images: [CGImage]
    private var index = 0
    private(set) var type = CATransitionType.fade
    private let label = Page.caption(canvasWidth: 300, y: 250)

    /// Reads the pictures.
    init(examples: Examples) throws {
        images = try Self.imageNames.map { try examples.image($0) }
        let (canvas, root) = Page.whiteCanvas(300, 300)
        imageLayer.name = "image"
        imageLayer.frame = CGRect(x: 50, y: 30, width: 200, height: 200)
        imageLayer.contentsGravity = .resizeAspect
        imageLayer.contents = images[0]
        root.addSublayer(imageLayer)
        root.addSublayer(label)
        super.init(id: "8.x-transition", title: "8 transitions: CATransition between images", canvas: canvas, root: root)
        describe()
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "space", action: "the next picture (or click)"),
         KeyHelp(key: "t", action: "the next transition type: fade, moveIn, push, reveal")]
    }

    private func describe() { label.string = "CATransition type \(type.rawValue) (t), next picture: click or space" }

    override func update(clock: DemoClock) -> Redraw { redrawWhileAnimating(clock) }

    /// Shows the next picture under a transition of the page's type.
    func showNext() {
        index = (index + 1) % images.count
        imageLayer.contents = images[index]
        let transition = CATransition()
        transition.type = type
        imageLayer.add(transition, forKey: nil)
    }

    override func clicked(_ hit: CALayer?, at p: CGPoint) { showNext() }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case " ": showNext()
        case "t":
            type = Self.types[(Self.types.firstIndex(of: type)! + 1) % Self.types.count]
            describe()
        default: return false
        }
        return true
    }
}
