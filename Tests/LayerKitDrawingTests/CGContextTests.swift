import Foundation
import LayerKitCore
import XCTest

/// A `w` x `h` premultiplied RGBA context with memory of its own.
func rgbaContext(_ w: Int, _ h: Int) -> CGContext {
    CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

/// `CGContext` bitmap drawing with pixels worked out by hand. A raw bitmap context has Core
/// Graphics' y-up user space: a user rectangle y0…y1 of an H-pixel context covers the bitmap
/// rows H−y1 … H−y0−1 (rows counted from the top, as `Bitmap` stores them).
final class CGContextTests: XCTestCase {
    func context(_ w: Int = 8, _ h: Int = 8) -> CGContext { rgbaContext(w, h) }

    func pixels(_ ctx: CGContext) -> Bitmap { ctx.makeImage()!.bitmap }

    func rgba(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let p = b[x, y]
        return [p.r, p.g, p.b, p.a]
    }

    /// The columns of row `y` with any alpha.
    func paintedColumns(_ b: Bitmap, row y: Int) -> [Int] { (0..<b.width).filter { b[$0, y].a > 0 } }

    func testUnsupportedFormatsAndSizesGiveNil() {
        let rgb = CGColorSpaceCreateDeviceRGB(), info = CGImageAlphaInfo.premultipliedLast.rawValue
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: rgb, bitmapInfo: info))
        XCTAssertNil(CGContext(data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: info))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 15, space: rgb, bitmapInfo: info))
        XCTAssertNil(CGContext(data: nil, width: 100_000, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: info))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                               bitmapInfo: CGImageAlphaInfo.last.rawValue))
        XCTAssertNil(CGColorSpace(name: "no such space"))
        XCTAssertNotNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: info))
    }

    func testCallerMemoryInBGRAOrder() {
        var bytes = [UInt8](repeating: 0, count: 2 * 20)  // 2 rows of 20 bytes: 4 pixels and 4 spare
        bytes.withUnsafeMutableBytes { raw in
            let ctx = CGContext(data: raw.baseAddress, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: 20,
                                space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 1, width: 1, height: 1))  // y-up: the top row
        }
        XCTAssertEqual(Array(bytes[0..<4]), [0, 0, 255, 255])  // B G R A
        XCTAssertEqual(Array(bytes[20..<24]), [0, 0, 0, 0])
    }

    func testCallerWritesBetweenCallsAreKept() {
        var bytes = [UInt8](repeating: 0, count: 2 * 2 * 4)
        bytes.withUnsafeMutableBytes { raw in
            let ctx = CGContext(data: raw.baseAddress, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 8,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            ctx.fill(CGRect(x: 0, y: 1, width: 1, height: 1))  // top left: black
            raw.storeBytes(of: 255, toByteOffset: 4 + 3, as: UInt8.self)  // top right: alpha 255
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
            let b = ctx.makeImage()!.bitmap
            XCTAssertEqual(rgba(b, 0, 0), [0, 0, 128, 255])  // 0.5 blue over opaque black
            XCTAssertEqual(rgba(b, 1, 0), [0, 0, 128, 255])  // over the caller's opaque pixel
            XCTAssertEqual(rgba(b, 1, 1), [0, 0, 128, 128])
        }
    }

    /// A context with memory of its own draws into it directly and `makeImage()` shares it:
    /// drawing afterwards leaves the image as it was; `data`, asked for after drawing, holds
    /// the pixels drawn, and writes into it show in the next image.
    func testOwnMemoryImagesAndDataStayInStep() {
        let ctx = context(2, 1)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let first = ctx.makeImage()!
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        XCTAssertEqual(rgba(first.bitmap, 0, 0), [255, 0, 0, 255])
        XCTAssertEqual(rgba(first.bitmap, 1, 0), [0, 0, 0, 0])
        XCTAssertEqual(rgba(pixels(ctx), 0, 0), [0, 0, 255, 255])
        let data = ctx.data!.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: data, count: 8)), [0, 0, 255, 255, 0, 0, 255, 255])
        data[4] = 255  // the right pixel becomes magenta
        XCTAssertEqual(ctx.data, UnsafeMutableRawPointer(data), "the memory stays where it is")
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(Array(UnsafeBufferPointer(start: data, count: 8)), [0, 255, 0, 255, 255, 0, 255, 255])
        let last = pixels(ctx)
        XCTAssertEqual(rgba(last, 0, 0), [0, 255, 0, 255])
        XCTAssertEqual(rgba(last, 1, 0), [255, 0, 255, 255])
    }

    func testRectFillAtIntegerPositionsHasYUpOrigin() {
        let ctx = context()
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 2, y: 1, width: 3, height: 2))  // rows 8−3 = 5 and 6, columns 2…4
        let b = pixels(ctx)
        for y in 0..<8 { XCTAssertEqual(paintedColumns(b, row: y), y == 5 || y == 6 ? [2, 3, 4] : [], "row \(y)") }
        XCTAssertEqual(rgba(b, 2, 5), [255, 0, 0, 255])
    }

    func testRectFillAtHalfPixelCoversHalfPixels() {
        let ctx = context()
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 1.5, y: 0, width: 2, height: 8))
        let b = pixels(ctx)
        // Columns 1 and 3 are half covered: half of each row through them, 255 · 0.5 + 0.5 = 128.
        XCTAssertEqual(rgba(b, 0, 4), [0, 0, 0, 0])
        XCTAssertEqual(rgba(b, 1, 4), [128, 0, 0, 128])
        XCTAssertEqual(rgba(b, 2, 4), [255, 0, 0, 255])
        XCTAssertEqual(rgba(b, 3, 4), [128, 0, 0, 128])
        XCTAssertEqual(rgba(b, 4, 4), [0, 0, 0, 0])
    }

    func testCoverageAlongARowIsExact() {
        let ctx = context(4, 1)
        ctx.fill(CGRect(x: 0.2, y: 0, width: 2.4, height: 1))
        let b = pixels(ctx)
        // x 0.2…2.6 covers 0.8 of column 0 and 0.6 of column 2 on every row through them:
        // 0.8 · 255 = 204 and 0.6 · 255 = 153 (4 samples across a pixel would say 3/4 and 2/4).
        XCTAssertEqual((0..<4).map { b[$0, 0].a }, [204, 255, 153, 0])
    }

    func testAnEdgeBetweenTwoSampleRowsIsNotCrossed() {
        let ctx = context(4, 1)
        // In rows top down: the right side notches in to (3, 0.6) between y 0.55 and 0.65; the
        // edge from (4, 0.55) to (3, 0.6) starts and ends between the sample rows at y 0.375 and
        // 0.625, which therefore do not cross it.
        ctx.addLines(between: [CGPoint(x: 0, y: 1), CGPoint(x: 4, y: 1), CGPoint(x: 4, y: 0.45), CGPoint(x: 3, y: 0.4),
                               CGPoint(x: 4, y: 0.35), CGPoint(x: 4, y: 0), CGPoint(x: 0, y: 0)])
        ctx.fillPath()
        let b = pixels(ctx)
        // At y 0.625 the notch's lower edge is at x 3 + 0.025 / 0.05 = 3.5, so column 3 is
        // covered (1 + 1 + 0.5 + 1) / 4 = 0.875 of the way: 255 · 0.875 + 0.5 = 223.6, 223.
        XCTAssertEqual((0..<4).map { b[$0, 0].a }, [255, 255, 255, 223])
    }

    func testOnePixelLineAtHalfPixelOffsetFillsOneRow() {
        let ctx = context()
        ctx.setLineWidth(1)
        ctx.move(to: CGPoint(x: 0, y: 4.5))
        ctx.addLine(to: CGPoint(x: 8, y: 4.5))
        ctx.strokePath()
        XCTAssertTrue(ctx.isPathEmpty)
        let b = pixels(ctx)
        // y 4…5 up is row 8−5 = 3.
        for y in 0..<8 { XCTAssertEqual(paintedColumns(b, row: y), y == 3 ? Array(0..<8) : [], "row \(y)") }
        XCTAssertEqual(rgba(b, 5, 3), [0, 0, 0, 255])
    }

    func testCTMOrderTranslateThenScaleVersusScaleThenTranslate() {
        let a = context(20, 4)
        a.translateBy(x: 3, y: 0)
        a.scaleBy(x: 2, y: 2)
        XCTAssertEqual(a.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 3, ty: 0))
        a.fill(CGRect(x: 0, y: 0, width: 1, height: 1))  // x 3…5, y 0…2: rows 2, 3
        XCTAssertEqual(paintedColumns(pixels(a), row: 3), [3, 4])
        XCTAssertEqual(paintedColumns(pixels(a), row: 1), [])

        let b = context(20, 4)
        b.scaleBy(x: 2, y: 2)
        b.translateBy(x: 3, y: 0)
        XCTAssertEqual(b.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 6, ty: 0))
        b.fill(CGRect(x: 0, y: 0, width: 1, height: 1))  // x 6…8
        XCTAssertEqual(paintedColumns(pixels(b), row: 3), [6, 7])
    }

    func testPathIsTransformedWhenBuilt() {
        let ctx = context()
        ctx.move(to: .zero)
        ctx.translateBy(x: 4, y: 0)  // moves what comes next only
        ctx.addLine(to: CGPoint(x: 0, y: 8))  // device (4, 8)
        ctx.addLine(to: CGPoint(x: -4, y: 8))  // device (0, 8)
        ctx.closePath()
        XCTAssertEqual(ctx.boundingBoxOfPath, CGRect(x: -4, y: 0, width: 4, height: 8))
        ctx.fillPath()
        // A triangle (0,0), (4,8), (0,8) device: at the top row (y 7…8 up) x runs 0…4 minus a sliver.
        XCTAssertEqual(paintedColumns(pixels(ctx), row: 0), [0, 1, 2, 3])
        XCTAssertEqual(paintedColumns(pixels(ctx), row: 7), [0])
    }

    func testSaveAndRestoreColourAndClip() {
        let ctx = context()
        ctx.restoreGState()  // unbalanced: ignored
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.saveGState()
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 4, height: 8))
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.restoreGState()
        ctx.restoreGState()
        ctx.fill(CGRect(x: 4, y: 0, width: 4, height: 8))  // red, and no longer clipped away
        let b = pixels(ctx)
        XCTAssertEqual(rgba(b, 3, 2), [0, 0, 255, 255])
        XCTAssertEqual(rgba(b, 4, 2), [255, 0, 0, 255])
        XCTAssertEqual(rgba(b, 7, 7), [255, 0, 0, 255])
    }

    func testEvenOddAndWindingOnNestedSquares() {
        for (rule, centre) in [(CGPathFillRule.winding, UInt8(255)), (.evenOdd, 0)] {
            let ctx = context()
            ctx.addRect(CGRect(x: 0, y: 0, width: 8, height: 8))
            ctx.addRect(CGRect(x: 2, y: 2, width: 4, height: 4))  // same direction: winding 2 inside
            ctx.fillPath(using: rule)
            let b = pixels(ctx)
            XCTAssertEqual(b[4, 4].a, centre, "\(rule)")
            XCTAssertEqual(b[0, 0].a, 255, "\(rule)")
            XCTAssertEqual(b[1, 4].a, 255, "\(rule)")
        }
    }

    func testClipToRect() {
        let ctx = context()
        ctx.clip(to: CGRect(x: 2, y: 2, width: 2, height: 2))  // columns 2, 3; rows 8−4 = 4, 5
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        let b = pixels(ctx)
        for y in 0..<8 { XCTAssertEqual(paintedColumns(b, row: y), y == 4 || y == 5 ? [2, 3] : [], "row \(y)") }
        XCTAssertEqual(ctx.boundingBoxOfClipPath, CGRect(x: 2, y: 2, width: 2, height: 2))
    }

    func testDashPhaseShiftsThePattern() {
        func dashed(phase: CGFloat) -> [Int] {
            let ctx = context()
            ctx.setLineDash(phase: phase, lengths: [2, 2])
            ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 0.5), CGPoint(x: 8, y: 0.5)])
            return paintedColumns(pixels(ctx), row: 7)
        }
        XCTAssertEqual(dashed(phase: 0), [0, 1, 4, 5])  // dashes 0…2, 4…6
        XCTAssertEqual(dashed(phase: 1), [0, 3, 4, 7])  // dashes −1…1, 3…5, 7…9
    }

    /// Dash lengths whose sum overflows (issue 23's fuzzer found the walk endless): a dash of
    /// 1.8e308 covers the line, and a phase of −1.8e308 starts in the gap, so nothing is drawn.
    func testDashesWhoseSumOverflows() {
        func dashed(phase: CGFloat) -> [Int] {
            let ctx = context()
            ctx.setLineDash(phase: phase, lengths: [.greatestFiniteMagnitude, .greatestFiniteMagnitude])
            ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 0.5), CGPoint(x: 8, y: 0.5)])
            return paintedColumns(pixels(ctx), row: 7)
        }
        XCTAssertEqual(dashed(phase: 0), Array(0..<8))
        XCTAssertEqual(dashed(phase: -.greatestFiniteMagnitude), [])
    }

    func testMultiplyBlendOfTwoColours() {
        let ctx = context()
        ctx.setFillColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.setBlendMode(.multiply)
        ctx.setFillColor(red: 1, green: 0.5, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 8))
        let b = pixels(ctx)
        // (1, 128/255, 0) × (1, 0.5, 1) = (1, 64/255, 0).
        XCTAssertEqual(rgba(b, 0, 0), [255, 64, 0, 255])
        XCTAssertEqual(rgba(b, 4, 0), [255, 128, 0, 255])
    }

    func testClearAndCopyIgnoreWhatWasThere() {
        let ctx = context()
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.clear(CGRect(x: 0, y: 0, width: 4, height: 8))
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        ctx.fill(CGRect(x: 6, y: 0, width: 2, height: 8))
        let b = pixels(ctx)
        XCTAssertEqual(rgba(b, 0, 0), [0, 0, 0, 0])
        XCTAssertEqual(rgba(b, 5, 0), [0, 0, 0, 255])
        XCTAssertEqual(rgba(b, 7, 0), [0, 128, 0, 128])  // 0.5 · 255 = 127.5, rounded up
    }

    func testDrawImagePlacement() {
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255], white: [UInt8] = [255, 255, 255, 255]
        let image = CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: red + green + blue + white))
        let ctx = context(4, 4)
        ctx.draw(image, in: CGRect(x: 1, y: 1, width: 2, height: 2))  // y 1…3 up: rows 1, 2
        var b = pixels(ctx)
        XCTAssertEqual(rgba(b, 1, 1), red)  // the image's top row at the rect's top
        XCTAssertEqual(rgba(b, 2, 1), green)
        XCTAssertEqual(rgba(b, 1, 2), blue)
        XCTAssertEqual(rgba(b, 2, 2), white)
        XCTAssertEqual(rgba(b, 0, 0), [0, 0, 0, 0])
        XCTAssertEqual(rgba(b, 3, 3), [0, 0, 0, 0])

        let big = context(4, 4)
        big.interpolationQuality = .none
        big.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        b = pixels(big)
        XCTAssertEqual(rgba(b, 1, 1), red)
        XCTAssertEqual(rgba(b, 3, 0), green)
        XCTAssertEqual(rgba(b, 0, 3), blue)
        XCTAssertEqual(rgba(b, 2, 2), white)
    }

    func testNonFiniteNumbersAreIgnored() {
        let ctx = context()
        ctx.translateBy(x: .nan, y: 0)
        ctx.scaleBy(x: .infinity, y: 1)
        XCTAssertEqual(ctx.ctm, .identity)
        ctx.move(to: CGPoint(x: CGFloat.nan, y: 0))
        ctx.addLine(to: CGPoint(x: 0, y: CGFloat.infinity))
        ctx.addArc(center: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: false)
        XCTAssertTrue(ctx.isPathEmpty)
        ctx.setLineWidth(.nan)
        ctx.fill(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 8))
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(pixels(ctx)[0, 7].a, 255)
    }

    /// A pen far wider than the context with round caps covers it. At 4e15 wide the round
    /// pieces' angular step, 2·acos(1 - 0.1 / 2e15), underflows to 0: their point count is now
    /// bounded (it was converted from infinity and trapped), and the pixel bounds are clamped
    /// before they become Ints.
    func testEnormousRoundPenCoversTheContext() {
        let ctx = context()
        ctx.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.setLineWidth(4e15)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: 2, y: 2))
        ctx.addLine(to: CGPoint(x: 6, y: 2))
        ctx.strokePath()
        XCTAssertEqual(pixels(ctx)[0, 0].a, 255)
        XCTAssertEqual(pixels(ctx)[7, 7].b, 255)
        // 1e20 wide, the outline's pixel bounds lie beyond Int's range; stroking returns (it
        // trapped converting them), whatever the sampling precision at such sizes paints.
        ctx.setLineWidth(1e20)
        ctx.move(to: CGPoint(x: 2, y: 2))
        ctx.addLine(to: CGPoint(x: 6, y: 2))
        ctx.strokePath()
        XCTAssertTrue(ctx.isPathEmpty)
    }

    func testArcQuarterAndFillEllipse() {
        let ctx = context(20, 20)
        ctx.move(to: CGPoint(x: 0, y: 0))
        ctx.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        ctx.closePath()
        let box = ctx.boundingBoxOfPath
        XCTAssertEqual(box.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(box.maxX, 10, accuracy: 1e-9)
        XCTAssertEqual(box.maxY, 10, accuracy: 1e-9)
        ctx.fillPath()
        let b = pixels(ctx)
        XCTAssertEqual(b[0, 19].a, 255)  // near the centre
        XCTAssertEqual(b[9, 10].a, 0)  // (9.5, 9.5) is 13.4 from the centre
        XCTAssertEqual(b[6, 13].a, 255)  // (6.5, 6.5) is 9.2 from the centre
    }
}

