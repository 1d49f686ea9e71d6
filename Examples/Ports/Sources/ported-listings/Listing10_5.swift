import QuartzCore

/// Listing 10.5: a `CAMediaTimingFunction` drawn as its Bézier curve, in a layer whose geometry
/// is flipped so that y points up (figure 10.4).
func makeTimingCurveView() -> CALayer {
    let layerView = CALayer()
    layerView.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    layerView.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    // create timing function
    let function = CAMediaTimingFunction(name: .easeOut)
    // get control points
    var controlPoint1: [Float] = [0, 0]
    var controlPoint2: [Float] = [0, 0]
    function.getControlPoint(at: 1, values: &controlPoint1)
    function.getControlPoint(at: 2, values: &controlPoint2)
    // create curve
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addCurve(to: CGPoint(x: 1, y: 1),
                  control1: CGPoint(x: CGFloat(controlPoint1[0]), y: CGFloat(controlPoint1[1])),
                  control2: CGPoint(x: CGFloat(controlPoint2[0]), y: CGFloat(controlPoint2[1])))
    // scale the path up to a reasonable size for display
    var transform = CGAffineTransform(scaleX: 200, y: 200)
    let scaled = path.copy(using: &transform)!
    // create shape layer
    let shapeLayer = CAShapeLayer()
    shapeLayer.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    shapeLayer.fillColor = nil
    shapeLayer.lineWidth = 4
    shapeLayer.path = scaled
    layerView.addSublayer(shapeLayer)
    // flip geometry so that 0,0 is in the bottom-left
    layerView.isGeometryFlipped = true
    return layerView
}
