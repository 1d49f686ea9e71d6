import CPURenderer
import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `isGeometryFlipped` flips the coordinate space of the layer and its sublayers, content
/// included (CALayer.h, `contentsAreFlipped`): a shape layer's path and a `draw(in:)` drawing
/// land in the flipped geometry, y up on screen, while an image in `contents` displays the same
/// (see `FlippedContent` for the tree and the colour each point must have).
final class GeometryFlippedContentTests: XCTestCase {
    func testPathDrawingAndImageUnderFlips() {
        for scale in [1.0, 2.0] {
            let bitmap = renderCPU(FlippedContent.tree(scale: scale), width: FlippedContent.width,
                                   height: FlippedContent.height, scale: scale, background: rgb(255, 255, 255))
            XCTAssertEqual(FlippedContent.problems(in: bitmap, scale: scale), [])
        }
    }

    /// A part redrawn after `setNeedsDisplay(_:)` under a flip: the rectangle is in the layer's
    /// (flipped) bounds space, so the bottom bar on screen is what it repaints.
    func testPartialRedrawUnderAFlip() {
        final class Bars: CALayer {
            var color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(color)
                ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 10))
                ctx.fill(CGRect(x: 0, y: 30, width: 20, height: 10))
            }
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 40)
        root.isGeometryFlipped = true
        let l = Bars()
        l.frame = root.bounds
        l.setNeedsDisplay()
        root.addSublayer(l)
        var bitmap = renderCPU(root, width: 20, height: 40)
        XCTAssertEqual(bitmap.rgba(10, 35), [255, 0, 0, 255])
        XCTAssertEqual(bitmap.rgba(10, 5), [255, 0, 0, 255])
        l.color = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        l.setNeedsDisplay(CGRect(x: 0, y: 0, width: 20, height: 10))
        bitmap = renderCPU(root, width: 20, height: 40)
        // y 0…10 of the layer is the bottom of the screen: repainted; y 30…40 at the top kept.
        XCTAssertEqual(bitmap.rgba(10, 35), [0, 0, 255, 255])
        XCTAssertEqual(bitmap.rgba(10, 5), [255, 0, 0, 255])
    }
}
