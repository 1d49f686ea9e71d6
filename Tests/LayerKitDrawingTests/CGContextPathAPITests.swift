import Foundation
import LayerKitCore
import XCTest

/// The context's path calls that Core Graphics has beside the path builders: the tangent arc,
/// the stroked-path replacement, the `path` copy, `resetClip()` and the grey colour setters,
/// with geometry and pixels worked out by hand (y up, rows counted from the top in `Bitmap`).
final class CGContextPathAPITests: XCTestCase {
    func assertRect(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                    file: StaticString = #filePath, line: UInt = #line) {
        for (got, want) in [(r.minX, x), (r.minY, y), (r.width, w), (r.height, h)] {
            XCTAssertEqual(got, want, accuracy: 1e-9, file: file, line: line)
        }
    }

    /// From (0,0) towards (10,0) then up to (10,10) with radius 5: the first tangent point is
    /// 5 back from the corner, (5,0); the centre is (5,5); the arc ends at the second tangent
    /// point (10,5). Its Bézier control points stay within x 5…10, y 0…5. The arc is made in
    /// user space, so under a CTM scaling by 2 the user-space answers are the same.
    func testTangentArcEndsAtTheSecondTangentPoint() {
        for scale: CGFloat in [1, 2] {
            let ctx = rgbaContext(40, 40)
            ctx.scaleBy(x: scale, y: scale)
            ctx.move(to: .zero)
            ctx.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5)
            XCTAssertEqual(ctx.currentPointOfPath.x, 10, accuracy: 1e-9)
            XCTAssertEqual(ctx.currentPointOfPath.y, 5, accuracy: 1e-9)
            assertRect(ctx.boundingBoxOfPath, 0, 0, 10, 5)
        }
    }

    /// Without a current point Core Graphics adds nothing; a zero radius is a line to the corner.
    func testTangentArcWithoutCurrentPointOrRadius() {
        let ctx = rgbaContext(20, 20)
        ctx.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5)
        XCTAssertTrue(ctx.isPathEmpty)
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.addArc(tangent1End: CGPoint(x: 10, y: 1), tangent2End: CGPoint(x: 10, y: 10), radius: 0)
        XCTAssertEqual(ctx.currentPointOfPath, CGPoint(x: 10, y: 1))
    }

    /// A horizontal line y = 10 from x 2 to 18, 4 wide with butt caps, outlines to the rectangle
    /// x 2…18, y 8…12; filled, it paints bitmap rows 20−12 = 8 … 20−8−1 = 11, columns 2…17, and
    /// the same pixels as stroking the line.
    func testReplacePathWithStrokedPathFillsWhatTheStrokePaints() {
        func line(_ ctx: CGContext) {
            ctx.setLineWidth(4)
            ctx.move(to: CGPoint(x: 2, y: 10))
            ctx.addLine(to: CGPoint(x: 18, y: 10))
        }
        let filled = rgbaContext(20, 20)
        line(filled)
        filled.replacePathWithStrokedPath()
        assertRect(filled.boundingBoxOfPath, 2, 8, 16, 4)
        filled.fillPath()
        let stroked = rgbaContext(20, 20)
        line(stroked)
        stroked.strokePath()
        let a = filled.makeImage()!.bitmap, b = stroked.makeImage()!.bitmap
        XCTAssertEqual(a.pixels, b.pixels)
        XCTAssertEqual(a[2, 8].a, 255)
        XCTAssertEqual(a[17, 11].a, 255)
        XCTAssertEqual(a[1, 8].a, 0)
        XCTAssertEqual(a[18, 8].a, 0)
        XCTAssertEqual(a[2, 7].a, 0)
        XCTAssertEqual(a[2, 12].a, 0)
    }

    /// The line width is taken in user space at replacement: under a CTM scaling by 2 the same
    /// line outlines to x 2…18, y 8…12 in user space (4…36, 16…24 in pixels).
    func testReplacePathWithStrokedPathUsesTheCTM() {
        let ctx = rgbaContext(40, 40)
        ctx.scaleBy(x: 2, y: 2)
        ctx.setLineWidth(4)
        ctx.move(to: CGPoint(x: 2, y: 10))
        ctx.addLine(to: CGPoint(x: 18, y: 10))
        ctx.replacePathWithStrokedPath()
        assertRect(ctx.boundingBoxOfPath, 2, 8, 16, 4)
    }

    /// `path` is the current path in user space, `nil` when empty, and a copy.
    func testPathIsAUserSpaceCopy() {
        let ctx = rgbaContext(20, 20)
        XCTAssertNil(ctx.path)
        ctx.translateBy(x: 10, y: 10)
        ctx.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        let copy = ctx.path
        assertRect(copy!.boundingBox, 1, 2, 3, 4)
        ctx.beginPath()
        assertRect(copy!.boundingBox, 1, 2, 3, 4)
        XCTAssertNil(ctx.path)
    }

    /// Clipped to the bottom-left 5x5, then reset: a fill of the whole context reaches the top
    /// right pixel (bitmap 19, 0) again.
    func testResetClipLiftsTheClip() {
        let ctx = rgbaContext(20, 20)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 5))
        ctx.resetClip()
        assertRect(ctx.boundingBoxOfClipPath, 0, 0, 20, 20)
        ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(ctx.makeImage()!.bitmap[19, 0].a, 255)
    }

    /// Grey 0.5 is 0.5 × 255 = 127.5, stored as 128 in each channel; alpha 1 is 255.
    func testGreyColourSetters() {
        let ctx = rgbaContext(2, 1)
        ctx.setFillColor(gray: 0.5, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.setStrokeColor(gray: 1, alpha: 1)
        ctx.setLineWidth(1)
        ctx.move(to: CGPoint(x: 1, y: 0.5))
        ctx.addLine(to: CGPoint(x: 2, y: 0.5))
        ctx.strokePath()
        let b = ctx.makeImage()!.bitmap
        XCTAssertEqual([b[0, 0].r, b[0, 0].g, b[0, 0].b, b[0, 0].a], [128, 128, 128, 255])
        XCTAssertEqual([b[1, 0].r, b[1, 0].g, b[1, 0].b, b[1, 0].a], [255, 255, 255, 255])
    }
}