final class CGContextGradientAndStrokeTests: XCTestCase {
    func context(_ w: Int = 8, _ h: Int = 8) -> CGContext { rgbaContext(w, h) }

    func testLinearGradientBetweenItsEnds() {
        let ctx = context(8, 1)
        let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [.black, .white], locations: [0, 1])!
        ctx.drawLinearGradient(g, start: CGPoint(x: 2, y: 0), end: CGPoint(x: 6, y: 0), options: [])
        let b = ctx.makeImage()!.bitmap
        // Centres 2.5…5.5 are at (x − 2)/4 = 0.125, 0.375, 0.625, 0.875 of the way: 255·t rounded.
        XCTAssertEqual((0..<8).map { b[$0, 0].r }, [0, 0, 32, 96, 159, 223, 0, 0])
        XCTAssertEqual((0..<8).map { b[$0, 0].a }, [0, 0, 255, 255, 255, 255, 0, 0])

        ctx.drawLinearGradient(g, start: CGPoint(x: 2, y: 0), end: CGPoint(x: 6, y: 0),
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let c = ctx.makeImage()!.bitmap
        XCTAssertEqual([c[0, 0].r, c[0, 0].a, c[7, 0].r], [0, 255, 255])
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: [.black], locations: [0, 1]))
    }

    func testStrokeWidthFollowsTheCTM() {
        let ctx = context()
        ctx.scaleBy(x: 2, y: 2)
        ctx.setLineWidth(1)  // 2 pixels
        ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 2.5), CGPoint(x: 4, y: 2.5)])  // device y 4…6
        let b = ctx.makeImage()!.bitmap
        XCTAssertEqual((0..<8).filter { b[0, $0].a > 0 }, [2, 3])
        XCTAssertEqual(b[7, 2].a, 255)
    }

    /// A stroke with butt caps and a round join is its segments' rectangles (half the width
    /// either side) and the join's sector on the outer side of the corner. Here the pen (20
    /// wide) is wider than the first segment is long (7) and the corner turns by 60°, so the
    /// second rectangle reaches back behind the first segment's start: pixels wholly inside
    /// either rectangle are covered fully, pixels wholly outside every piece not at all.
    func testWideStrokeOfAShortSegmentIsItsRectanglesAndJoin() {
        let ctx = context(64, 64)
        ctx.setLineWidth(20)
        ctx.setLineJoin(.round)
        let p0 = SIMD2(14.0, 20.0), p1 = p0 + SIMD2(7, 0), p2 = p1 + 20 * SIMD2(cos(Double.pi / 3), sin(Double.pi / 3))
        ctx.addLines(between: [p0, p1, p2].map { CGPoint(x: $0.x, y: $0.y) })
        ctx.strokePath()
        let b = ctx.makeImage()!.bitmap
        /// How far `q` lies outside the rectangle of the segment from `a` to `c`, 10 either
        /// side (0 inside), and whether it lies inside.
        func outside(_ q: SIMD2<Double>, _ a: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
            let length = ((c - a) * (c - a)).sum().squareRoot(), d = (c - a) / length, v = q - a
            let along = (v * d).sum(), across = abs(v.x * d.y - v.y * d.x)
            return hypot(max(-along, along - length, 0), max(across - 10, 0))
        }
        var inside = 0
        for row in 0..<64 {
            for x in 0..<64 {
                let corners = [(0.0, 0.0), (1, 0), (0, 1), (1, 1)].map { SIMD2(Double(x) + $0.0, 64 - Double(row) - $0.1) }  // y up
                if corners.allSatisfy({ outside($0, p0, p1) == 0 }) || corners.allSatisfy({ outside($0, p1, p2) == 0 }) {
                    inside += 1
                    XCTAssertEqual(b[x, row].a, 255, "pixel \(x), \(row)")
                }
                let centre = SIMD2(Double(x) + 0.5, 63.5 - Double(row)), toJoin = centre - p1
                if outside(centre, p0, p1) > 0.71, outside(centre, p1, p2) > 0.71, (toJoin * toJoin).sum().squareRoot() > 10.71 {
                    XCTAssertEqual(b[x, row].a, 0, "pixel \(x), \(row)")
                }
            }
        }
        XCTAssertGreaterThan(inside, 300)
    }
}
