import QuartzCore

/// Listing 6.8: a replicator layer draws ten copies of one white square, each turned a further
/// 36° about a point 200 points below it and less blue and green by 0.1 (figure 6.8). The
/// container stands for the book's `containerView`.
func makeReplicatorRing() -> CALayer {
    let containerView = CALayer()
    containerView.frame = CGRect(x: 0, y: 0, width: 500, height: 640)
    containerView.backgroundColor = CGColor(gray: 0.2, alpha: 1)

    // create a replicator layer and add it to our view
    let replicator = CAReplicatorLayer()
    replicator.frame = CGRect(x: 100, y: 20, width: 300, height: 300)
    containerView.addSublayer(replicator)

    // configure the replicator
    replicator.instanceCount = 10

    // apply a transform for each instance
    var transform = CATransform3DIdentity
    transform = CATransform3DTranslate(transform, 0, 200, 0)
    transform = CATransform3DRotate(transform, .pi / 5.0, 0, 0, 1)
    transform = CATransform3DTranslate(transform, 0, -200, 0)
    replicator.instanceTransform = transform

    // apply a color shift for each instance
    replicator.instanceBlueOffset = -0.1
    replicator.instanceGreenOffset = -0.1

    // create a sublayer and place it inside the replicator
    let layer = CALayer()
    layer.frame = CGRect(x: 100.0, y: 100.0, width: 100.0, height: 100.0)
    layer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    replicator.addSublayer(layer)
    return containerView
}
