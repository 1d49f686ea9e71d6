import Foundation
import LayerKitCore
import LayerKitScene

/// When a page changes next by itself, so that the demo draws only then and sleeps in between
/// instead of spinning (Core Animation's render server likewise draws only when something
/// changed or an animation runs).
enum Redraw: Equatable {
    /// Only after the user does something.
    case onInput
    /// Every frame: an animation is running.
    case everyFrame
    /// At this demo time in seconds (the clock's next tick, the end of a flash).
    case at(Double)
}

/// A key a page listens to, for the `?` overlay.
struct KeyHelp {
    /// The key as written on the keyboard (`+`, `1`, `drag`).
    let key: String
    /// What it does.
    let action: String
}

/// One page of the gallery: a layer tree on a canvas, as a scene file describes one, plus what
/// makes it live: animation, and answers to the pointer and keys.
///
/// The canvas behaves like a window (`Scene`): an implicit layer with bounds `[0, 0, width,
/// height]` whose only sublayer is `root`, so the points a page receives are canvas points. The
/// base class is a still page; live pages override what they animate or answer to.
class Page {
    /// A short identifier for `--page` (`clock`, `5.9-cube-corner`).
    let id: String
    /// What the title bar and the HUD call the page.
    let title: String
    /// The canvas's size and background (its scale is the window's, not the page's).
    var canvas: Canvas
    /// The canvas's only sublayer.
    var root: CALayer
    /// What the page shows, in a sentence the stage sets under the canvas; `nil` for live pages
    /// that write their own caption inside the canvas (it changes as they are used).
    var caption: String?

    /// A page showing `root` on `canvas`.
    init(id: String, title: String, canvas: Canvas, root: CALayer) {
        self.id = id
        self.title = title
        self.canvas = canvas
        self.root = root
    }

    /// The keys this page adds to the demo's, for the `?` overlay.
    var keys: [KeyHelp] { [] }

    /// Whether the page's property changes run their actions (chapter 7's pages, which show
    /// implicit animations). Other pages change their layers every frame or at each pointer
    /// move, and each change would start a 0.25 s implicit animation.
    var animatesImplicitly: Bool { false }

    /// Runs `body`, one of the page's handlers, in a transaction that disables actions unless
    /// the page animates implicitly. The demo calls every handler through it.
    func handling<T>(_ body: () throws -> T) rethrows -> T {
        try inTransaction(disablingActions: !animatesImplicitly, body)
    }

    /// Brings the tree to `clock`'s time (before every frame) and says when it changes next.
    func update(clock: DemoClock) -> Redraw { .onInput }

    /// What a page whose animations come and go asks of the demo: every frame while one of them
    /// runs at `clock`'s time, none under `--time` (time stands still there).
    func redrawWhileAnimating(_ clock: DemoClock) -> Redraw {
        if clock.isFrozen { return .onInput }
        return root.runningAnimationCount(atTime: clock.mediaTime) > 0 ? .everyFrame : .onInput
    }

    /// The layer a click at canvas point `p` reaches: Core Animation's `hitTest` on the root,
    /// as `Scene.hitTest` does. Pages that emulate UIKit's hit-testing rules override it.
    func hitTest(_ p: CGPoint) -> CALayer? { root.hitTest(p) }

    /// A click (press and release without a drag) at canvas point `p` that reached `hit`.
    func clicked(_ hit: CALayer?, at p: CGPoint) {}

    /// The pointer moved by `delta` points with the button down; returns whether the page
    /// used the drag (a page that does not is left alone and the press stays a click).
    func dragged(by delta: CGSize) -> Bool { false }

    /// The pointer moved to canvas point `p`; returns whether the page changed.
    func pointerMoved(to p: CGPoint) -> Bool { false }

    /// A typed character; returns whether the page used it.
    func typed(_ c: Character) -> Bool { false }

    /// The wheel turned by `dy` notches (positive away from the user) with the pointer at
    /// canvas point `p`; returns whether the page used it.
    func wheeled(by dy: Double, at p: CGPoint) -> Bool { false }

    /// Renders the page's text at the screen's `scale`, as an app sets its text layers'
    /// `contentsScale` to `UIScreen.main.scale` (Core Animation leaves it at 1, which blurs
    /// text on a HiDPI screen). Scene pages keep what their file says.
    func adoptScreenScale(_ scale: CGFloat) {
        func visit(_ l: CALayer) {
            if l is CATextLayer { l.contentsScale = scale }
            for s in l.sublayers ?? [] { visit(s) }
        }
        visit(root)
    }

    /// Reloads the page's source when it changed on disk (scene pages); returns whether the
    /// tree was replaced. A source that fails to load throws, and the old tree stays.
    func reloadIfChanged() throws -> Bool { false }
}

extension Page {
    /// A caption line for a live page: dark text at the bottom of the canvas, in a band the
    /// page leaves free for it.
    static func caption(_ text: String = "", canvasWidth: CGFloat, y: CGFloat) -> CATextLayer {
        let l = CATextLayer()
        l.name = "caption"
        l.frame = CGRect(x: 10, y: y, width: canvasWidth - 20, height: 40)
        l.fontSize = 13
        l.foregroundColor = CGColor(gray: 0.15, alpha: 1)
        l.isWrapped = true
        l.string = text
        return l
    }

    /// A white canvas of `width` x `height` points and a root layer filling it, named `root`.
    static func whiteCanvas(_ width: CGFloat, _ height: CGFloat) -> (Canvas, CALayer) {
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        return (Canvas(width: width, height: height, background: .white), root)
    }
}

/// Runs `body` in an explicit transaction that disables actions or not, so that what it changes
/// animates implicitly only where wanted.
func inTransaction<T>(disablingActions disabled: Bool, _ body: () throws -> T) rethrows -> T {
    CATransaction.begin()
    defer { CATransaction.commit() }
    CATransaction.setDisableActions(disabled)
    return try body()
}

/// Degrees to radians, as the book's listings write angles (`M_PI_4`, `M_PI * 0.25`).
func radians(_ degrees: CGFloat) -> CGFloat { degrees * .pi / 180 }
