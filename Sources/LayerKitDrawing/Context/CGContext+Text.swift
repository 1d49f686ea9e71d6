// Text drawn as `CATextLayer` shapes it: upright lines rendered where they land, any other
// transform through an image.

import Foundation

extension CGContext {
    /// Draws `text` on one line with its pen origin (the baseline's start) at `point` in text
    /// space, then moves `textPosition` to the end of its advance; returns that advance width
    /// in user units at the identity text matrix.
    ///
    /// A LayerKit extension, not Apple API: Core Graphics draws text through Core Text
    /// (`CTLineDraw`), whose attributed strings and font descriptors LayerKit does not have.
    /// The text is shaped as `CATextLayer` shapes it (HarfBuzz: ligatures, kerning, joining
    /// and conjuncts; FriBidi order for right-to-left runs; fallback fonts for characters
    /// `font` lacks) in `font` (a family name or font file, `nil` for the default family), at
    /// `size` user units, rendered by FreeType at the size it lands at in pixels and drawn as an
    /// image through `textMatrix` and the CTM: the fill colour (or `color`), the clip, alpha,
    /// blend mode and shadow apply; a line that would be over 2,048 pixels long (or an em over
    /// 1,024) is rendered smaller and scaled up, so memory stays bounded. Empty text, a size
    /// that is not positive and finite, or a font that cannot be found draw nothing and return 0.
    @discardableResult
    public func draw(text: String, at point: CGPoint, font: String? = nil, size: CGFloat, color: CGColor? = nil) -> CGFloat {
        guard point.x.isFinite, point.y.isFinite else { return 0 }
        textPosition = point
        let toUser = textMatrix.concatenating(CGAffineTransform(translationX: point.x, y: point.y))
        let toDevice = toUser.concatenating(state.ctm)
        guard !text.isEmpty, size > 0, size.isFinite, toDevice.hasInverse else { return 0 }
        let paint = color.map { PremultipliedColor($0) } ?? state.fill
        let toPixels = toDevice.concatenating(deviceToPixels)
        // Upright text at one scale in x and y, the usual case, is rendered where it lands.
        let upright = toPixels.b == 0 && toPixels.c == 0 && toPixels.a > 0 && toPixels.d == -toPixels.a
            && Double(size * toPixels.a) <= Double(TypedContent.maxImageSide) / 2
        guard let advance = upright
            ? drawUpright(text, font: font, size: Double(size), scale: Double(toPixels.a), at: CGPoint(x: toPixels.tx, y: toPixels.ty), paint)
            : drawAsImage(text, font: font, size: Double(size), toDevice: toDevice, paint) else { return 0 }
        textPosition = CGPoint(x: 0, y: 0).applying(CGAffineTransform(translationX: advance, y: 0).concatenating(toUser))
        return CGFloat(advance)
    }

