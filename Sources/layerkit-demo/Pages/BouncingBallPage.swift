import Foundation
import LayerKitCore

/// Listing 10.6: a ball dropped from the top bounces to rest in 1 s, from one
/// `CAKeyframeAnimation` of `position`: eight keyframes at key times 0, 0.3, 0.5, 0.7, 0.8,
/// 0.9, 0.95, 1, falling segments easeIn and rising ones easeOut. A click or space drops it
/// again.
final class BouncingBallPage: AnimationPage {
    /// The keyframes, the listing's.
    static let values = [32, 268, 140, 268, 220, 268, 250, 268].map { CGPoint(x: 150, y: $0) }
    static let keyTimes: [NSNumber] = [0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1]

    let ball = disc(diameter: 40, color: CGColor(red: 0.9, green: 0.35, blue: 0.2, alpha: 1), name: "ball")

    init() {
        let (canvas, root) = Page.whiteCanvas(300, 300)
        let floor = CALayer()
        floor.name = "floor"
        floor.frame = CGRect(x: 40, y: 288, width: 220, height: 2)
        floor.backgroundColor = CGColor(gray: 0.3, alpha: 1)
        root.addSublayer(floor)
        ball.position = Self.values[Self.values.count - 1]  // at rest: the model after the bounce
        root.addSublayer(ball)
        super.init(id: "10.6-bouncing-ball", title: "10.6 bouncing ball: keyframes with keyTimes and per-segment easing",
                   canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "space", action: "drop the ball again (or click)")] }

    override func start(at t: CFTimeInterval) { drop(at: t) }

    /// Drops the ball at media time `t`.
    func drop(at t: CFTimeInterval) {
        let bounce = CAKeyframeAnimation(keyPath: "position")
        bounce.duration = 1
        bounce.values = Self.values
        bounce.keyTimes = Self.keyTimes
        bounce.timingFunctions = (0..<Self.values.count - 1).map { CAMediaTimingFunction(name: $0 % 2 == 0 ? .easeIn : .easeOut) }
        add(bounce, to: ball, forKey: "bounce", at: t)
    }

    override func typed(_ c: Character) -> Bool {
        guard c == " " else { return false }
        drop(at: mediaTime)
        return true
    }

    override func clicked(_ hit: CALayer?, at p: CGPoint) { drop(at: mediaTime) }
}
