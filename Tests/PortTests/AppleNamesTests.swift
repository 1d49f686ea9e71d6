import QuartzCore
import XCTest

/// Names iOS code uses that have no effect on Linux or a small one, with Apple's types and
/// defaults.
final class AppleNamesTests: XCTestCase {
    func testOpaqueIsAHint() {
        final class HalfRed: CALayer {
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))
                ctx.fill(bounds)
            }
        }
        let layer = HalfRed()
        XCTAssertFalse(layer.isOpaque)
        layer.isOpaque = true
        XCTAssertTrue(layer.isOpaque)
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.setNeedsDisplay()
        let context = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: context)
        // The drawing keeps its alpha: half red, premultiplied (0.5·255 rounds to 128).
        let p = context.makeImage()!.bitmap[2, 2]
        XCTAssertEqual([p.r, p.g, p.b, p.a], [128, 0, 0, 128])
    }

    func testDrawsAsynchronouslyStillDrawsAtDisplay() {
        final class Counting: CALayer {
            var draws = 0
            override func draw(in ctx: CGContext) { draws += 1 }
        }
        let layer = Counting()
        XCTAssertFalse(layer.drawsAsynchronously)
        layer.drawsAsynchronously = true
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        XCTAssertEqual(layer.draws, 1, "drawn synchronously")
    }

    func testPreferredFrameSizeIsTheBoundsInTheSuperlayer() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 30, height: 20))
        // Turned a quarter: 20 wide, 30 high in the superlayer.
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        XCTAssertEqual(layer.preferredFrameSize().width, 20, accuracy: 1e-9)
        XCTAssertEqual(layer.preferredFrameSize().height, 30, accuracy: 1e-9)
        final class Fixed: CALayer {
            override func preferredFrameSize() -> CGSize { CGSize(width: 7, height: 8) }
        }
        XCTAssertEqual(Fixed().preferredFrameSize(), CGSize(width: 7, height: 8))
    }

    /// Perceptual duration d and bounce b, mass 1: stiffness (2π/d)², damping 2ζ·2π/d with
    /// ζ = 1 − b (b ≥ 0) or 1/(1 + b) (b < 0).
    func testSpringFromPerceptualDurationAndBounce() {
        // d = 0.5: 2π/d = 4π, stiffness 16π² = 157.91367…; b = 0.25: ζ = 0.75, damping 6π.
        let a = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.25)
        XCTAssertEqual(a.mass, 1)
        XCTAssertEqual(a.stiffness, 157.91367041742973, accuracy: 1e-9)
        XCTAssertEqual(a.damping, 18.84955592153876, accuracy: 1e-9)
        XCTAssertEqual(a.perceptualDuration, 0.5, accuracy: 1e-12)
        XCTAssertEqual(a.bounce, 0.25, accuracy: 1e-12)
        XCTAssertFalse(a.allowsOverdamping)
        // b = 0: critically damped, damping 2·√stiffness = 8π.
        let critical = CASpringAnimation(perceptualDuration: 0.5, bounce: 0)
        XCTAssertEqual(critical.damping, 25.132741228718345, accuracy: 1e-9)
        // b = −0.5: ζ = 2, damping 16π, overdamping allowed so that it shows.
        let over = CASpringAnimation(perceptualDuration: 0.5, bounce: -0.5)
        XCTAssertEqual(over.damping, 50.26548245743669, accuracy: 1e-9)
        XCTAssertEqual(over.bounce, -0.5, accuracy: 1e-12)
        XCTAssertTrue(over.allowsOverdamping)
        // b = 1: undamped.
        XCTAssertEqual(CASpringAnimation(perceptualDuration: 1, bounce: 1).damping, 0)
        // The default spring (mass 1, stiffness 100, damping 10): ω0 = 10, ζ = 0.5.
        let plain = CASpringAnimation()
        XCTAssertEqual(plain.perceptualDuration, 2 * .pi / 10, accuracy: 1e-12)
        XCTAssertEqual(plain.bounce, 0.5, accuracy: 1e-12)
        // A keyed spring made this way animates as any spring does.
        a.keyPath = "position.x"
        XCTAssertEqual(a.keyPath, "position.x")
    }
}
