import Foundation

/// What a `CATextLayer` draws: its string laid out in the bounds and drawn with FreeType.
///
/// Layout follows CATextLayer: text starts at the top of the bounds (the first line's
/// ascender at y = 0), lines are the font's line height apart, `\n` starts a paragraph.
/// `isWrapped` breaks lines at the bounds' width after spaces or between CJK characters (inside
/// a word only when the word alone is too wide); `alignmentMode` places each line (natural is
/// left, or right for a paragraph whose first strong character is right-to-left; justified stretches the spaces of wrapped lines except a
/// paragraph's last). `truncationMode` replaces what does not fit with "…": at the start,
/// middle or end of each line wider than the bounds, or of the last line that fits when
/// wrapped text runs out of height (the lines below it are dropped). Otherwise whatever falls
/// outside the bounds is clipped. Paragraphs are shaped by HarfBuzz (`TextShaper`: ligatures,
/// kerning, Arabic joining, Indic conjuncts, marks) and ordered for display by the Unicode
/// bidirectional algorithm (FriBidi) line by line; characters the font lacks come from a
/// fallback font (`FontLibrary`). Sizes are in points
/// times `scale`, positions fractional, so text is as crisp as `contentsScale` allows.
enum TextContent {
    /// The text over `bounds` at `scale` pixels per point; `nil` when nothing is drawn.
    static func render(_ style: TextStyle, bounds: CGRect, scale: Double) -> (image: CGImage, rect: CGRect)? {
        guard let string = style.string, !string.isEmpty, let color = style.foregroundColor, color.alpha > 0,
              style.fontSize > 0, bounds.width > 0, bounds.height > 0 else { return nil }
        // FreeType renders a whole glyph, so the font size is held to the image size too.
        let scale = TypedContent.scale(scale, fitting: Double(max(bounds.width, bounds.height, style.fontSize)))
        let w = max(Int((Double(bounds.width) * scale).rounded(.up)), 1)
        let h = max(Int((Double(bounds.height) * scale).rounded(.up)), 1)
        return FontLibrary.withFonts { fonts -> (image: CGImage, rect: CGRect)? in
            guard let primary = fonts.face(for: style.font) else { return nil }
            let typesetter = Typesetter(fonts: fonts, primary: primary, family: style.font, pixelSize: Double(style.fontSize) * scale)
            let lines = typesetter.lines(string, style: style, width: Double(bounds.width) * scale,
                                         height: Double(bounds.height) * scale)
            var bitmap = Bitmap(width: w, height: h)
            let paint = PremultipliedColor(color)
            for (i, line) in lines.enumerated() {
                let baseline = primary.ascender + Double(i) * primary.lineHeight
                if baseline - primary.ascender >= Double(h) { break }
                line.draw(x: 0, baseline: baseline, color: paint, into: &bitmap)
            }
            return (CGImage(bitmap: bitmap, source: "text"), bounds)
        }
    }
}

/// Turns a string into placed lines of glyphs for one text layer.
private struct Typesetter {
    let fonts: FontLibrary
    let primary: FontFace
    let family: String?
    let pixelSize: Double
    let shaper: TextShaper

    init(fonts: FontLibrary, primary: FontFace, family: String?, pixelSize: Double) {
        (self.fonts, self.primary, self.family, self.pixelSize) = (fonts, primary, family, pixelSize)
        shaper = TextShaper(fonts: fonts, primary: primary, family: family, pixelSize: pixelSize)
        primary.setPixelSize(pixelSize)
    }

    /// The lines to draw, glyph pen positions set, for a `width` x `height` pixel box.
    func lines(_ string: String, style: TextStyle, width: Double, height: Double) -> [ShapedLine] {
        // A line: its glyphs, and whether a paragraph ends with it (justification skips those).
        var lines: [(glyphs: [ShapedGlyph], last: Bool)] = []
        for paragraph in paragraphs(string) {
            if style.isWrapped {
                let broken = wrap(paragraph, width: width)
                lines += broken.enumerated().map { ($1, $0 == broken.count - 1) }
            } else {
                lines.append((paragraph, true))
            }
        }
        if style.truncationMode != .none {
            if style.isWrapped {
                // The last line that fits takes the rest of its paragraph, then is cut to fit.
                let fitting = max(Int(((height + 1e-6) / primary.lineHeight).rounded(.down)), 1)
                if lines.count > fitting {
                    var rest = lines[fitting - 1].glyphs
                    if !lines[fitting - 1].last {
                        for l in lines[fitting...] {
                            rest += l.glyphs
                            if l.last { break }
                        }
                    }
                    lines = Array(lines[..<(fitting - 1)]) + [(kerned(rest), true)]
                }
            }
            lines = lines.map { l in measure(l.glyphs) > width ? (truncate(l.glyphs, width: width, mode: style.truncationMode), true) : l }
        }
        return lines.map { place($0.glyphs, last: $0.last, width: width, alignment: style.alignmentMode) }
    }

