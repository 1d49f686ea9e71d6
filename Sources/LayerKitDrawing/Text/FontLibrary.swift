import CFontconfig
import CFreeType
import CHarfBuzz
import Foundation

/// Fonts for `CATextLayer`: FreeType faces, found by file path or, for family names, through
/// fontconfig, with a fallback face for characters the chosen font lacks.
///
/// FreeType objects are not thread-safe, so everything here happens inside `withFonts`, under
/// one lock. Faces stay open for the life of the process (there are only as many as the fonts
/// that scenes name).
package final class FontLibrary: @unchecked Sendable {
    /// The family drawn when a text layer names no font (Core Animation's is Helvetica, which
    /// Debian does not ship): DejaVu Sans, from the fonts-dejavu-core package.
    package static let defaultFamily = "DejaVu Sans"

    /// The fontconfig family that emoji come from first (its generic "emoji" family: Noto
    /// Color Emoji from fonts-noto-color-emoji on Debian); tests name one that is not
    /// installed to see text without it.
    var emojiFamily = "emoji"

    private static let lock = NSLock()

    private var library: FT_Library?
    private var faces: [String: FontFace] = [:]
    private var named: [String: FontFace] = [:]
    private var fallbacks: [String: FontFace?] = [:]

    // Made once, as `shared` (DrawingProcessWide.swift).
    init() {
        var lib: FT_Library?
        if FT_Init_FreeType(&lib) == 0 { library = lib }
        FcInit()
    }

    /// Runs `body` with exclusive use of the fonts.
    static func withFonts<T>(_ body: (FontLibrary) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(shared)
    }

    /// The face for a text layer's `font`: a font file when it looks like a path (has a `/` or a
    /// font file extension), otherwise fontconfig's best match for the family name; the default
    /// family for `nil` or a file that cannot be opened. A path that is not a regular file (a
    /// device, which would be read forever, a directory) is not opened; for it, and for a file
    /// FreeType cannot read as a font, one warning line goes to standard error, as Core
    /// Graphics logs to the console, the first time the path is asked for.
    func face(for font: String?) -> FontFace? {
        let name = font ?? Self.defaultFamily
        if let f = named[name] { return f }
        let isFile = name.contains("/") || [".ttf", ".otf", ".ttc"].contains { name.lowercased().hasSuffix($0) }
        var location = isFile ? (path: name, index: 0) : match(family: name, covering: nil)
        if isFile, let problem = Self.notAFontFile(name) ?? (location.flatMap(open) == nil ? "not a font LayerKit can read" : nil) {
            FileHandle.standardError.write(Data("LayerKit: warning: font \"\(name)\": \(problem); drawing in \(Self.defaultFamily)\n".utf8))
            location = nil
        }
        guard let found = location.flatMap(open) ?? (name == Self.defaultFamily ? nil : face(for: nil)) else { return nil }
        named[name] = found
        return found
    }

    /// Why `path` cannot hold a font without reading it: missing, or not a regular file.
    private static func notAFontFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory, not a font file"
        case S_IFCHR, S_IFBLK: return "a device, not a font file"
        default: return "not a regular file"
        }
    }

    /// A face that has a glyph for `scalar`, for text whose font lacks it: fontconfig's best
    /// match for `family` among the fonts that cover the character (so CJK text in a Latin
    /// font comes out in a CJK font); `nil` if no installed font has it.
    func fallback(for scalar: Unicode.Scalar, family: String?) -> FontFace? {
        let family = family ?? Self.defaultFamily
        let key = "\(family)\u{0}\(scalar.value)"
        if let f = fallbacks[key] { return f }
        let found = match(family: family, covering: scalar).flatMap(open).flatMap { $0.glyphIndex(scalar) != 0 ? $0 : nil }
        fallbacks[key] = .some(found)
        return found
    }

    /// Fontconfig's file and face index for `family`, optionally among fonts covering `scalar`
    /// (coverage ranks above the family in fontconfig's matching).
    private func match(family: String, covering scalar: Unicode.Scalar?) -> (path: String, index: Int)? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, FC_FAMILY, Array(family.utf8) + [0])
        if let scalar, let set = FcCharSetCreate() {
            _ = FcCharSetAddChar(set, scalar.value)
            _ = FcPatternAddCharSet(pattern, FC_CHARSET, set)
            FcCharSetDestroy(set)
        }
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        return (String(cString: file), Int(index))
    }

    /// The face at `path` (face `index` of a collection), opened once.
    private func open(_ location: (path: String, index: Int)) -> FontFace? {
        let key = "\(location.path)#\(location.index)"
        if let f = faces[key] { return f }
        var face: FT_Face?
        guard let library, FT_New_Face(library, location.path, FT_Long(location.index), &face) == 0, let face else { return nil }
        let f = FontFace(face)
        faces[key] = f
        return f
    }
}

