import Foundation
import LayerKitCore

/// A spring playground: a weight springs across the track with a `CASpringAnimation` of
/// `position.x` (mass 1, `duration = settlingDuration`). The pointer sets the spring: its x
/// the stiffness (0 to 400 across the canvas), its y the damping (0 at the top to 40 at the
/// bottom). A click or space springs the weight to the other end.
final class SpringPage: AnimationPage {
    /// The track's two ends.
    static let ends: (CGFloat, CGFloat) = (60, 340)
    /// The spring's stiffness and damping.
    private(set) var stiffness: CGFloat = 100
    private(set) var damping: CGFloat = 10

    let weight = CALayer()
    private let label = Page.caption(canvasWidth: 400, y: 220)

    init() {
        let (canvas, root) = Page.whiteCanvas(400, 280)
        let track = CALayer()
        track.name = "track"
        track.frame = CGRect(x: Self.ends.0, y: 119, width: Self.ends.1 - Self.ends.0, height: 2)
        track.backgroundColor = CGColor(gray: 0.6, alpha: 1)
        root.addSublayer(track)
        weight.name = "weight"
        weight.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        weight.cornerRadius = 6
        weight.backgroundColor = CGColor(red: 0.45, green: 0.3, blue: 0.8, alpha: 1)
        weight.position = CGPoint(x: Self.ends.1, y: 120)
        root.addSublayer(weight)
        root.addSublayer(label)
        super.init(id: "spring", title: "spring playground: CASpringAnimation, the pointer sets stiffness and damping",
                   canvas: canvas, root: root)
        describe()
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "move", action: "x sets the stiffness (0…400), y the damping (0…40)"),
         KeyHelp(key: "space", action: "spring to the other end (or click)")]
    }

    /// The spring with the page's parameters, ready to add.
    private var spring: CASpringAnimation {
        let s = CASpringAnimation(keyPath: "position.x")
        s.stiffness = stiffness
        s.damping = damping
        s.duration = s.settlingDuration
        return s
    }

    private func describe() {
        label.string = String(format: "stiffness %.0f  damping %.1f  damping ratio %.2f  settles in %.2f s",
                              stiffness, damping, damping / (2 * stiffness.squareRoot()), spring.duration)
    }

    override func start(at t: CFTimeInterval) { springAcross(at: t) }

    /// Springs the weight from the end it is at to the other, beginning at media time `t`.
    func springAcross(at t: CFTimeInterval) {
        let from = weight.position.x
        let to = from == Self.ends.1 ? Self.ends.0 : Self.ends.1
        weight.position.x = to
        let s = spring
        s.fromValue = from
        s.toValue = to
        add(s, to: weight, forKey: "spring", at: t)
    }

    override func pointerMoved(to p: CGPoint) -> Bool {
        // Stiffness must stay above 0 (Core Animation's rule), so the left edge gives 1.
        stiffness = max(400 * min(max(p.x / canvas.width, 0), 1), 1)
        damping = 40 * min(max(p.y / canvas.height, 0), 1)
        describe()
        return true
    }

    override func typed(_ c: Character) -> Bool {
        guard c == " " else { return false }
        springAcross(at: mediaTime)
        return true
    }

    override func clicked(_ hit: CALayer?, at p: CGPoint) { springAcross(at: mediaTime) }
}
