import Foundation
import LayerKitCore
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

/// `CALayer.render(in:)`: a tree drawn into a context in the layer's own space.
final class RenderInContextTests: XCTestCase {
    func tree() -> CALayer {
        let root = solidLayer(CGRect(x: 100, y: 50, width: 4, height: 4), rgb(255, 0, 0))
        root.transform = CATransform3DMakeRotation(1, 0, 0, 1)  // not applied: its own space is drawn
        root.addSublayer(solidLayer(CGRect(x: 2, y: 0, width: 2, height: 2), rgb(0, 0, 255)))
        return root
    }

    /// A context whose user space is y down over `points` x `points` at `scale`.
    func yDownContext(points: Int, scale: CGFloat) -> CGContext {
        let side = Int(CGFloat(points) * scale)
        let ctx = CGContext(data: nil, width: side, height: side, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.translateBy(x: 0, y: CGFloat(side))
        ctx.scaleBy(x: scale, y: -scale)
        return ctx
    }

    func testTreeIsDrawnInItsOwnSpace() {
        let ctx = yDownContext(points: 4, scale: 1)
        tree().render(in: ctx)
        let b = ctx.makeImage()!.bitmap
        XCTAssertEqual(b.rgba(0, 0), [255, 0, 0, 255])
        XCTAssertEqual(b.rgba(3, 0), [0, 0, 255, 255])  // the sublayer's frame, top right
        XCTAssertEqual(b.rgba(2, 1), [0, 0, 255, 255])
        XCTAssertEqual(b.rgba(3, 2), [255, 0, 0, 255])
    }

    func testCTMScaleRendersAtThatScale() {
        let ctx = yDownContext(points: 4, scale: 2)
        tree().render(in: ctx)
        let b = ctx.makeImage()!.bitmap
        XCTAssertEqual((0..<8).map { b[$0, 3].b }, [0, 0, 0, 0, 255, 255, 255, 255])
        XCTAssertEqual((0..<8).map { b[7, $0].b }, [255, 255, 255, 255, 0, 0, 0, 0])
    }
}
