import CFriBidi
import CHarfBuzz

/// One glyph of shaped text: which face draws it, its glyph id, the text it stands for, how far
/// it moves the pen, and (once its line is placed) where it is drawn. All lengths in pixels.
struct ShapedGlyph {
    let face: FontFace
    /// The glyph id in `face` (0 is the font's missing glyph).
    let index: UInt32
    /// The first character of the cluster the glyph belongs to (a ligature or conjunct covers
    /// several); line breaking asks it whether this is a space or a CJK character.
    let scalar: Unicode.Scalar
    /// Which cluster of its paragraph the glyph belongs to: glyphs of one cluster stay together
    /// when bidirectional reordering reverses a run.
    let cluster: Int
    /// The glyph's place in its paragraph's shaped glyphs; tells whether the next glyph of a line
    /// is still the one it was shaped beside (so its kerning holds).
    let serial: Int
    /// The font's own advance.
    let advance: Double
    /// What shaping added to the advance towards the glyph shaped after it (kerning, mark and
    /// cursive positioning).
    let shapedKern: Double
    /// The adjustment in effect towards the glyph that follows in its line (0 for the last).
    var kern = 0.0
    /// Where the glyph sits relative to its pen position (y down), e.g. for a mark over its base.
    let offset: (x: Double, y: Double)
    /// The Unicode bidirectional embedding level: odd is right to left.
    let level: UInt8
    /// Whether the glyph's paragraph runs right to left (its first strong character is), which
    /// makes `natural` alignment right alignment.
    let inRightToLeftParagraph: Bool
    /// The pen position along the line, once placed.
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

/// A line of shaped text, glyphs in visual (left to right) order with their pen positions: what
/// `CATextLayer` draws for each line and what drawing a string into a context draws, through
/// the same `draw`.
struct ShapedLine {
    var glyphs: [ShapedGlyph]

    /// The distance from the first pen position to the end of the last glyph's advance.
    var width: Double { glyphs.last.map { $0.x + $0.advance + $0.kern - (glyphs.first?.x ?? 0) } ?? 0 }

    /// One paragraph of `string` shaped in `font` (a family name or file, as `CATextLayer.font`
    /// takes) at `pixelSize` and placed from x = 0; `nil` when no font can be opened. Call inside
    /// `FontLibrary.withFonts`.
    init?(_ string: String, font: String?, pixelSize: Double, fonts: FontLibrary) {
        guard let primary = fonts.face(for: font) else { return nil }
        let shaper = TextShaper(fonts: fonts, primary: primary, family: font, pixelSize: pixelSize)
        self.init(placing: kerned(shaper.shape(Array(string.unicodeScalars))))
    }

    /// The glyphs (in logical order, as `TextShaper` gives them) reordered for display and placed
    /// one after another from `x`, each space widened by `stretch`.
    init(placing logical: [ShapedGlyph], from x: Double = 0, stretch: Double = 0) {
        var x = x
        glyphs = visualOrder(logical)
        for i in glyphs.indices {
            glyphs[i].x = x
            x += glyphs[i].advance + glyphs[i].kern + (glyphs[i].isSpace ? stretch : 0)
        }
    }

    /// Whether some glyph is a colour glyph (an emoji in a colour font), which `coverage` cannot
    /// hold.
    var hasColorGlyphs: Bool { glyphs.contains { $0.face.isColor } }

    /// Draws the line with its pen origin at `x` on the baseline `baseline` (pixels, y down).
    func draw(x: Double, baseline: Double, color: PremultipliedColor, into bitmap: inout Bitmap) {
        for g in glyphs {
            g.face.draw(g.index, x: x + g.x + g.offset.x, y: baseline + g.offset.y, color: color, into: &bitmap)
        }
    }

