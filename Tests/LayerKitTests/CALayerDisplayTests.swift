import Foundation
import LayerKit
import XCTest

/// Custom drawing: `draw(in:)`, the delegate's `display(_:)` and `draw(_:in:)`, and when layers
/// are displayed (only when marked, at the snapshot that commits a frame).
final class CALayerDisplayTests: XCTestCase {
    /// Fills a 1 x 1 point square at the bounds' origin in `color`, counting its draws.
    final class SquareLayer: CALayer {
        var draws = 0
        var color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        override func draw(in ctx: CGContext) {
            draws += 1
            ctx.setFillColor(color)
            ctx.fill(CGRect(x: bounds.minX, y: bounds.minY, width: 1, height: 1))
        }
    }

    final class Painter: CALayerDelegate {
        var drawn = 0, displayed = 0
        var displays = false
        func draw(_ layer: CALayer, in ctx: CGContext) {
            drawn += 1
            ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        }
    }

    final class ImageSetter: CALayerDelegate {
        let image = CGImage(bitmap: Bitmap(width: 1, height: 1))
        func display(_ layer: CALayer) { layer.contents = image }
        func draw(_ layer: CALayer, in ctx: CGContext) { XCTFail("display(_:) replaces drawing") }
    }

    func square(_ size: CGFloat = 4) -> SquareLayer {
        let l = SquareLayer()
        l.frame = CGRect(x: 0, y: 0, width: size, height: size)
        return l
    }

    func testDisplayDrawsYDownFromTheBoundsTopLeft() {
        let l = square()
        l.bounds.origin = CGPoint(x: 10, y: 20)
        l.display()
        let b = try! XCTUnwrap(l.contents).bitmap
        XCTAssertEqual([b.width, b.height], [4, 4])
        XCTAssertEqual(b.rgba(0, 0), [255, 0, 0, 255])  // the top-left pixel, not the bottom-left
        XCTAssertEqual(b.rgba(0, 3), [0, 0, 0, 0])
        XCTAssertEqual(b.rgba(1, 0), [0, 0, 0, 0])
    }

    func testContentsScaleTwoGivesATwiceAsLargeBitmap() {
        let l = square(3)
        l.contentsScale = 2
        l.display()
        let b = try! XCTUnwrap(l.contents).bitmap
        XCTAssertEqual([b.width, b.height], [6, 6])
        // The 1-point square is 2 x 2 pixels.
        XCTAssertEqual((0..<6).filter { b[$0, 0].a > 0 }, [0, 1])
        XCTAssertEqual((0..<6).filter { b[0, $0].a > 0 }, [0, 1])
    }

    final class ShadowedSquare: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setShadow(offset: CGSize(width: 1, height: 2), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
    }

    func testShadowOffsetInALayerContextIsInPointsWithYDown() {
        // As a layer's context on iOS: base space is the layer's points, y down, so the offset
        // (1, 2) points at contentsScale 2 moves the shadow 2 pixels right and 4 down.
        let l = ShadowedSquare()
        l.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        l.contentsScale = 2
        l.display()
        let b = try! XCTUnwrap(l.contents).bitmap
        XCTAssertEqual(b.rgba(0, 0), [0, 0, 0, 255])  // the square: pixels 0…1, 0…1
        XCTAssertEqual((0..<8).filter { b[$0, 4].a > 0 }, [2, 3])  // the shadow: columns 2…3,
        XCTAssertEqual((0..<8).filter { b[2, $0].a > 0 }, [4, 5])  // rows 4…5
        XCTAssertEqual(b.rgba(3, 5), [0, 0, 255, 255])
    }

    func testNewLayersAreNotDisplayedAndMarkedOnesOnceAtTheSnapshot() {
        let root = CALayer()
        let l = square()
        root.addSublayer(l)
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 0)
        XCTAssertNil(l.contents)
        l.setNeedsDisplay()
        XCTAssertTrue(l.needsDisplay())
        XCTAssertEqual(l.draws, 0, "drawing waits for the commit")
        let first = root.snapshot()
        XCTAssertEqual(l.draws, 1)
        XCTAssertFalse(l.needsDisplay())
        XCTAssertNotNil(first.sublayers[0].properties.contents)
        for _ in 0..<3 { XCTAssertTrue(root.snapshot() === first) }
        XCTAssertEqual(l.draws, 1, "an unmarked layer is not redrawn across frames")
        l.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        l.setNeedsDisplay()
        _ = root.snapshot()
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 2, "two marks before a frame redraw once")
    }

    func testOnlyTheMarkedLayerIsRedrawn() {
        let root = CALayer()
        let a = square(), b = square()
        root.addSublayer(a)
        root.addSublayer(b)
        a.setNeedsDisplay()
        b.setNeedsDisplay()
        _ = root.snapshot()
        b.setNeedsDisplay()
        _ = root.snapshot()
        XCTAssertEqual([a.draws, b.draws], [1, 2])
    }

    func testNeedsDisplayOnBoundsChange() {
        let l = square()
        l.bounds.size = CGSize(width: 5, height: 5)
        XCTAssertFalse(l.needsDisplay())
        l.needsDisplayOnBoundsChange = true
        l.bounds.origin = CGPoint(x: 1, y: 1)
        XCTAssertFalse(l.needsDisplay(), "only a size change redraws")
        l.bounds.size = CGSize(width: 6, height: 5)
        XCTAssertTrue(l.needsDisplay())
        l.displayIfNeeded()
        XCTAssertEqual(l.draws, 1)
        XCTAssertEqual(l.contents?.width, 6)
    }

    func testDelegateDrawsAndDelegateDisplayReplacesDrawing() {
        let painter = Painter()
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        l.delegate = painter
        l.display()
        XCTAssertEqual(painter.drawn, 1)
        XCTAssertEqual(l.contents?.bitmap.rgba(0, 0), [0, 0, 0, 255])
        XCTAssertEqual(l.contents?.bitmap.rgba(2, 0), [0, 0, 0, 0])

        let setter = ImageSetter()
        l.delegate = setter
        l.display()
        XCTAssertTrue(l.contents === setter.image)
    }

    func testEmptyBoundsGiveNoContents() {
        let l = SquareLayer()
        l.contents = CGImage(bitmap: Bitmap(width: 1, height: 1))
        l.display()
        XCTAssertNil(l.contents)
        XCTAssertEqual(l.draws, 0)
    }
}
