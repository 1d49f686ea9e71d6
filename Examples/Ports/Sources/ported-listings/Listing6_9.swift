import QuartzCore

/// Listing 6.9's `ReflectionView`, whose layer class is `CAReplicatorLayer`: a second copy of
/// the content is moved the view's height plus 2 down, mirrored and faded to alpha 0.4
/// (figure 6.10). The view's `setUp` is here a function of its layer.
func setUpReflection(_ layer: CAReplicatorLayer) {
    // configure replicator
    layer.instanceCount = 2

    // move reflection instance below original and flip vertically
    var transform = CATransform3DIdentity
    let verticalOffset = layer.bounds.size.height + 2
    transform = CATransform3DTranslate(transform, 0, verticalOffset, 0)
    transform = CATransform3DScale(transform, 1, -1, 0)
    layer.instanceTransform = transform

    // reduce alpha of reflection layer
    layer.instanceAlphaOffset = -0.6
}

/// A 100 × 100 reflection view at (0, 0) whose content is a red top half over a blue bottom half.
func makeReflectionView() -> CALayer {
    let container = CALayer()
    container.frame = CGRect(x: 0, y: 0, width: 100, height: 210)
    let view = CAReplicatorLayer()
    view.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    let top = CALayer(), bottom = CALayer()
    top.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
    top.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    bottom.frame = CGRect(x: 0, y: 50, width: 100, height: 50)
    bottom.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    view.addSublayer(top)
    view.addSublayer(bottom)
    setUpReflection(view)
    container.addSublayer(view)
    return container
}