    /// The line's coverage of a `width` x `height` area, row by row, with its pen origin at `x`
    /// on the baseline `baseline` (pixels, y down): where glyphs overlap, their coverages
    /// combine as drawing one over the other would (a + b − ab).
    func coverage(x: Double, baseline: Double, width: Int, height: Int) -> [UInt8] {
        var plane = [UInt8](repeating: 0, count: width * height)
        for g in glyphs {
            g.face.render(g.index, x: x + g.x + g.offset.x, y: baseline + g.offset.y, width: width, height: height) { px, py, k in
                let i = py * width + px, under = Int(plane[i])
                plane[i] = UInt8(under + Int(k) - (under * Int(k) + 127) / 255)
            }
        }
        return plane
    }
}

/// The glyphs with their adjustments towards their neighbours: what shaping gave where the
/// neighbour is the one shaped beside it; at a line's end none, and where lines or an ellipsis
/// join, the font's pair kerning (zero-width marks stay zero-width everywhere).
func kerned(_ glyphs: [ShapedGlyph]) -> [ShapedGlyph] {
    var g = glyphs
    for i in g.indices {
        if i + 1 < g.count && g[i + 1].serial == g[i].serial + 1 || g[i].advance + g[i].shapedKern == 0 {
            g[i].kern = g[i].shapedKern
        } else {
            g[i].kern = i + 1 < g.count && g[i + 1].face === g[i].face ? g[i].face.kerning(g[i].index, g[i + 1].index) : 0
        }
    }
    return g
}

/// Unicode's rule L2: from the highest level down to the lowest odd one, every run of glyphs at
/// that level or above is reversed; a cluster's glyphs move as one (HarfBuzz already ordered
/// them inside it).
private func visualOrder(_ glyphs: [ShapedGlyph]) -> [ShapedGlyph] {
    guard let highest = glyphs.map(\.level).max(), highest > 0 else { return glyphs }
    var units: [[ShapedGlyph]] = []
    for g in glyphs {
        if let last = units.last?.last, last.cluster == g.cluster, last.level == g.level {
            units[units.count - 1].append(g)
        } else {
            units.append([g])
        }
    }
    let lowestOdd = glyphs.map(\.level).filter { $0 % 2 == 1 }.min() ?? highest
    for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
        var i = 0
        while i < units.count {
            guard units[i][0].level >= level else {
                i += 1
                continue
            }
            var j = i
            while j < units.count && units[j][0].level >= level { j += 1 }
            units[i..<j].reverse()
            i = j
        }
    }
    return units.flatMap { $0 }
}

/// Shapes paragraphs with HarfBuzz: bidirectional levels from FriBidi, then runs of one level,
/// one script and one face (the primary face, or a fallback for characters it lacks), each
/// shaped with the whole paragraph as context so that Arabic joins across run boundaries.
struct TextShaper {
    let fonts: FontLibrary
    let primary: FontFace
    let family: String?
    let pixelSize: Double

