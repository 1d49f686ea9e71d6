import LayerKitCore
import XCTest

/// Lines as Apple's samples and everyday iOS code write them compile unchanged with
/// `import LayerKit` (the build is the first check), and mean what they mean there.
final class AppleSampleCodeTests: XCTestCase {
    func testEverydayLinesCompileAndTakeEffect() throws {
        let layer = CALayer()
        layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        layer.cornerCurve = .continuous
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 10))
        let shape = CAShapeLayer()
        shape.path = path
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.0)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
        CATransaction.setCompletionBlock { }
        XCTAssertEqual(CATransaction.animationDuration(), 1.0)
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25, "the default outside any transaction")
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromRight
        layer.add(transition, forKey: kCATransition)
        let anim = CAKeyframeAnimation(keyPath: "position")
        anim.path = path
        anim.rotationMode = .rotateAuto
        anim.calculationMode = .cubicPaced
        layer.add(anim, forKey: nil)
        XCTAssertEqual(layer.animationKeys(), [kCATransition])
        layer.actions = ["position": NSNull(), "opacity": CABasicAnimation()]
        XCTAssertNil(layer.action(forKey: "position"), "NSNull ends the search, converted to nil as Apple does")
        XCTAssertTrue(layer.action(forKey: "opacity") is CABasicAnimation)
    }

    /// `CGGradient(colorsSpace:colors:locations:)` takes Core Graphics' `CFArray`, as Apple's
    /// samples write it; an element that is not a colour makes no gradient.
    func testGradientFromACFArray() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let g = try XCTUnwrap(CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [red, blue] as CFArray, locations: [0, 1]))
        XCTAssertEqual(g.colors, [red, blue])
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: [red, "blue"] as CFArray, locations: nil))
    }
}
