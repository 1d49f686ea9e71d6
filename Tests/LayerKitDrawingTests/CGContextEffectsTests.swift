@testable import LayerKitDrawing
import Foundation
import LayerKitCore
import XCTest

/// Radial gradients, shadows, image-mask clips, text and the bad-input rules of `CGContext`,
/// with pixels worked out by hand. Bitmap rows count from the top: in an H-pixel context the
/// pixel centre of row r is at user y = H − r − 0.5 (y up).
final class CGContextEffectsTests: XCTestCase {
    func pixels(_ ctx: CGContext) -> Bitmap { ctx.makeImage()!.bitmap }

    let blackToWhite = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [.black, .white], locations: [0, 1])!

    // MARK: Radial gradients

    /// An 8 x 8 context with the gradient from radius `r0` to 4 about (4, 4) drawn into it.
    func concentric(from r0: CGFloat, options: CGGradientDrawingOptions) -> Bitmap {
        let ctx = rgbaContext(8, 8)
        ctx.drawRadialGradient(blackToWhite, startCenter: CGPoint(x: 4, y: 4), startRadius: r0,
                               endCenter: CGPoint(x: 4, y: 4), endRadius: 4, options: options)
        return pixels(ctx)
    }

    func testConcentricRadialGradientFromAPoint() {
        let b = concentric(from: 0, options: [])
        // Row 3 has centres at y = 4.5: t = hypot(x + 0.5 − 4, 0.5) / 4, grey 255·t rounded.
        XCTAssertEqual((0..<8).map { b[$0, 3].r }, [225, 163, 101, 45, 45, 101, 163, 225])
        XCTAssertEqual((0..<8).map { b[$0, 3].a }, [UInt8](repeating: 255, count: 8))
        // The corner centre (0.5, 7.5) is 4.95 from the centre: beyond the end circle.
        XCTAssertEqual(b[0, 0].a, 0)
        let after = concentric(from: 0, options: .drawsAfterEndLocation)
        XCTAssertEqual([after[0, 0].r, after[0, 0].a], [255, 255])
    }

    func testStartCircleInsideIsPaintedOnlyWhenDrawnBefore() {
        // Circles of radius 2 and 4: the centre pixel (0.5 away) is inside the start circle.
        let b = concentric(from: 2, options: [])
        XCTAssertEqual(b[4, 3].a, 0)
        // (7.5, 4.5) is 3.54 out: t = (3.54 − 2) / 2 = 0.768, grey 195.8.
        XCTAssertEqual([b[7, 3].r, b[7, 3].a], [196, 255])
        let before = concentric(from: 2, options: .drawsBeforeStartLocation)
        XCTAssertEqual([before[4, 3].r, before[4, 3].a], [0, 255])
    }

    func testConeBetweenTwoCircles() {
        let ctx = rgbaContext(8, 8)
        // From a point at (2, 4) to radius 2 about (6, 4): a cone opening to the right.
        ctx.drawRadialGradient(blackToWhite, startCenter: CGPoint(x: 2, y: 4), startRadius: 0,
                               endCenter: CGPoint(x: 6, y: 4), endRadius: 2, options: [])
        let b = pixels(ctx)
        // (6.5, 4.5): the circle centred at 2 + 4t, radius 2t, through it solves
        // 12t² − 36t + 20.5 = 0; t = (18 − √78) / 12 = 0.764 (the other root, 2.24, is past
        // the end), grey 194.8.
        XCTAssertEqual([b[6, 3].r, b[6, 3].a], [195, 255])
        // (2.5, 7.5) is outside every circle of the cone.
        XCTAssertEqual(b[2, 0].a, 0)
        // Negative and non-finite radii draw nothing.
        let empty = rgbaContext(4, 4)
        empty.drawRadialGradient(blackToWhite, startCenter: .zero, startRadius: -1, endCenter: .zero, endRadius: 4,
                                 options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        empty.drawRadialGradient(blackToWhite, startCenter: .zero, startRadius: 0, endCenter: .zero, endRadius: .nan,
                                 options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        XCTAssertTrue(pixels(empty).pixels.allSatisfy { $0 == 0 })
    }

    // MARK: Shadows

    /// A 20 x 20 context with a 4 x 4 black square at user (2, 10), its shadow red, unblurred,
    /// 3 px right and 2 px down (offset y −2: y is up).
    func hardShadow(scaled: Bool) -> Bitmap {
        let ctx = rgbaContext(20, 20)
        ctx.setShadow(offset: CGSize(width: 3, height: -2), blur: 0, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        if scaled {
            ctx.scaleBy(x: 2, y: 2)
            ctx.fill(CGRect(x: 1, y: 5, width: 2, height: 2))
        } else {
            ctx.fill(CGRect(x: 2, y: 10, width: 4, height: 4))
        }
        return pixels(ctx)
    }

    func testShadowIsOffsetInBaseSpaceAndDrawnBeneath() {
        let b = hardShadow(scaled: false)
        // The square: columns 2…5, rows 6…9; its shadow: columns 5…8, rows 8…11.
        XCTAssertEqual(b[3, 7].a, 255)
        XCTAssertEqual(b[3, 7].r, 0)
        XCTAssertEqual(b[5, 8].r, 0)  // both: the square is on top
        XCTAssertEqual([b[7, 9].r, b[7, 9].a], [255, 255])
        XCTAssertEqual([b[8, 11].r, b[8, 11].a], [255, 255])
        XCTAssertEqual(b[9, 11].a, 0)
        XCTAssertEqual(b[8, 12].a, 0)
        XCTAssertEqual(b[6, 7].a, 0)
        // A CTM scale of 2 draws the same square; the offset stays 3 and −2 pixels.
        XCTAssertEqual(hardShadow(scaled: true), b)
    }

    func testShadowBlurIsAGaussianOfSigmaHalfTheBlur() {
        let ctx = rgbaContext(20, 20)
        ctx.setShadow(offset: .zero, blur: 4, color: .black)  // sigma 2
        ctx.setFillColor(.white)
        ctx.fill(CGRect(x: 0, y: -50, width: 10, height: 120))
        let b = pixels(ctx)
        // Right of the edge at x = 10, column 10 + j gets the taps at distance j + 1 … 6 (3σ) of
        // the normalised Gaussian w(i) ∝ exp(−i² / 8): 255 × Σ = 102.0, 57.1, 26.2, 9.7, 2.8, 0.6.
        let expected: [Int] = [102, 57, 26, 10, 3, 1, 0]
        for (j, a) in expected.enumerated() {
            XCTAssertEqual(Int(b[10 + j, 10].a), a, accuracy: 1, "column \(10 + j)")
        }
        XCTAssertEqual(b[10, 10].r, 0)
        XCTAssertEqual([b[9, 10].r, b[9, 10].a], [255, 255])
    }

    func testDefaultShadowColourIsAThirdBlackAndStateRestoresIt() {
        let ctx = rgbaContext(8, 8)
        ctx.saveGState()
        ctx.setShadow(offset: CGSize(width: 2, height: 0), blur: 0)
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        ctx.restoreGState()
        ctx.fill(CGRect(x: 0, y: 4, width: 2, height: 2))
        ctx.setShadow(offset: CGSize(width: 2, height: 0), blur: 0, color: nil)
        ctx.fill(CGRect(x: 4, y: 4, width: 2, height: 2))
        let b = pixels(ctx)
        XCTAssertEqual(b[2, 7].a, 85)  // 255 / 3
        XCTAssertEqual(b[2, 3].a, 0)  // after the restore: no shadow
        XCTAssertEqual(b[6, 3].a, 0)  // nil colour: no shadow
    }

    // MARK: Image masks

    func testClipToGreyscaleMaskAndItsRestore() {
        let white: [UInt8] = [255, 255, 255, 255], black: [UInt8] = [0, 0, 0, 255], grey: [UInt8] = [128, 128, 128, 255]
        let mask = CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: white + black + grey + white))
        let ctx = rgbaContext(4, 4)
        ctx.saveGState()
        ctx.interpolationQuality = .none
        ctx.clip(to: CGRect(x: 0, y: 0, width: 4, height: 4), mask: mask)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        var b = pixels(ctx)
        // Each mask pixel covers 2 x 2; its top row at the top.
        XCTAssertEqual([b[0, 0].r, b[0, 0].a], [255, 255])
        XCTAssertEqual(b[3, 1].a, 0)
        XCTAssertEqual([b[1, 2].r, b[1, 2].a], [128, 128])
        XCTAssertEqual(b[3, 3].a, 255)
        ctx.restoreGState()
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 2, y: 2, width: 2, height: 2))  // top right, unclipped again
        b = pixels(ctx)
        XCTAssertEqual([b[3, 1].b, b[3, 1].a], [255, 255])
    }

    func testClipToAlphaMaskOutsideItsRectAndIntersected() {
        // Alpha 255, 0 / 64, 255 (premultiplied black): the alpha is the mask.
        let mask = CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: [0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 255]))
        let ctx = rgbaContext(4, 4)
        ctx.clip(to: CGRect(x: 1, y: 1, width: 2, height: 2), mask: mask)  // rows 1, 2, columns 1, 2
        ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 4))  // and columns 0, 1
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        let b = pixels(ctx)
        XCTAssertEqual(b[1, 1].a, 255)
        XCTAssertEqual(b[1, 2].a, 64)
        XCTAssertEqual(b[2, 1].a, 0)  // mask 0
        XCTAssertEqual(b[2, 2].a, 0)  // mask 255 but outside the rectangle clip
        XCTAssertEqual(b[0, 0].a, 0)  // outside the mask's rectangle
        XCTAssertEqual(b[1, 3].a, 0)
    }

    // MARK: Antialiasing and interpolation

    func testShouldAntialiasOffPaintsPixelsHalfCovered() {
        let ctx = rgbaContext(4, 1)
        // x 0.25…2.2 covers 0.75, 1 and 0.2 of columns 0…2: 255 · 0.75 + 0.5 = 191.75, 255 and
        // 255 · 0.2 + 0.5 = 51.5, rounded down.
        ctx.fill(CGRect(x: 0.25, y: 0, width: 1.95, height: 1))
        XCTAssertEqual((0..<4).map { pixels(ctx)[$0, 0].a }, [191, 255, 51, 0])
        let aliased = rgbaContext(4, 1)
        aliased.setShouldAntialias(false)
        aliased.fill(CGRect(x: 0.25, y: 0, width: 1.95, height: 1))
        XCTAssertEqual((0..<4).map { pixels(aliased)[$0, 0].a }, [255, 255, 0, 0])
    }

    func testInterpolationQualityNoneVersusBilinear() {
        let image = CGImage(bitmap: Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255]))
        func draw(_ q: CGInterpolationQuality) -> [UInt8] {
            let ctx = rgbaContext(4, 1)
            ctx.interpolationQuality = q
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 1))
            return (0..<4).map { pixels(ctx)[$0, 0].r }
        }
        XCTAssertEqual(draw(.none), [0, 0, 255, 255])
        // Centres 0.5…3.5 land at image x 0.25, 0.75, 1.25, 1.75: bilinear between texel
        // centres 0.5 and 1.5, clamped at the edges: 0, 0.25, 0.75, 1.
        XCTAssertEqual(draw(.high), [0, 64, 191, 255])
        XCTAssertEqual(draw(.default), [0, 64, 191, 255])
    }

    // MARK: Text

    func testTextAdvanceIsTheShapedLineAndMovesTheTextPosition() throws {
        let ctx = rgbaContext(100, 40)
        let advance = ctx.draw(text: "ffi", at: CGPoint(x: 10, y: 10), size: 20)
        // "ffi" shapes to the one ligature glyph U+FB03, with its advance.
        let ligature = try XCTUnwrap(FontLibrary.withFonts { ShapedLine("\u{FB03}", font: nil, pixelSize: 20, fonts: $0) })
        let shaped = try XCTUnwrap(FontLibrary.withFonts { ShapedLine("ffi", font: nil, pixelSize: 20, fonts: $0) })
        XCTAssertEqual(shaped.glyphs.map(\.index), ligature.glyphs.map(\.index))
        XCTAssertEqual(Double(advance), ligature.width, accuracy: 1e-9)
        XCTAssertEqual(ctx.textPosition.x, 10 + advance, accuracy: 1e-9)
        XCTAssertEqual(ctx.textPosition.y, 10)
        // Under a CTM scale the text is shaped at 40 px; the advance in user units is the same.
        let scaled = rgbaContext(200, 80)
        scaled.scaleBy(x: 2, y: 2)
        XCTAssertEqual(scaled.draw(text: "ffi", at: .zero, size: 20), advance, accuracy: 1e-6)
        // Nothing to draw: no advance.
        XCTAssertEqual(ctx.draw(text: "", at: .zero, size: 20), 0)
        XCTAssertEqual(ctx.draw(text: "x", at: .zero, size: .nan), 0)
        XCTAssertEqual(ctx.draw(text: "x", at: .zero, size: -3), 0)
    }

    /// The painted pixels of `b` as (x0, y0, x1, y1), exclusive ends; `nil` when none.
    func ink(_ b: Bitmap) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<b.height { for x in 0..<b.width where b[x, y].a > 0 {
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
        } }
        return box
    }

    func testTextInkSitsOnTheBaselineUprightInBothYDirections() throws {
        // "H" in DejaVu Sans (2048 units an em) spans x 201…1339 and y 0…1493: at 20 px, ink
        // from x 1.96 to 13.08 past the pen and 14.58 above the baseline, stems 1.96 wide.
        let up = rgbaContext(60, 40)
        up.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        up.draw(text: "H", at: CGPoint(x: 10, y: 10), size: 20)  // baseline at row 30
        let b = pixels(up)
        let (x0, y0, x1, y1) = try XCTUnwrap(ink(b))
        XCTAssertEqual(y1, 30)  // nothing below the baseline
        XCTAssertEqual(y0, 15)  // 30 − 14.58 = 15.42
        XCTAssertEqual(x0, 11)  // 11.96: a sliver of column 11
        XCTAssertEqual(x1, 24)  // 23.08
        XCTAssertEqual([b[12, 20].b, b[12, 20].a], [255, 255])  // the left stem (11.96…13.93) is solid blue
        XCTAssertEqual(b[17, 17].a, 0)  // between the stems, above the bar

        // A flipped (layer-style, y down) context with the flipped text matrix that code for
        // Apple platforms sets: the same pixels for the same place on screen.
        let down = rgbaContext(60, 40)
        down.translateBy(x: 0, y: 40)
        down.scaleBy(x: 1, y: -1)
        down.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
        down.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        down.draw(text: "H", at: CGPoint(x: 10, y: 30), size: 20)
        XCTAssertEqual(pixels(down), b)
    }

    /// Upright text is rendered where it lands, not drawn as an image and resampled: at a pen
    /// x of 10.5 the "H"'s left stem (x 201…403 of 2048 units, 1.963…3.936 px at 20 px) covers
    /// 12.463…14.436, so column 12 is 0.537 covered (137 of 255), 13 wholly, 14 0.436 (111).
    /// (Resampling an image of the glyph at half a pixel's offset would give column 13 the mean
    /// of two texels, 245.) ±2 for FreeType's area rounding.
    func testUprightTextAtAFractionalPenIsRenderedThereExactly() {
        let ctx = rgbaContext(60, 40)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.draw(text: "H", at: CGPoint(x: 10.5, y: 10), size: 20)
        let b = pixels(ctx)
        XCTAssertEqual(Double(b[12, 20].a), 137, accuracy: 2)
        XCTAssertEqual(b[13, 20].a, 255)
        XCTAssertEqual(Double(b[14, 20].a), 111, accuracy: 2)
        XCTAssertEqual(b[11, 20].a, 0)
    }

    /// Rotated text goes through an image drawn with the CTM: a quarter turn stands the "H"
    /// on its side (its 14.6 px height now along x, to the left of the pen at (30, 20), and its
    /// 11.1 px width along y).
    func testRotatedTextIsDrawnThroughTheCTM() throws {
        let ctx = rgbaContext(60, 40)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.translateBy(x: 30, y: 20)
        ctx.rotate(by: .pi / 2)
        ctx.draw(text: "H", at: .zero, size: 20)
        // Text x (1.96…13.08) runs up the device (rows 20 − 13.08 … 20 − 1.96 from the
        // bottom, so rows 6.9…18.0 from the top); text y (0…14.58) runs to the left (x 15.4…30).
        let (x0, y0, x1, y1) = try XCTUnwrap(ink(pixels(ctx)))
        XCTAssertEqual(Double(x0), 15, accuracy: 1)
        XCTAssertEqual(Double(x1), 30, accuracy: 1)
        XCTAssertEqual(Double(y0), 7, accuracy: 1)
        XCTAssertEqual(Double(y1), 18, accuracy: 1)
    }

    // MARK: Bad input

    func testHugeAndZeroSizesGiveNil() {
        let rgb = CGColorSpaceCreateDeviceRGB(), info = CGImageAlphaInfo.premultipliedLast.rawValue
        for (w, h) in [(0, 0), (-1, 4), (4, 0), (Int.max, 1), (1, Int.max), (16385, 1), (20000, 20000)] {
            XCTAssertNil(CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                                   bitmapInfo: info), "\(w) x \(h)")
        }
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: Int.max, space: rgb,
                               bitmapInfo: info))
    }

    func testNaNInPathsAndCTMIsIgnored() {
        let ctx = rgbaContext(4, 4)
        ctx.concatenate(CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        ctx.rotate(by: .nan)
        XCTAssertEqual(ctx.ctm, .identity)
        ctx.move(to: CGPoint(x: 0, y: 0))
        ctx.addLine(to: CGPoint(x: 4, y: 0))
        ctx.addQuadCurve(to: CGPoint(x: CGFloat.nan, y: 4), control: .zero)
        ctx.addCurve(to: CGPoint(x: 4, y: 4), control1: CGPoint(x: 0, y: CGFloat.nan), control2: .zero)
        ctx.addLine(to: CGPoint(x: 4, y: 4))
        ctx.addLine(to: CGPoint(x: 0, y: 4))
        ctx.closePath()
        ctx.fillPath()  // the square, its NaN elements left out
        XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 255 || $0 == 0 })
        XCTAssertEqual(pixels(ctx)[1, 1].a, 255)
        ctx.setShadow(offset: CGSize(width: CGFloat.nan, height: 0), blur: 2)
        ctx.setShadow(offset: CGSize(width: 1e300, height: 0), blur: .infinity)
        ctx.draw(text: "x", at: CGPoint(x: CGFloat.nan, y: 0), size: 10)
        ctx.clear(CGRect(x: 0, y: 0, width: 4, height: 4))
        XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 0 })
    }

    func testExtremeTextSizesStayBounded() {
        let ctx = rgbaContext(40, 40)
        // A huge size is rendered at most 2,048 pixels long and scaled up. The "H" (advance
        // 1540 of 2048 units an em) has its left stem at x 201…402 units, y 0…1493: from the
        // pen at (−10⁵, −5·10⁵) it spans x −1,855…96,289 and y −5·10⁵…229,004, the whole context.
        XCTAssertEqual(ctx.draw(text: "H", at: CGPoint(x: -1e5, y: -5e5), size: 1e6), 1e6 * 1540 / 2048, accuracy: 1)
        XCTAssertEqual(pixels(ctx)[20, 20].a, 255)
        let tiny = rgbaContext(40, 40)
        tiny.scaleBy(x: 1e-9, y: 1e-9)
        tiny.draw(text: "H", at: .zero, size: 12)
        tiny.draw(text: String(repeating: "long line ", count: 2000), at: .zero, size: 1e4)
        XCTAssertEqual(pixels(tiny)[20, 20].a, 0)
        // A zero-width space alone: drawn, with no advance.
        XCTAssertEqual(ctx.draw(text: "\u{200B}", at: .zero, size: 12), 0)
    }

    func testUnbalancedRestoreIsIgnored() {
        let ctx = rgbaContext(2, 1)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.restoreGState()
        ctx.restoreGState()
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual([pixels(ctx)[0, 0].r, pixels(ctx)[0, 0].a], [255, 255])
    }

    func testAnImageIsACopyThatLaterDrawingLeavesAlone() {
        let ctx = rgbaContext(2, 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let image = ctx.makeImage()!
        ctx.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        ctx.clear(CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(image.bitmap.pixels, [0, 0, 0, 255, 0, 0, 0, 0])
        XCTAssertEqual(pixels(ctx).pixels, [0, 0, 0, 0, 0, 0, 0, 255])
    }

    func testDrawingFarOffOneSideOfTheContextDrawsNothing() {
        // Rectangles wholly beyond Int's range of pixels on one side (1e19 > Int.max).
        let ctx = rgbaContext(4, 4)
        let white = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [255, 255, 255, 255]))
        for r in [CGRect(x: 1e300, y: 0, width: 1, height: 1), CGRect(x: -1e300, y: 0, width: 1, height: 4),
                  CGRect(x: 0, y: 1e19, width: 4, height: 4), CGRect(x: 0, y: -1e19, width: 4, height: 1)] {
            ctx.fill(r)
            ctx.stroke(r)
            ctx.draw(white, in: r)
            ctx.clip(to: r, mask: white)
        }
        XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 0 })
        // A square from −1e300 to 1e300 covers every pixel wholly.
        let all = rgbaContext(4, 4)
        all.fill(CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300))
        XCTAssertEqual(Set(pixels(all).pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)), [255])
    }

    func testTransformsTheSingularityRuleRefusesDrawNothing() {
        // A 4-pixel image stretched 1e300 wide: its axes differ by far more than 1e12, which
        // the one singularity rule (`CGAffineTransform.hasInverse`) calls singular, so the
        // image cannot be sampled back and draws nothing, as under a singular CTM.
        let image = CGImage(bitmap: Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)))
        for quality in [CGInterpolationQuality.none, .default] {
            let ctx = rgbaContext(8, 8)
            ctx.interpolationQuality = quality
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 1e300, height: 8))
            XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 0 }, "\(quality)")
        }
        // So does a gradient under a CTM stretched 1e13 times along one axis only.
        let g = CGGradient(colorsSpace: nil, colors: [CGColor.black, CGColor.white], locations: nil)!
        let ctx = rgbaContext(4, 4)
        ctx.scaleBy(x: 1e13, y: 1)
        ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 0, y: 4), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 0 })
    }

    func testTextUnderAnEnormousCTMIsShapedAtABoundedSize() {
        // Shaped at an em of 1,024 pixels, not 1.2e155: the "H" advances 1540 of 2048 units an
        // em, 12 × 1540 / 2048 = 9.0234375 user units; its ink lies far beyond the context.
        let ctx = rgbaContext(4, 4)
        ctx.scaleBy(x: 1e154, y: 1e154)
        XCTAssertEqual(ctx.draw(text: "H", at: .zero, size: 12), 9.0234375, accuracy: 1e-6)
        XCTAssertTrue(pixels(ctx).pixels.allSatisfy { $0 == 0 })
    }
}
