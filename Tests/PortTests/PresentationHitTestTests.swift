import QuartzCore
import XCTest

/// Listing 7.10 of "iOS Core Animation" with a layer subclass: a tap hits the layer where it is
/// on screen, tested on `presentation()`, which is an instance of the subclass.
final class PresentationHitTestTests: XCTestCase {
    final class ColorLayer: CALayer {
        var tapCount = 0
        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            tapCount = (layer as? ColorLayer)?.tapCount ?? 0
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }
    }

    func testHitTestOnThePresentationOfASubclass() throws {
        let container = CALayer()
        container.bounds = CGRect(x: 0, y: 0, width: 400, height: 200)
        container.position = CGPoint(x: 200, y: 100)
        let colorLayer = ColorLayer()
        colorLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        colorLayer.position = CGPoint(x: 300, y: 100)
        colorLayer.tapCount = 2
        container.addSublayer(colorLayer)
        // Paused at container time 10.5: halfway through a 1 s move from x 100 to x 300 begun
        // at 10, the layer is centred at x 200 on screen while its model is at x 300.
        container.speed = 0
        container.timeOffset = 10.5
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 100, y: 100))
        move.toValue = NSValue(cgPoint: CGPoint(x: 300, y: 100))
        move.duration = 1
        move.beginTime = 10
        colorLayer.add(move, forKey: nil)

        let presentation = try XCTUnwrap(colorLayer.presentation())
        XCTAssertEqual(presentation.tapCount, 2, "a ColorLayer, made by its init(layer:)")
        XCTAssertEqual(presentation.position, CGPoint(x: 200, y: 100))
        XCTAssertNotNil(presentation.hitTest(CGPoint(x: 160, y: 100)), "where it is on screen")
        XCTAssertNil(presentation.hitTest(CGPoint(x: 300, y: 100)), "not where its model is")
        XCTAssertNotNil(colorLayer.hitTest(CGPoint(x: 300, y: 100)), "the model is at its end")
        let root = try XCTUnwrap(container.presentation())
        XCTAssertTrue(root.hitTest(CGPoint(x: 160, y: 100)) is ColorLayer, "the presentation tree holds the subclass")
    }
}
