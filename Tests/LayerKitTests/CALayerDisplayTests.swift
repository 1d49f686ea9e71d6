import Foundation
import LayerKitCore
import LayerKitTestSupport
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

    /// A drawing over 16,384 pixels a side has no bitmap, and says so (issue 23: it was
    /// dropped without a word); one at the limit is drawn, silently.
    func testAnOverLargeDrawingIsNotDrawnAndSaysSo() {
        let wide = square()
        wide.name = "wide"
        wide.bounds = CGRect(x: 0, y: 0, width: 8_192.5, height: 1)
        wide.contentsScale = 2
        var said = standardError { wide.display() }
        XCTAssertNil(wide.contents)
        XCTAssertEqual(wide.draws, 0)
        XCTAssertEqual(said, "LayerKit: warning: layer 'wide': its drawing would be 16385 x 2 pixels (bounds x contentsScale), "
                       + "over 16384 a side; it is not drawn\n")
        wide.bounds.size.width = 8_192
        said = standardError { wide.display() }
        XCTAssertEqual(wide.contents?.width, 16_384)
        XCTAssertEqual(said, "")
    }

    // MARK: Redrawing part of a layer (setNeedsDisplay(_:))

    /// Fills its whole bounds in the next of `colors` at each draw, keeping each context's
    /// `boundingBoxOfClipPath`.
    final class RepaintingLayer: CALayer {
        static let colors: [[CGFloat]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]
        var clips: [CGRect] = []
        override func draw(in ctx: CGContext) {
            let c = Self.colors[clips.count % Self.colors.count]
            clips.append(ctx.boundingBoxOfClipPath)
            ctx.setFillColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
            ctx.fill(bounds)
        }
    }

    let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    /// The columns and rows of `b` whose pixel is `color`, as the smallest box holding them
    /// (x0, y0, x1, y1; exclusive ends), after checking every other pixel is `other`.
    func box(of color: [UInt8], in b: Bitmap, elsewhere other: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        var (x0, y0, x1, y1) = (b.width, b.height, 0, 0)
        for y in 0..<b.height { for x in 0..<b.width {
            if b.rgba(x, y) == color {
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1))
            } else {
                XCTAssertEqual(b.rgba(x, y), other, "pixel \(x), \(y)", file: file, line: line)
            }
        } }
        for y in y0..<y1 { for x in x0..<x1 where b.rgba(x, y) != color { XCTFail("pixel \(x), \(y) in the box", file: file, line: line) } }
        return [x0, y0, x1, y1]
    }

    func testARectRedrawsOnlyItsPixelsOverThePreviousContents() {
        let l = RepaintingLayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.setNeedsDisplay()
        l.displayIfNeeded()
        let first = try! XCTUnwrap(l.contents)
        l.setNeedsDisplay(CGRect(x: 10, y: 10, width: 20, height: 20))
        XCTAssertTrue(l.needsDisplay())
        let before = CALayer.displayCount.load(ordering: .relaxed)
        l.displayIfNeeded()
        XCTAssertEqual(CALayer.displayCount.load(ordering: .relaxed) - before, 1)
        XCTAssertEqual(l.clips, [CGRect(x: 0, y: 0, width: 40, height: 40), CGRect(x: 10, y: 10, width: 20, height: 20)])
        // y down from the bounds' top left: rows 10…29, columns 10…29 are new.
        XCTAssertEqual(box(of: green, in: l.contents!.bitmap, elsewhere: red), [10, 10, 30, 30])
        XCTAssertFalse(l.contents === first)
        XCTAssertEqual(Set(stride(from: 0, to: first.bitmap.pixels.count, by: 4).map { first.bitmap.pixels[$0] }), [255],
                       "the earlier image is left as it was")
        // Nothing marked: nothing drawn.
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.count, 2)
    }

    func testAtScaleTwoTheRectIsRoundedOutToWholePixels() {
        let l = RepaintingLayer()
        l.bounds = CGRect(x: 5, y: 5, width: 20, height: 20)
        l.contentsScale = 2
        l.display()
        // In the bounds' space (5…25), x 10.3…15.3 and y 7.2…9.3: from the bounds' corner
        // 5.3…10.3 and 2.2…4.3 points, 10.6…20.6 and 4.4…8.6 pixels, out to 10…21 and 4…9.
        l.setNeedsDisplay(CGRect(x: 10.3, y: 7.2, width: 5, height: 2.1))
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.last, CGRect(x: 10, y: 7, width: 5.5, height: 2.5))
        XCTAssertEqual(box(of: green, in: l.contents!.bitmap, elsewhere: red), [10, 4, 21, 9])
    }

    func testMarkedRectsAddUpAndAWholeMarkWins() {
        let l = RepaintingLayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.display()
        l.setNeedsDisplay(CGRect(x: 2, y: 3, width: 4, height: 5))
        l.setNeedsDisplay(CGRect(x: 20, y: 30, width: -4, height: 2))  // standardized: 16…20, 30…32
        l.setNeedsDisplay(.zero)  // empty: adds nothing
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.last, CGRect(x: 2, y: 3, width: 18, height: 29))
        XCTAssertEqual(box(of: green, in: l.contents!.bitmap, elsewhere: red), [2, 3, 20, 32])
        l.setNeedsDisplay(CGRect(x: 2, y: 3, width: 4, height: 5))
        l.setNeedsDisplay()
        l.setNeedsDisplay(CGRect(x: 2, y: 3, width: 4, height: 5))
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.last, l.bounds)
        XCTAssertEqual(box(of: blue, in: l.contents!.bitmap, elsewhere: []), [0, 0, 40, 40])
        XCTAssertFalse(l.needsDisplay())
        l.setNeedsDisplay(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))
        XCTAssertTrue(l.needsDisplay(), "a rect with NaN marks the whole layer")
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.last, l.bounds)
    }

    func testTheWholeLayerIsDrawnWhenThePreviousPixelsDoNotFit() {
        let l = RepaintingLayer()
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let rect = CGRect(x: 1, y: 1, width: 2, height: 2)
        l.setNeedsDisplay(rect)  // never drawn before
        l.displayIfNeeded()
        l.bounds.size = CGSize(width: 12, height: 10)
        l.setNeedsDisplay(rect)
        l.displayIfNeeded()
        l.contentsScale = 2
        l.setNeedsDisplay(rect)
        l.displayIfNeeded()
        l.bounds.origin = CGPoint(x: 1, y: 0)
        l.setNeedsDisplay(rect)
        l.displayIfNeeded()
        l.contents = CGImage(bitmap: Bitmap(width: 24, height: 20))
        l.setNeedsDisplay(rect)
        l.displayIfNeeded()
        XCTAssertEqual(l.clips, [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 0, y: 0, width: 12, height: 10),
                                 CGRect(x: 0, y: 0, width: 12, height: 10), CGRect(x: 1, y: 0, width: 12, height: 10),
                                 CGRect(x: 1, y: 0, width: 12, height: 10)])
        // Now it fits: only the rect.
        l.setNeedsDisplay(rect)
        l.displayIfNeeded()
        XCTAssertEqual(l.clips.last, rect)
    }

    /// Redraws itself every frame, as an asynchronous `CAOpenGLLayer` does: its `display()`
    /// marks it again.
    final class EveryFrameLayer: CALayer {
        var displays = 0
        override func display() {
            displays += 1
            setNeedsDisplay()
        }
    }

    func testALayerMarkedByItsOwnDisplayIsDisplayedAtEachSnapshot() {
        let root = CALayer(), middle = CALayer(), other = square()
        let l = EveryFrameLayer()
        root.addSublayer(middle)
        root.addSublayer(other)
        middle.addSublayer(l)
        l.setNeedsDisplay()
        other.setNeedsDisplay()
        var snapshots: [LayerSnapshot] = []
        for _ in 0..<3 { snapshots.append(root.snapshot()) }
        XCTAssertEqual(l.displays, 3, "the mark made during display reaches the next commit, two levels down")
        XCTAssertEqual(other.draws, 1, "its unmarked sibling is drawn once")
        XCTAssertTrue(snapshots[2].sublayers[1] === snapshots[0].sublayers[1], "the sibling's snapshot is kept")
        XCTAssertTrue(l.needsDisplay())
    }

    /// Asks to be redrawn when `contentsScale` changes.
    final class ScaleDependentLayer: CALayer {
        override class func needsDisplay(forKey key: String) -> Bool { key == "contentsScale" }
    }

    func testNeedsDisplayForKeyCoversContentsScale() {
        let l = ScaleDependentLayer()
        l.contentsScale = 1
        XCTAssertFalse(l.needsDisplay(), "an unchanged scale marks nothing")
        l.contentsScale = 2
        XCTAssertTrue(l.needsDisplay())
        let plain = CALayer()
        plain.contentsScale = 2
        XCTAssertFalse(plain.needsDisplay(), "a plain layer's needsDisplay(forKey:) is false")
    }
}
