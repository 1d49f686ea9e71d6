import QuartzCore
import XCTest

/// Apple's boxes in animations, as iOS code writes them.
final class BoxedValueTests: XCTestCase {
    private var errors: [CAValueTypeError] = []
    private var saved: ((CAValueTypeError) -> Void)!

    override func setUp() {
        super.setUp()
        saved = valueTypeErrorHandler
        valueTypeErrorHandler = { [unowned self] in errors.append($0) }
    }

    override func tearDown() {
        valueTypeErrorHandler = saved
        super.tearDown()
    }

    /// A layer paused at layer time 10.5 with `animation` (1 s, linear) begun at 10: halfway.
    private func halfway(_ animation: CAPropertyAnimation, on layer: CALayer = CALayer()) -> CALayer {
        layer.speed = 0
        layer.timeOffset = 10.5
        animation.duration = 1
        animation.beginTime = 10
        layer.add(animation, forKey: "a")
        return layer.presentation()!
    }

    func testBoxesRoundTrip() {
        XCTAssertEqual(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue, CGPoint(x: 1, y: 2))
        XCTAssertEqual(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue, CGSize(width: 3, height: 4))
        XCTAssertEqual(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue, CGRect(x: 1, y: 2, width: 3, height: 4))
        let t = CATransform3DMakeRotation(0.5, 0, 0, 1)
        XCTAssertEqual(NSValue(caTransform3D: t).caTransform3DValue, t)
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        XCTAssertEqual(NSValue(cgAffineTransform: a).cgAffineTransformValue, a)
        XCTAssertEqual(NSValue(cgSize: CGSize(width: 3, height: 4)).cgPointValue, .zero, "another type reads as zero")
        XCTAssertEqual(NSValue(caTransform3D: t), NSValue(caTransform3D: t))
    }

    func testBoxedAndNumberValuesAnimate() {
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
        move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 50))
        XCTAssertEqual(halfway(move).position, CGPoint(x: 50, y: 25))
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = NSNumber(value: 0)
        fade.toValue = NSNumber(value: 1)
        XCTAssertEqual(halfway(fade).opacity, 0.5)
        let spin = CABasicAnimation(keyPath: "transform")
        spin.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        spin.toValue = NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))
        XCTAssertEqual(halfway(spin).transform.m11, 2, accuracy: 1e-12)
        let path = CAKeyframeAnimation(keyPath: "bounds.size")
        path.values = [NSValue(cgSize: CGSize(width: 0, height: 0)), NSValue(cgSize: CGSize(width: 40, height: 20))]
        XCTAssertEqual(halfway(path).bounds.size, CGSize(width: 20, height: 10))
        // Foundation's own spelling, NSValue(point:), holds the same CGPoint on Linux.
        let foundation = CABasicAnimation(keyPath: "position")
        foundation.toValue = NSValue(point: CGPoint(x: 100, y: 0))
        XCTAssertEqual(halfway(foundation).position, CGPoint(x: 50, y: 0))
        XCTAssertEqual(errors, [])
    }

    /// Before: a value the key path cannot take compiled and the animation silently did
    /// nothing. Now `add(_:forKey:)` refuses it and says why.
    func testAValueOfTheWrongTypeIsAClearErrorAtAdd() {
        let layer = CALayer()
        let move = CABasicAnimation(keyPath: "position")
        move.toValue = NSValue(cgSize: CGSize(width: 100, height: 0))
        layer.add(move, forKey: "move")
        XCTAssertNil(layer.animation(forKey: "move"), "refused")
        XCTAssertEqual(errors.map(\.description),
                       ["CABasicAnimation.toValue for key path \"position\" is NSValue holding CGSize, but it takes a point (CGPoint or NSValue(cgPoint:)); refused"])
        let keyframes = CAKeyframeAnimation(keyPath: "opacity")
        keyframes.values = [0, "half", 1]
        layer.add(keyframes, forKey: "fade")
        XCTAssertNil(layer.animation(forKey: "fade"))
        XCTAssertEqual(errors.last?.source, "CAKeyframeAnimation.values[1]")
        XCTAssertEqual(errors.last?.valueType, "String")
    }
}