    /// Draws a line of text whose text space maps to bitmap pixels by `scale` pixels a unit in
    /// x and y (upright) and a move of the pen origin to `origin`: its glyphs are rendered at
    /// their own pixel positions into one coverage (no intermediate image, no resampling) in
    /// the paint, or, for a line with colour glyphs (emoji), into colours of their own.
    /// Returns the advance in text units; `nil` when no font can be opened.
    private func drawUpright(_ text: String, font: String?, size: Double, scale: Double, at origin: CGPoint,
                             _ paint: PremultipliedColor) -> Double? {
        let (width, height, pixelSize) = (width, height, size * scale)
        let drawn = FontLibrary.withFonts { fonts -> (coverage: Coverage?, colors: Bitmap?, width: Double)? in
            guard let line = ShapedLine(text, font: font, pixelSize: pixelSize, fonts: fonts),
                  let primary = fonts.face(for: font) else { return nil }
            primary.setPixelSize(pixelSize)
            // Room around the advance box for glyphs that overhang it (italics, marks, swashes);
            // clamped to the context.
            let pad = (pixelSize / 2).rounded(.up) + 1, x = Double(origin.x), y = Double(origin.y)
            let x0 = clampedPixel((x - pad).rounded(.down), width), x1 = clampedPixel((x + line.width + pad).rounded(.up), width)
            let y0 = clampedPixel((y - primary.ascender - pad).rounded(.down), height)
            let y1 = clampedPixel((y + primary.descender + pad).rounded(.up), height)
            guard x0 < x1, y0 < y1 else { return (nil, nil, line.width) }
            let (w, h) = (x1 - x0, y1 - y0)
            guard line.hasColorGlyphs else {
                let plane = line.coverage(x: x - Double(x0), baseline: y - Double(y0), width: w, height: h)
                return (Coverage(box: plane, x0: x0, y0: y0, w: w, h: h), nil, line.width)
            }
            var colors = Bitmap(width: w, height: h)
            line.draw(x: x - Double(x0), baseline: y - Double(y0), color: paint, into: &colors)
            let plane = (0..<(w * h)).map { colors[$0 % w, $0 / w].a > 0 ? UInt8(255) : 0 }
            return (Coverage(box: plane, x0: x0, y0: y0, w: w, h: h), colors, line.width)
        }
        guard let drawn else { return nil }
        if let c = drawn.coverage, let colors = drawn.colors, let (x0, y0, _, _) = c.bounds {
            let width = width
            composite(c, .perPixel { i in Self.texel(colors, i % width - x0, i / width - y0) })
        } else if let c = drawn.coverage {
            composite(c, .uniform(paint))
        }
        return drawn.width / scale
    }

    /// Draws a line of text in any other text-to-device transform (rotated, skewed, mirrored,
    /// stretched, or an em over 1,024 pixels): rendered upright at the mean scale into an image
    /// (at most 2,048 pixels long, or rendered smaller and scaled up), which is drawn through
    /// `toDevice`. Returns the advance in text units; `nil` when no font can be opened.
    private func drawAsImage(_ text: String, font: String?, size: Double, toDevice: CGAffineTransform,
                             _ paint: PremultipliedColor) -> Double? {
        // Pixels per text unit: the mean stretch of the text space onto the device, at most an
        // em of 1,024 pixels before shaping (FreeType takes sizes in a 26.6 fixed-point Int).
        var scale = TypedContent.scale(abs(Double(toDevice.a * toDevice.d - toDevice.b * toDevice.c)).squareRoot(),
                                       fitting: size * 4)
        let drawn = FontLibrary.withFonts { fonts -> (image: CGImage, rect: CGRect, advance: Double)? in
            var line: ShapedLine?
            // Shaped once, and again smaller when the line's image would be too large to draw.
            for _ in 0..<2 {
                line = ShapedLine(text, font: font, pixelSize: size * scale, fonts: fonts)
                guard let l = line else { return nil }
                let longest = max(l.width, size * scale * 2)
                if longest <= Double(TypedContent.maxImageSide) / 2 { break }
                scale *= Double(TypedContent.maxImageSide) / 2 / longest
            }
            guard let line, let primary = fonts.face(for: font) else { return nil }
            primary.setPixelSize(size * scale)
            // Room around the advance box for glyphs that overhang it (italics, marks, swashes).
            let pad = (size * scale / 2).rounded(.up) + 1
            let ascent = (primary.ascender + pad).rounded(.up), descent = (primary.descender + pad).rounded(.up)
            let w = Int((line.width + 2 * pad).rounded(.up)), h = Int(ascent + descent)
            var bitmap = Bitmap(width: w, height: h)
            line.draw(x: pad, baseline: ascent, color: paint, into: &bitmap)
            let rect = CGRect(x: -pad / scale, y: -descent / scale, width: Double(w) / scale, height: Double(h) / scale)
            return (CGImage(bitmap: bitmap, source: "text"), rect, line.width / scale)
        }
        guard let drawn else { return nil }
        let kept = state.ctm
        state.ctm = toDevice
        draw(drawn.image, in: drawn.rect)
        state.ctm = kept
        return drawn.advance
    }
}
