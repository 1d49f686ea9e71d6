import Foundation
import LayerKitCore

/// The book's hit-testing puzzle on the cube (5.9, "点击事件"): face 3 carries a button, but
/// clicking it does nothing, because hit testing follows sublayer order, not depth, and faces
/// 5 and 6, later siblings seen from behind, cover it. The page shows what `hitTest` returns
/// and the book's two fixes, each toggled with a key:
///
/// 1. make the other faces ignore touches (`userInteractionEnabled = NO` on their views): a
///    layer has no such flag, so this page's hit test hides those faces while it runs, which
///    is how UIKit's hit test treats such views (skipped with their subtrees);
/// 2. move face 3 above face 6 in `sublayers`, so it is tried first.
final class CubeButtonPage: Page {
    private let cube: Cube
    private let button: CALayer
    private let captionLayer: CATextLayer
    /// Fix 1: faces not hit-testable, as views with user interaction disabled.
    private var untouchable: Set<ObjectIdentifier> = []
    /// What the caption says the last click's `hitTest` returned.
    private var lastHit = "click the button on face 3"
    /// When the button's tapped highlight ends; a tap waiting to start it at the next update.
    private var flashUntil: Double?
    private var pendingFlash = false
    /// The button's colour, and its colour while tapped.
    private static let buttonColor = CGColor.white
    private static let tappedColor = CGColor(red: 0.35, green: 0.6, blue: 1, alpha: 1)

    /// Builds the cube with the button on face 3, in the book's sublayer order.
    init(examples: Examples) throws {
        cube = try Cube(examples: examples)
        button = CALayer()
        button.name = "face3-button"
        button.frame = CGRect(x: 50, y: 80, width: 100, height: 40)
        button.backgroundColor = Self.buttonColor
        button.cornerRadius = 8
        button.borderWidth = 2
        button.borderColor = CGColor(red: 0x1E / 255, green: 0x5A / 255, blue: 0xC8 / 255, alpha: 1)
        cube.faces[2].addSublayer(button)
        let (canvas, root) = Page.whiteCanvas(400, 460)
        captionLayer = Page.caption(canvasWidth: 400, y: 400)
        captionLayer.frame.size.height = 60
        root.addSublayer(cube.container)
        root.addSublayer(captionLayer)
        super.init(id: "cube-button", title: "5.9 hit testing: the button on face 3", canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "click", action: "hit-test; the button turns blue when it is what is hit"),
         KeyHelp(key: "1", action: "fix 1: the other faces ignore touches (userInteractionEnabled = NO)"),
         KeyHelp(key: "2", action: "fix 2: face 3 moved above face 6 in sublayers")]
    }

    private var faceThreeOnTop: Bool { cube.container.sublayers?.last === cube.faces[2] }

    override func update(clock: DemoClock) -> Redraw {
        if pendingFlash {
            flashUntil = clock.now + 0.4
            pendingFlash = false
        }
        var redraw = Redraw.onInput
        if let end = flashUntil, clock.now < end {
            button.backgroundColor = Self.tappedColor
            redraw = clock.isFrozen ? .onInput : .at(end)
        } else {
            button.backgroundColor = Self.buttonColor
            flashUntil = nil
        }
        captionLayer.string = "hitTest → \(lastHit)\n"
            + "[1] others ignore touches: \(untouchable.isEmpty ? "off" : "on")   "
            + "[2] face 3 above face 6: \(faceThreeOnTop ? "on" : "off")"
        return redraw
    }

    override func hitTest(_ p: CGPoint) -> CALayer? {
        let ignored = cube.faces.filter { untouchable.contains(ObjectIdentifier($0)) }
        for f in ignored { f.isHidden = true }
        defer { for f in ignored { f.isHidden = false } }
        return super.hitTest(p)
    }

    override func clicked(_ hit: CALayer?, at p: CGPoint) {
        lastHit = hit?.name ?? "nothing"
        if hit === button {
            lastHit += " — the button is tapped"
            pendingFlash = true
        }
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "1":
            untouchable = untouchable.isEmpty
                ? Set(cube.faces.enumerated().filter { $0.offset != 2 }.map { ObjectIdentifier($0.element) }) : []
        case "2":
            if faceThreeOnTop {
                cube.container.insertSublayer(cube.faces[2], at: 2)
            } else {
                cube.container.insertSublayer(cube.faces[2], above: cube.faces[5])
            }
        default: return false
        }
        return true
    }
}
