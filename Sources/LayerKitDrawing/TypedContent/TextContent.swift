import Foundation

/// What a `CATextLayer` draws: its string laid out in the bounds and drawn with FreeType.
///
/// Layout follows CATextLayer: text starts at the top of the bounds (the first line's
/// ascender at y = 0), lines are the font's line height apart, `\n` starts a paragraph.
/// `isWrapped` breaks lines at the bounds' width after spaces or between CJK characters (inside
/// a word only when the word alone is too wide); `alignmentMode` places each line (natural is
/// left, for left-to-right text; justified stretches the spaces of wrapped lines except a
/// paragraph's last). `truncationMode` replaces what does not fit with "…": at the start,
/// middle or end of each line wider than the bounds, or of the last line that fits when
/// wrapped text runs out of height (the lines below it are dropped). Otherwise whatever falls
/// outside the bounds is clipped. Pairs of glyphs are kerned with the font's kerning table;
/// characters the font lacks come from a fallback font (`FontLibrary`). Sizes are in points
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
                for g in line { g.face.draw(g.index, x: g.x, y: baseline, color: paint, into: &bitmap) }
            }
            return (CGImage(bitmap: bitmap, source: "text"), bounds)
        }
    }
}

/// One glyph of laid-out text: which face draws it, its advance, the kerning towards the next
/// glyph, and (once a line is placed) its pen position.
private struct Glyph {
    let face: FontFace
    let index: UInt32
    let scalar: Unicode.Scalar
    let advance: Double
    var kern = 0.0
    var x = 0.0

    var isSpace: Bool { scalar.properties.isWhitespace }

    /// Ideographs, kana, hangul and CJK punctuation: a line may break before or after each.
    var isCJK: Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
             0x20000...0x3FFFF: return true
        default: return false
        }
    }
}

/// Turns a string into placed lines of glyphs for one text layer.
private struct Typesetter {
    let fonts: FontLibrary
    let primary: FontFace
    let family: String?
    let pixelSize: Double

    init(fonts: FontLibrary, primary: FontFace, family: String?, pixelSize: Double) {
        (self.fonts, self.primary, self.family, self.pixelSize) = (fonts, primary, family, pixelSize)
        primary.setPixelSize(pixelSize)
    }

    /// The lines to draw, glyph pen positions set, for a `width` x `height` pixel box.
    func lines(_ string: String, style: TextStyle, width: Double, height: Double) -> [[Glyph]] {
        // A line: its glyphs, and whether a paragraph ends with it (justification skips those).
        var lines: [(glyphs: [Glyph], last: Bool)] = []
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

    /// The string's paragraphs as kerned glyphs, each character from the primary face or, when
    /// it has none, a fallback face.
    private func paragraphs(_ string: String) -> [[Glyph]] {
        let breaks: Set<UInt32> = [0x0A, 0x0D, 0x2028, 0x2029]
        var result: [[Glyph]] = [[]]
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
            result[result.count - 1].append(glyph(scalar))
        }
        return result.map(kerned)
    }

    private func glyph(_ scalar: Unicode.Scalar) -> Glyph {
        var face = primary, index = primary.glyphIndex(scalar)
        if index == 0, let f = fonts.fallback(for: scalar, family: family) {
            face = f
            index = f.glyphIndex(scalar)
        }
        face.setPixelSize(pixelSize)
        return Glyph(face: face, index: index, scalar: scalar, advance: face.advance(index))
    }

    /// The glyphs with the kerning between neighbours of the same face recomputed (and none
    /// after the last).
    private func kerned(_ glyphs: [Glyph]) -> [Glyph] {
        var g = glyphs
        for i in g.indices {
            g[i].kern = i + 1 < g.count && g[i + 1].face === g[i].face ? g[i].face.kerning(g[i].index, g[i + 1].index) : 0
        }
        return g
    }

    /// The width of a run of glyphs, trailing spaces left out.
    private func measure(_ glyphs: some Collection<Glyph>) -> Double {
        var width = 0.0, inked = 0.0
        for g in glyphs {
            if !g.isSpace { inked = width + g.advance }
            width += g.advance + g.kern
        }
        return inked
    }

    /// Greedy line breaking within `width`.
    private func wrap(_ paragraph: [Glyph], width: Double) -> [[Glyph]] {
        var lines: [[Glyph]] = []
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
    private func truncate(_ line: [Glyph], width: Double, mode: CATextLayerTruncationMode) -> [Glyph] {
        let ellipsis = glyph("\u{2026}")
        let room = width - ellipsis.advance
        func prefix(within w: Double) -> ArraySlice<Glyph> {
            var n = 0
            while n < line.count && measure(line[..<(n + 1)]) <= w { n += 1 }
            var p = line[..<n]
            while p.last?.isSpace == true { p = p.dropLast() }
            return p
        }
        func suffix(within w: Double, after floor: Int) -> ArraySlice<Glyph> {
            var n = line.count
            while n > floor && measure(line[(n - 1)...]) <= w { n -= 1 }
            var s = line[n...]
            while s.first?.isSpace == true { s = s.dropFirst() }
            return s
        }
        switch mode {
        case .none: return line
        case .end: return kerned(Array(prefix(within: room)) + [ellipsis])
        case .start: return kerned([ellipsis] + Array(suffix(within: room, after: 0)))
        case .middle:
            let head = prefix(within: room / 2)
            return kerned(Array(head) + [ellipsis] + Array(suffix(within: room - measure(head), after: head.count)))
        }
    }

    /// Sets the pen positions of a line for `alignment` in `width`; `last` marks a paragraph's
    /// last line (every unwrapped line is one), which justification leaves flush left.
    private func place(_ line: [Glyph], last: Bool, width: Double, alignment: CATextLayerAlignmentMode) -> [Glyph] {
        let used = measure(line)
        var x: Double, stretch = 0.0
        switch alignment {
        case .natural, .left: x = 0
        case .right: x = width - used
        case .center: x = (width - used) / 2
        case .justified:
            x = 0
            // The spaces between words, not those trailing at the break.
            let inner = line.enumerated().filter { $0.element.isSpace && line[$0.offset...].contains { !$0.isSpace } }.count
            if !last && inner > 0 { stretch = max(width - used, 0) / Double(inner) }
        }
        var placed = line
        for i in placed.indices {
            placed[i].x = x
            x += placed[i].advance + placed[i].kern + (placed[i].isSpace ? stretch : 0)
        }
        return placed
    }
}
