import QuartzCore

/// A cumulative animation repeated five times, held at its end by its fill mode.
func makeCumulativeSlide(on layer: CALayer) {
    let animation = CABasicAnimation(keyPath: "position.x")
    animation.fromValue = 30
    animation.toValue = 80
    animation.duration = 0.4
    animation.repeatCount = 5
    animation.isCumulative = true
    animation.fillMode = .forwards
    animation.isRemovedOnCompletion = false
    layer.add(animation, forKey: "slide")
}