    /// Glyphs for one paragraph (no line breaks in it), clusters in the text's order (glyphs in
    /// a cluster in visual order); their `serial`s count from `firstSerial`.
    func shape(_ scalars: [Unicode.Scalar], firstSerial: Int = 0) -> [ShapedGlyph] {
        guard !scalars.isEmpty else { return [] }
        let (levels, rightToLeft) = bidiLevels(scalars)
        let scripts = self.scripts(scalars)
        var faces: [FontFace] = []
        for (i, s) in scalars.enumerated() {
            // Marks, joiners, variation selectors and what follows a joiner stay in the face of
            // the character before them: a cluster is shaped by one font.
            let clings = i > 0 && (Self.clings(s) || scalars[i - 1].value == 0x200D)
            faces.append(clings ? faces[i - 1] : face(for: s, next: i + 1 < scalars.count ? scalars[i + 1] : nil))
        }
        let codepoints = scalars.map(\.value)
        var glyphs: [ShapedGlyph] = []
        var start = 0
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count && faces[end] === faces[start] && levels[end] == levels[start]
                && scripts[end] == scripts[start] { end += 1 }
            glyphs += shapeRun(codepoints, start..<end, face: faces[start], level: levels[start], script: scripts[start],
                               rightToLeft: rightToLeft, scalars: scalars, firstSerial: firstSerial + glyphs.count)
            start = end
        }
        return glyphs
    }

    private static func clings(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return s.value == 0x200D || s.value == 0x200C || (0xFE00...0xFE0F).contains(s.value)
            || (0x1F3FB...0x1F3FF).contains(s.value) || (0xE0020...0xE007F).contains(s.value)
        }
    }

    /// The face for a character: the primary face when it has the glyph, else a fallback. An
    /// emoji shown as emoji by default (Unicode's Emoji_Presentation, such as 😀) or asked to
    /// be (followed by U+FE0F) comes from fontconfig's "emoji" family first, a colour emoji
    /// font when one is installed, as Core Text uses Apple Color Emoji.
    private func face(for scalar: Unicode.Scalar, next: Unicode.Scalar?) -> FontFace {
        if scalar.properties.isEmojiPresentation || scalar.properties.isEmoji && next?.value == 0xFE0F,
           let emoji = fonts.fallback(for: scalar, family: fonts.emojiFamily), emoji.isColor { return emoji }
        return primary.glyphIndex(scalar) != 0 ? primary : fonts.fallback(for: scalar, family: family) ?? primary
    }

    /// FriBidi's embedding levels, and whether the paragraph runs right to left (its direction
    /// is its first strong character's, left to right when it has none).
    private func bidiLevels(_ scalars: [Unicode.Scalar]) -> (levels: [UInt8], rightToLeft: Bool) {
        let leftToRight = (levels: [UInt8](repeating: 0, count: scalars.count), rightToLeft: false)
        // Text with nothing right-to-left in it is all level 0; FriBidi need not see it.
        guard scalars.contains(where: { Self.mayBeRightToLeft($0) }) else { return leftToRight }
        let text = scalars.map { FriBidiChar($0.value) }
        let n = FriBidiStrIndex(text.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: text.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: text.count)
        var levels = [FriBidiLevel](repeating: 0, count: text.count)
        fribidi_get_bidi_types(text, n, &types)
        fribidi_get_bracket_types(text, n, types, &brackets)
        var direction = FriBidiParType(UInt32(FRIBIDI_MASK_NEUTRAL))
        guard fribidi_get_par_embedding_levels_ex(types, brackets, n, &direction, &levels) != 0 else { return leftToRight }
        return (levels.map { UInt8(bitPattern: $0) }, direction.rawValue & UInt32(FRIBIDI_MASK_RTL) != 0)
    }

    /// Hebrew, Arabic, Syriac, Thaana, NKo… and the explicit bidi controls.
    private static func mayBeRightToLeft(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
             0x200F, 0x202B, 0x202E, 0x2067: return true
        default: return false
        }
    }

    /// Each character's script, characters common to many scripts (spaces, digits, punctuation,
    /// marks) taking that of the text around them.
    private func scripts(_ scalars: [Unicode.Scalar]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var result = scalars.map { hb_unicode_script(funcs, $0.value) }
        let vague = { (s: hb_script_t) in s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN }
        let first = result.first { !vague($0) } ?? HB_SCRIPT_COMMON
        var current = first
        for i in result.indices {
            if vague(result[i]) { result[i] = current } else { current = result[i] }
        }
        return result
    }

    private func shapeRun(_ codepoints: [UInt32], _ range: Range<Int>, face: FontFace, level: UInt8, script: hb_script_t,
                          rightToLeft: Bool, scalars: [Unicode.Scalar], firstSerial: Int) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_codepoints(buffer, codepoints, Int32(codepoints.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.shapingFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        face.setPixelSize(pixelSize)
        let k = face.pixelsPerUnit
        var glyphs = (0..<Int(count)).map { i -> ShapedGlyph in
            let id = infos[i].codepoint, cluster = Int(infos[i].cluster)
            let advance = Double(hb_font_get_glyph_h_advance(face.shapingFont, id)) * k
            return ShapedGlyph(face: face, index: id, scalar: scalars[cluster], cluster: cluster, serial: 0,
                               advance: advance, shapedKern: Double(positions[i].x_advance) * k - advance,
                               offset: (Double(positions[i].x_offset) * k, -Double(positions[i].y_offset) * k),
                               level: level, inRightToLeftParagraph: rightToLeft)
        }
        if level % 2 == 1 {
            // HarfBuzz gives right-to-left runs in visual order; back to the text's order by
            // cluster (a cluster's own glyphs keep their visual order).
            var units: [[ShapedGlyph]] = []
            for g in glyphs {
                if units.last?.last?.cluster == g.cluster { units[units.count - 1].append(g) } else { units.append([g]) }
            }
            glyphs = units.reversed().flatMap { $0 }
        }
        return glyphs.enumerated().map { i, g in
            ShapedGlyph(face: g.face, index: g.index, scalar: g.scalar, cluster: g.cluster, serial: firstSerial + i,
                        advance: g.advance, shapedKern: g.shapedKern, offset: g.offset, level: g.level,
                        inRightToLeftParagraph: rightToLeft)
        }
    }
}
