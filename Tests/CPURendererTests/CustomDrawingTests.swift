import Foundation
import LayerKit
import LayerKitTestSupport
import XCTest

/// A layer's own drawing (`draw(in:)`) reaches the screen as its contents, through the
/// compositor and the CPU reference renderer.
final class CustomDrawingTests: XCTestCase {
    /// Fills the left half of its bounds blue and strokes nothing else.
    final class HalfLayer: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height))
        }
    }

    func testDrawnContentsAreRendered() {
        let root = solidLayer(CGRect(x: 0, y: 0, width: 8, height: 4), rgb(255, 255, 255))
        let l = HalfLayer()
        l.frame = CGRect(x: 2, y: 0, width: 4, height: 4)
        l.setNeedsDisplay()
        root.addSublayer(l)
        let b = renderCPU(root, width: 8, height: 4)
        XCTAssertEqual(b.rgba(1, 1), [255, 255, 255, 255])
        XCTAssertEqual(b.rgba(2, 1), [0, 0, 255, 255])  // the layer's x 0…2 is canvas x 2…4
        XCTAssertEqual(b.rgba(3, 3), [0, 0, 255, 255])
        XCTAssertEqual(b.rgba(4, 1), [255, 255, 255, 255])
    }

    func testContentsScaleTwoOnATwoTimesCanvas() {
        let l = HalfLayer()
        l.frame = CGRect(x: 0, y: 0, width: 3, height: 2)
        l.contentsScale = 2
        l.setNeedsDisplay()
        let b = renderCPU(l, width: 3, height: 2, scale: 2)
        // 1.5 points of blue are 3 canvas pixels, each exactly one contents pixel.
        XCTAssertEqual((0..<6).map { b[$0, 2].b }, [255, 255, 255, 0, 0, 0])
        XCTAssertEqual((0..<6).map { b[$0, 2].a }, [255, 255, 255, 0, 0, 0])
    }
}
