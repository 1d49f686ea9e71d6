import Foundation
import LayerKitCore

/// Listing 8.4's clock: the clock of chapter 3, but each tick turns the hand with a 0.5 s
/// `CABasicAnimation` of `transform.rotation.z` from its old angle to its new one (the model
/// holds the new angle at once, so nothing snaps back). `e` switches the ticks' easing to
/// listing 10.5's springy curve, control points (1, 0) and (0.75, 1).
final class AnimatedClockPage: ClockPage {
    /// The angle each hand was last turned to, by hand.
    private var angles: [ObjectIdentifier: CGFloat] = [:]
    /// Whether ticks use listing 10.5's curve instead of easeInEaseOut.
    private var springy = false

    /// Builds the face and hands from `clockface.png` and `*hand.png`.
    init(examples: Examples) throws {
        try super.init(examples: examples, id: "8.4-clock-animated", title: "8.4 clock: each tick is a CABasicAnimation")
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "e", action: "ease the ticks with listing 10.5's springy curve (1, 0, 0.75, 1) or easeInEaseOut")]
    }

    override func typed(_ c: Character) -> Bool {
        guard c == "e" else { return false }
        springy.toggle()
        return true
    }

    /// The timing function of the ticks.
    var tickTiming: CAMediaTimingFunction {
        springy ? CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1) : CAMediaTimingFunction(name: .easeInEaseOut)
    }

    /// The first time shown is set at once; later ticks animate forwards from the old angle (a
    /// hand passing 12 animates to a full turn, which the model's 0 then shows).
    override func turn(_ hand: CALayer, to angle: CGFloat, clock: DemoClock) {
        let id = ObjectIdentifier(hand)
        let old = angles[id]
        angles[id] = angle
        hand.setAffineTransform(CGAffineTransform(rotationAngle: angle))
        guard let old, old != angle else { return }
        let a = CABasicAnimation(keyPath: "transform.rotation.z")
        a.fromValue = old
        a.toValue = angle < old ? angle + 2 * .pi : angle
        a.duration = 0.5
        a.timingFunction = tickTiming
        a.beginTime = hand.convertTime(clock.mediaTime, from: nil)
        hand.add(a, forKey: "tick")
    }

    /// Ticks as the clock does, drawing every frame while a hand is on its way.
    override func update(clock: DemoClock) -> Redraw {
        let next = super.update(clock: clock)
        return !clock.isFrozen && root.runningAnimationCount(atTime: clock.mediaTime) > 0 ? .everyFrame : next
    }
}
