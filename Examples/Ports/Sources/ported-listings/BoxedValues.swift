import QuartzCore

/// Values boxed as Apple code boxes them, and key-value coding on layers and animations.
func makeBoxedAnimations(on layer: CALayer) {
    let move = CABasicAnimation(keyPath: "position")
    move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
    move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 50))
    move.duration = 1
    layer.add(move, forKey: "move")

    let spin = CABasicAnimation(keyPath: "transform")
    spin.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
    spin.toValue = NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))
    spin.duration = 1
    layer.add(spin, forKey: "spin")

    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = NSNumber(value: 1)
    fade.toValue = NSNumber(value: 0)
    fade.duration = 1
    layer.add(fade, forKey: "fade")
}
