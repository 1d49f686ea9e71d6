import QuartzCore

/// Listing 6.10's `ScrollView`, whose layer class is `CAScrollLayer`: `setUp` clips to the
/// bounds, and the pan gesture's handler scrolls by the translation, the other way. The view
/// stands for the book's `UIView` subclass: its `layer` is the scroll layer, and `pan(_:)` is
/// the recognizer's action with the translation it reports.
final class ScrollView {
    let layer = CAScrollLayer()

    init(frame: CGRect) {
        layer.frame = frame
        setUp()
    }

    var bounds: CGRect { layer.bounds }

    func setUp() {
        // enable clipping
        layer.masksToBounds = true
        // (the book attaches a UIPanGestureRecognizer here, whose action is pan(_:))
    }

    func pan(_ translation: CGPoint) {
        // get the offset by subtracting the pan gesture
        // translation from the current bounds origin
        var offset = bounds.origin
        offset.x -= translation.x
        offset.y -= translation.y

        // scroll the layer
        layer.scroll(to: offset)
        // (the book resets the recognizer's translation to zero here)
    }
}

/// The book's view controller: a 100 x 100 scroll view holding an image view larger than it
/// (here a 300 x 300 layer, red on its left half and blue on its right).
func makeScrollViewExample() -> (container: CALayer, scrollView: ScrollView) {
    let container = CALayer()
    container.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let scrollView = ScrollView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
    let imageView = CALayer()
    imageView.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
    let left = CALayer(), right = CALayer()
    left.frame = CGRect(x: 0, y: 0, width: 150, height: 300)
    left.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    right.frame = CGRect(x: 150, y: 0, width: 150, height: 300)
    right.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    imageView.addSublayer(left)
    imageView.addSublayer(right)
    scrollView.layer.addSublayer(imageView)
    container.addSublayer(scrollView.layer)
    return (container, scrollView)
}
