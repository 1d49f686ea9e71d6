import Foundation
import LayerKitCore

/// Listing 9.4: a door hinged on its left edge (`anchorPoint` (0, 0.5), perspective m34 =
/// −1/500 on its container) with an animation that swings it open by 90° about y in 1 s. The
/// door's `speed` is 0, so its time stands still and the animation shows the moment its
/// `timeOffset` names: the pointer's x across the canvas, 0 to 0.999 s.
final class DoorPage: AnimationPage {
    /// The door layer, paused.
    let door = CALayer()

    init() {
        let (canvas, root) = Page.whiteCanvas(400, 400)
        let container = CALayer()
        container.name = "doorway"
        container.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        root.addSublayer(container)
        door.name = "door"
        door.bounds = CGRect(x: 0, y: 0, width: 128, height: 256)
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.position = CGPoint(x: 136, y: 200)
        door.backgroundColor = CGColor(red: 0.55, green: 0.35, blue: 0.2, alpha: 1)
        door.borderColor = CGColor(red: 0.3, green: 0.18, blue: 0.1, alpha: 1)
        door.borderWidth = 4
        let knob = disc(diameter: 14, color: CGColor(red: 0.95, green: 0.8, blue: 0.3, alpha: 1), name: "knob")
        knob.position = CGPoint(x: 108, y: 128)
        door.addSublayer(knob)
        container.addSublayer(door)
        super.init(id: "9.4-door-scrub", title: "9.4 door scrubbed by the pointer: speed 0 and timeOffset",
                   canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "move", action: "the pointer's x is the door's timeOffset (0…1 s)")] }

    /// Pauses the door's time, then adds the swing (it begins at the paused time, 0).
    override func start(at t: CFTimeInterval) {
        door.speed = 0
        let swing = CABasicAnimation(keyPath: "transform.rotation.y")
        swing.toValue = -CGFloat.pi / 2
        swing.duration = 1
        add(swing, to: door, forKey: "swing", at: t)
    }

    /// Nothing moves by itself: the door changes only with the pointer.
    override func update(clock: DemoClock) -> Redraw {
        _ = super.update(clock: clock)
        return .onInput
    }

    override func pointerMoved(to p: CGPoint) -> Bool {
        // The book clamps below 1: at 1 s the animation has ended and the door would fall shut.
        door.timeOffset = min(max(Double(p.x / canvas.width), 0), 0.999)
        return true
    }
}
