import LayerKit

/// Listing 5.6's idea: a container whose sublayerTransform gives its sublayers one vanishing
/// point, and the image of cat.png turned 45° about y inside it. `turn` adds a turn about y, in radians.
public func makeListingTree(turn: CGFloat = 0) throws -> CALayer {
    let container = CALayer()
    container.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    container.backgroundColor = CGColor(red: 0.93, green: 0.93, blue: 0.96, alpha: 1)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    container.sublayerTransform = perspective

    let layer = CALayer()
    layer.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
    layer.contents = try CGImage(contentsOfPNGFile: "Examples/images/cat.png")
    layer.transform = CATransform3DMakeRotation(.pi / 4 + turn, 0, 1, 0)
    container.addSublayer(layer)
    return container
}