/// One FreeType face, measured and drawn unhinted with fractional positions, so text scales
/// exactly with `contentsScale` (as Core Text's does). Use only inside `FontLibrary.withFonts`.
final class FontFace {
    private let face: FT_Face
    private var pixelSize = 0.0
    /// HarfBuzz's font over the same FreeType face (hb-ft shares its tables), kept at the
    /// font's own units per em: positions come back in font units, exact, and are scaled here,
    /// so shaped advances equal FreeType's unhinted ones.
    let shapingFont: OpaquePointer

    /// Font units per em, from the `head` table as HarfBuzz reads it (FreeType reports 0 for a
    /// face without outlines, such as a bitmap-only emoji font).
    private let unitsPerEm: Double

    fileprivate init(_ face: FT_Face) {
        self.face = face
        let hbFace = hb_ft_face_create_referenced(face)
        shapingFont = hb_font_create(hbFace)
        unitsPerEm = Double(max(hb_face_get_upem(hbFace), 1))
        hb_face_destroy(hbFace)
    }

    /// Pixels per font unit at the current size (HarfBuzz positions are in font units).
    var pixelsPerUnit: Double { unitsToPixels }

    private static let loadFlags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)

    /// Whether the face has colour glyphs (colour emoji fonts such as Noto Color Emoji: PNG
    /// bitmaps at a fixed size in its CBDT table), drawn in their own colours.
    var isColor: Bool { face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 }

    /// The em size in pixels of the bitmap strike in use, for a face with no outlines; 0 for
    /// a scalable face.
    private var strikePixels = 0.0

    /// Sets the em size in pixels for what follows. A face with only bitmaps (no outlines)
    /// uses its smallest strike at least that size (else its largest), scaled when drawn.
    func setPixelSize(_ px: Double) {
        guard px != pixelSize else { return }
        pixelSize = px
        let f = face.pointee
        if f.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0, f.num_fixed_sizes > 0, let sizes = f.available_sizes {
            let strikes = (0..<Int(f.num_fixed_sizes)).map { Double(sizes[$0].y_ppem) / 64 }
            let chosen = strikes.indices.filter { strikes[$0] >= px }.min { strikes[$0] < strikes[$1] }
                ?? strikes.indices.max { strikes[$0] < strikes[$1] }!
            strikePixels = FT_Select_Size(face, FT_Int(chosen)) == 0 ? strikes[chosen] : 0
        } else {
            _ = FT_Set_Char_Size(face, 0, FT_F26Dot6((px * 64).rounded()), 72, 72)
        }
    }

    private var unitsToPixels: Double { pixelSize / unitsPerEm }

    /// Distance from the top of a line to its baseline.
    var ascender: Double { Double(face.pointee.ascender) * unitsToPixels }

    /// Distance from the baseline down to the bottom of a line (FreeType's descender, which is
    /// negative, turned positive).
    var descender: Double { -Double(face.pointee.descender) * unitsToPixels }

    /// Baseline to baseline distance (ascender + descender + line gap).
    var lineHeight: Double { Double(face.pointee.height) * unitsToPixels }

    /// The glyph for a character; 0 (the missing glyph) when the face has none.
    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 { UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value))) }

    /// The pair kerning between two glyphs (the font's `kern` table), usually negative.
    func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_UNFITTED.rawValue), &delta) == 0 else { return 0 }
        return Double(delta.x) / 64
    }

    /// Draws a glyph with its origin (on the baseline) at pixel position `(x, y)`, y down,
    /// antialiased by FreeType's grayscale renderer, in `color` over `bitmap`; a glyph wholly
    /// outside the bitmap is not rendered at all.
    /// A colour glyph is drawn in its own colours instead.
    func draw(_ glyph: UInt32, x: Double, y: Double, color: PremultipliedColor, into bitmap: inout Bitmap) {
        if isColor && drawColor(glyph, x: x, y: y, into: &bitmap) { return }
        let width = bitmap.width
        render(glyph, x: x, y: y, width: width, height: bitmap.height) { px, py, coverage in
            bitmap.blend(color, coverage: coverage, pixel: py * width + px)
        }
    }

    /// Draws a colour glyph's bitmap (premultiplied BGRA, FreeType's `FT_LOAD_COLOR`) with its
    /// origin at pixel `(x, y)`, y down, scaled from its strike to the em size: each pixel is
    /// the mean of bilinear samples of the strike spaced at most a strike pixel apart, so a
    /// 109 px emoji drawn at 16 px is averaged, not aliased. `false` when the glyph has no
    /// colour bitmap (it is then drawn from its outline, if it has one).
    private func drawColor(_ glyph: UInt32, x: Double, y: Double, into bitmap: inout Bitmap) -> Bool {
        guard strikePixels > 0, FT_Load_Glyph(face, glyph, Int32(FT_LOAD_COLOR)) == 0 else { return false }
        let slot = face.pointee.glyph!, bm = slot.pointee.bitmap
        guard slot.pointee.format == FT_GLYPH_FORMAT_BITMAP, bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
              let buffer = bm.buffer else { return false }
        let scale = pixelSize / strikePixels, sw = Int(bm.width), sh = Int(bm.rows), pitch = Int(bm.pitch)
        let left = x + Double(slot.pointee.bitmap_left) * scale, top = y - Double(slot.pointee.bitmap_top) * scale
        let x0 = clampedPixel(left.rounded(.down), bitmap.width), x1 = clampedPixel((left + Double(sw) * scale).rounded(.up), bitmap.width)
        let y0 = clampedPixel(top.rounded(.down), bitmap.height), y1 = clampedPixel((top + Double(sh) * scale).rounded(.up), bitmap.height)
        // A strike texel, premultiplied 0…1 in RGBA order; transparent outside the bitmap.
        func texel(_ tx: Int, _ ty: Int) -> SIMD4<Float> {
            guard tx >= 0, ty >= 0, tx < sw, ty < sh else { return .zero }
            let o = (pitch >= 0 ? ty * pitch : (sh - 1 - ty) * -pitch) + tx * 4
            return SIMD4(Float(buffer[o + 2]), Float(buffer[o + 1]), Float(buffer[o]), Float(buffer[o + 3])) / 255
        }
        let n = min(max(Int((1 / scale).rounded(.up)), 1), 16)
        for py in y0..<max(y0, y1) {
            for px in x0..<max(x0, x1) {
                var sum = SIMD4<Float>.zero
                for j in 0..<n {
                    for i in 0..<n {
                        // The sample's place in the strike, relative to texel centres.
                        let sx = (Double(px) + (Double(i) + 0.5) / Double(n) - left) / scale - 0.5
                        let sy = (Double(py) + (Double(j) + 0.5) / Double(n) - top) / scale - 0.5
                        let fx = sx.rounded(.down), fy = sy.rounded(.down), tx = Int(fx), ty = Int(fy)
                        let ax = Float(sx - fx), ay = Float(sy - fy)
                        sum += (texel(tx, ty) * (1 - ax) + texel(tx + 1, ty) * ax) * (1 - ay)
                            + (texel(tx, ty + 1) * (1 - ax) + texel(tx + 1, ty + 1) * ax) * ay
                    }
                }
                let c = sum / Float(n * n)
                guard c.w > 0 else { continue }
                bitmap.blend(PremultipliedColor(r: c.x, g: c.y, b: c.z, a: c.w), coverage: 255, pixel: py * bitmap.width + px)
            }
        }
        return true
    }

    /// Renders a glyph with its origin (on the baseline) at pixel position `(x, y)`, y down,
    /// antialiased by FreeType's grayscale renderer, and hands `body` each pixel of a `width` x
    /// `height` area that it covers, with the coverage; a glyph wholly outside the area (or
    /// a billion pixels away) is left out.
    func render(_ glyph: UInt32, x: Double, y: Double, width: Int, height: Int,
                _ body: (_ px: Int, _ py: Int, _ coverage: UInt8) -> Void) {
        guard x.magnitude < 1e9, y.magnitude < 1e9 else { return }
        // Whole pixels place the bitmap; the fraction, in FreeType's 64ths, moves the outline.
        let ix = x.rounded(.down), iy = y.rounded(.down)
        guard let g = rendered(glyph, dx: Int(((x - ix) * 64).rounded()), dy: Int(((y - iy) * 64).rounded())) else { return }
        let left = Int(ix) + g.left, top = Int(iy) - g.top
        guard left < width, top < height, left + g.width > 0, top + g.rows > 0 else { return }
        for row in max(0, -top)..<min(g.rows, height - top) {
            for col in max(0, -left)..<min(g.width, width - left) {
                let coverage = g.coverage[row * g.width + col]
                if coverage > 0 { body(left + col, top + row, coverage) }
            }
        }
    }

    /// A glyph as FreeType rendered it: its coverage, `width` x `rows`, whose top left pixel is
    /// `left` right of and `top` above the pen's whole pixel.
    private struct RenderedGlyph {
        let left: Int, top: Int, width: Int, rows: Int
        let coverage: [UInt8]
    }

    private struct GlyphKey: Hashable {
        let glyph: UInt32, pixelSize: Double, dx: Int, dy: Int
    }

    /// Glyphs rendered at the sizes and 64ths-of-a-pixel offsets they were drawn at, so text
    /// drawn again (a chart's labels at every redraw) is not rendered again; emptied when it
    /// would hold over `glyphCacheLimit` bytes of coverage.
    private var glyphCache: [GlyphKey: RenderedGlyph] = [:]
    private(set) var glyphCacheBytes = 0
    static let glyphCacheLimit = 1 << 20

    /// The glyph's outline at the current size, moved right by `dx` and down by `dy` 64ths of
    /// a pixel and rendered, from the cache when it was rendered so before; `nil` when it has
    /// no outline.
    private func rendered(_ glyph: UInt32, dx: Int, dy: Int) -> RenderedGlyph? {
        let key = GlyphKey(glyph: glyph, pixelSize: pixelSize, dx: dx, dy: dy)
        if let g = glyphCache[key] { return g }
        guard FT_Load_Glyph(face, glyph, Self.loadFlags) == 0 else { return nil }
        let slot = face.pointee.glyph!
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
        // FreeType's y is up.
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos(dx), -FT_Pos(dy))
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), rows = Int(bm.rows), pitch = Int(bm.pitch)
        var coverage = [UInt8](repeating: 0, count: w * rows)
        if let buffer = bm.buffer {
            for row in 0..<rows {
                let line = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
                for col in 0..<w { coverage[row * w + col] = buffer[line + col] }
            }
        }
        let g = RenderedGlyph(left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: w, rows: rows,
                              coverage: coverage)
        if glyphCacheBytes + coverage.count > Self.glyphCacheLimit {
            glyphCache.removeAll(keepingCapacity: true)
            glyphCacheBytes = 0
        }
        glyphCache[key] = g
        glyphCacheBytes += coverage.count
        return g
    }
}

/// `v` (a pixel position, which may be far outside or not finite) as a whole pixel within
/// `0...limit`: clamped before it becomes an `Int`, which a far value would not fit.
func clampedPixel(_ v: Double, _ limit: Int) -> Int { v >= Double(limit) ? limit : v > 0 ? Int(v) : 0 }