    /// The string's paragraphs as shaped glyphs.
    private func paragraphs(_ string: String) -> [[ShapedGlyph]] {
        let breaks: Set<UInt32> = [0x0A, 0x0D, 0x2028, 0x2029]
        var result: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar? = nil
        for s in string.unicodeScalars {
            defer { previous = s }
            if breaks.contains(s.value) {
                // "\r\n" is one break.
                if !(s.value == 0x0A && previous?.value == 0x0D) { result.append([]) }
                continue
            }
            let scalar = s == "\t" ? " " : s
            if scalar.properties.generalCategory == .control { continue }
            result[result.count - 1].append(scalar)
        }
        return result.map { kerned(shaper.shape($0)) }
    }

    /// The width of a run of glyphs, trailing spaces left out.
    private func measure(_ glyphs: some Collection<ShapedGlyph>) -> Double {
        var width = 0.0, inked = 0.0
        for g in glyphs {
            if !g.isSpace { inked = width + g.advance }
            width += g.advance + g.kern
        }
        return inked
    }

    /// Greedy line breaking within `width`.
    private func wrap(_ paragraph: [ShapedGlyph], width: Double) -> [[ShapedGlyph]] {
        var lines: [[ShapedGlyph]] = []
        var start = 0
        while start < paragraph.count {
            var end = start, lastBreak: Int? = nil
            while end < paragraph.count {
                if end > start && (paragraph[end - 1].isSpace && !paragraph[end].isSpace || paragraph[end - 1].isCJK || paragraph[end].isCJK) {
                    lastBreak = end
                }
                if !paragraph[end].isSpace && measure(paragraph[start...end]) > width { break }
                end += 1
            }
            if end < paragraph.count {
                // Break at the last opportunity, or inside the word when it alone is too wide.
                end = lastBreak ?? max(end, start + 1)
            }
            lines.append(kerned(Array(paragraph[start..<end])))
            start = end
        }
        return lines.isEmpty ? [[]] : lines
    }

    /// The line cut to `width` with an ellipsis where `mode` says.
    private func truncate(_ line: [ShapedGlyph], width: Double, mode: CATextLayerTruncationMode) -> [ShapedGlyph] {
        // Shaped alone, with serials no paragraph glyph has, so its kerning is the pair kerning.
        let ellipsis = shaper.shape(["\u{2026}"], firstSerial: -2)
        let room = width - measure(ellipsis)
        func prefix(within w: Double) -> ArraySlice<ShapedGlyph> {
            var n = 0
            while n < line.count && measure(line[..<(n + 1)]) <= w { n += 1 }
            var p = line[..<n]
            while p.last?.isSpace == true { p = p.dropLast() }
            return p
        }
        func suffix(within w: Double, after floor: Int) -> ArraySlice<ShapedGlyph> {
            var n = line.count
            while n > floor && measure(line[(n - 1)...]) <= w { n -= 1 }
            var s = line[n...]
            while s.first?.isSpace == true { s = s.dropFirst() }
            return s
        }
        switch mode {
        case .none: return line
        case .end: return kerned(Array(prefix(within: room)) + ellipsis)
        case .start: return kerned(ellipsis + Array(suffix(within: room, after: 0)))
        case .middle:
            let head = prefix(within: room / 2)
            return kerned(Array(head) + ellipsis + Array(suffix(within: room - measure(head), after: head.count)))
        }
    }

    /// The line in display order with its pen positions for `alignment` in `width`; `last` marks
    /// a paragraph's last line (every unwrapped line is one), which justification leaves flush left.
    private func place(_ line: [ShapedGlyph], last: Bool, width: Double, alignment: CATextLayerAlignmentMode) -> ShapedLine {
        let used = measure(line)
        let x: Double
        var stretch = 0.0
        switch alignment {
        case .natural: x = line.first?.inRightToLeftParagraph == true ? width - used : 0
        case .left: x = 0
        case .right: x = width - used
        case .center: x = (width - used) / 2
        case .justified:
            x = 0
            // The spaces between words, not those trailing at the break.
            let inner = line.enumerated().filter { $0.element.isSpace && line[$0.offset...].contains { !$0.isSpace } }.count
            if !last && inner > 0 { stretch = max(width - used, 0) / Double(inner) }
        }
        return ShapedLine(placing: line, from: x, stretch: stretch)
    }
}
