import QuartzCore

/// Listing 7.10: hit testing the presentation layer, so that a tap lands on the layer where it
/// is drawn mid-animation, not where its model already is.
final class HitTestViewController {
    let view = CALayer()
    let colorLayer = CALayer()

    init() {
        view.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        // create a red layer
        colorLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        colorLayer.position = CGPoint(x: view.bounds.width / 2, y: view.bounds.height / 2)
        colorLayer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        view.addSublayer(colorLayer)
    }

    /// What a touch at `point` hits: "layer" when it lands on the layer as drawn, else it moves
    /// the layer there in a 4 s animation.
    func touchesBegan(at point: CGPoint) -> String {
        // check if we've tapped the moving layer
        if colorLayer.presentation()?.hitTest(point) != nil {
            return "layer"
        }
        // otherwise (slowly) move the layer to new position
        CATransaction.begin()
        CATransaction.setAnimationDuration(4.0)
        colorLayer.position = point
        CATransaction.commit()
        return "moved"
    }
}
