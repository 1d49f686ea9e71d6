@testable import LayerKitDrawing
import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Shaping by glyph ids and advances: the expected glyphs are the font's own glyphs for the
/// Unicode presentation forms and ligature characters (which name the shaped result: U+FE91 is
/// BEH's initial form, U+FB03 the "ffi" ligature) or orders worked out from the bidi rules.
/// Fonts are those Scripts/install-dependencies installs: DejaVu Sans (Latin, Arabic, Hebrew),
/// Lohit Devanagari and Garuda (Thai). No colour emoji font is installed, so emoji ZWJ
/// sequences are only checked not to crash.
final class TextShapingTests: XCTestCase {
    private func shape(_ string: String, font: String? = nil, pixelSize: Double = 20) throws -> ShapedLine {
        try XCTUnwrap(FontLibrary.withFonts { ShapedLine(string, font: font, pixelSize: pixelSize, fonts: $0) })
    }

    /// The default face's glyph for each character, as its cmap maps it.
    private func cmap(_ scalars: [UInt32], font: String? = nil) -> [UInt32] {
        FontLibrary.withFonts { fonts in
            let face = fonts.face(for: font)!
            return scalars.map { face.glyphIndex(Unicode.Scalar($0)!) }
        }
    }

    /// `string` in black 20 pt DejaVu Sans on a 200 x 40 layer.
    private func draw(_ string: String, alignment: CATextLayerAlignmentMode) -> Bitmap {
        let l = CATextLayer()
        l.frame = CGRect(x: 0, y: 0, width: 200, height: 40)
        l.string = string
        l.fontSize = 20
        l.alignmentMode = alignment
        l.foregroundColor = rgb(0, 0, 0)
        return renderCPU(l, width: 200, height: 40, scale: 1)
    }

    func testArabicJoiningForms() throws {
        // بسم: beh initial (FE91), seen medial (FEB4), meem final (FEE2), drawn right to left.
        let line = try shape("\u{0628}\u{0633}\u{0645}")
        let joined = cmap([0xFE91, 0xFEB4, 0xFEE2])
        XCTAssertFalse(joined.contains(0))
        XCTAssertEqual(line.glyphs.map(\.index), joined.reversed())
        // Each letter alone keeps its nominal (isolated) glyph, a different one.
        let isolated = try ["\u{0628}", "\u{0633}", "\u{0645}"].map { try shape($0).glyphs.map(\.index) }
        XCTAssertEqual(isolated, cmap([0x0628, 0x0633, 0x0645]).map { [$0] })
        XCTAssertTrue(zip(isolated.map { $0[0] }, joined).allSatisfy { $0 != $1 })
        XCTAssertEqual(line.glyphs.map(\.level), [1, 1, 1])
    }

    func testFfiLigature() throws {
        let line = try shape("ffi")
        XCTAssertEqual(line.glyphs.map(\.index), cmap([0xFB03]))
        XCTAssertNotEqual(cmap([0xFB03]), [0])
        // One glyph, as wide as the ligature's own advance.
        let lig = try shape("\u{FB03}")
        XCTAssertEqual(line.width, lig.width, accuracy: 1e-9)
    }

    func testDevanagariConjunctIsOneGlyph() throws {
        // क्ष (KA, VIRAMA, SSA): one conjunct glyph from a fallback font (DejaVu Sans has no
        // Devanagari), which is the conjunct KSSA, not any of the three characters' glyphs.
        let line = try shape("\u{0915}\u{094D}\u{0937}")
        XCTAssertEqual(line.glyphs.count, 1)
        let g = line.glyphs[0]
        let parts = [0x0915, 0x094D, 0x0937].map { g.face.glyphIndex(Unicode.Scalar($0)!) }
        XCTAssertFalse(parts.contains(0), "the fallback face covers Devanagari")
        XCTAssertFalse(parts.contains(g.index))
        XCTAssertNotEqual(g.index, 0)
        FontLibrary.withFonts { fonts in XCTAssertFalse(g.face === fonts.face(for: nil)) }
    }

    func testHebrewAndMixedDirectionOrder() throws {
        // שלום: shin lamed vav final-mem, shown right to left.
        let hebrew: [UInt32] = [0x05E9, 0x05DC, 0x05D5, 0x05DD]
        XCTAssertEqual(try shape("\u{05E9}\u{05DC}\u{05D5}\u{05DD}").glyphs.map(\.index), cmap(hebrew.reversed()))
        // A left-to-right paragraph (first strong character "a") with a Hebrew word inside:
        // rule L2 reverses only the word.
        let mixed = try shape("ab \u{05E9}\u{05DC}\u{05D5}\u{05DD} cd")
        XCTAssertEqual(mixed.glyphs.map(\.index), cmap([0x61, 0x62, 0x20] + hebrew.reversed() + [0x20, 0x63, 0x64]))
        XCTAssertEqual(mixed.glyphs.map(\.level), [0, 0, 0, 1, 1, 1, 1, 0, 0, 0])
        // Pen positions increase left to right.
        XCTAssertEqual(mixed.glyphs.map(\.x), mixed.glyphs.map(\.x).sorted())
        // A right-to-left paragraph (first strong character Hebrew) with a Latin word: the
        // Latin word keeps its order, placed to the left of the Hebrew one.
        let rtl = try shape("\u{05E9}\u{05DC}\u{05D5}\u{05DD} ab")
        XCTAssertEqual(rtl.glyphs.map(\.index), cmap([0x61, 0x62, 0x20] + hebrew.reversed()))
        XCTAssertEqual(rtl.glyphs.map(\.level), [2, 2, 1, 1, 1, 1, 1])
    }

    func testThaiMarksStackWithoutAdvancing() throws {
        // ที่ (THO THAHAN, SARA II, MAI EK): the two vowel and tone marks sit over the consonant,
        // so the cluster is as wide as the consonant alone, the tone mark above the vowel.
        let line = try shape("\u{0E17}\u{0E35}\u{0E48}")
        XCTAssertEqual(line.glyphs.count, 3)
        let consonant = try shape("\u{0E17}")
        XCTAssertEqual(line.width, consonant.width, accuracy: 1e-9)
        XCTAssertEqual(line.glyphs[1].advance + line.glyphs[1].shapedKern, 0, accuracy: 1e-9)
        XCTAssertEqual(line.glyphs[2].advance + line.glyphs[2].shapedKern, 0, accuracy: 1e-9)
        XCTAssertEqual(Set(line.glyphs.map(\.cluster)), [0])
    }

    /// Text in any script, or none, broken bidi controls, lone marks, invalid UTF-8 (decoded to
    /// U+FFFD) and unpaired surrogates (which Swift strings cannot hold, so they come as U+FFFD
    /// too): laid out and drawn without a crash.
    func testAnyTextLaysOutWithoutCrashing() {
        let strings = [
            "", " ", "\u{0301}\u{0651}", "\u{200D}", "\u{202B}\u{202B}abc\u{202C}", "\u{202E}abc", "\u{2067}x",
            String(decoding: [0xFF, 0xFE, 0xED, 0xA0, 0x80, 0x61], as: UTF8.self),
            String(decoding: [0xD800, 0x61, 0xDFFF] as [UInt16], as: UTF16.self),
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F44D}\u{1F3FD}", "\u{0E01}\u{0E33}",
            "\u{0628}\u{0633}\u{0645} 123 abc", "\u{10FFFD}\u{E000}", String(repeating: "\u{0651}", count: 500),
            "中文 العربية עברית हिन्दी ไทย",
        ]
        for s in strings {
            for wrapped in [false, true] {
                let l = CATextLayer()
                l.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
                l.string = s
                l.isWrapped = wrapped
                l.truncationMode = .middle
                l.foregroundColor = rgb(0, 0, 0)
                _ = renderCPU(l, width: 60, height: 40, scale: 1)
            }
        }
    }

    /// `natural` alignment follows the paragraph: a Hebrew one ends at the right edge, a Latin
    /// one starts at the left.
    func testNaturalAlignmentIsRightForRightToLeftParagraphs() throws {
        func inkColumns(_ string: String) -> ClosedRange<Int>? {
            let b = draw(string, alignment: .natural)
            let columns = (0..<200).filter { x in (0..<40).contains { b.pixels[($0 * 200 + x) * 4 + 3] > 0 } }
            return columns.first.map { $0...columns.last! }
        }
        let hebrew = try XCTUnwrap(inkColumns("\u{05E9}\u{05DC}\u{05D5}\u{05DD}"))
        XCTAssertGreaterThan(hebrew.lowerBound, 100)
        XCTAssertGreaterThanOrEqual(hebrew.upperBound, 195)
        let latin = try XCTUnwrap(inkColumns("abcd"))
        XCTAssertLessThan(latin.lowerBound, 5)
    }

    /// Right-to-left text is drawn where its shaped order says: left-aligned, a right-to-left
    /// paragraph "שלום ab" starts with "ab" on the left, so its first columns are exactly those of
    /// "ab" drawn alone (in logical order they would hold the Hebrew word's first letter).
    func testMixedLineDrawsInVisualOrder() throws {
        let mixed = draw("\u{05E9}\u{05DC}\u{05D5}\u{05DD} ab", alignment: .left), latin = draw("ab", alignment: .left)
        let a = try shape("a", pixelSize: 20).glyphs[0].advance
        func columns(_ b: Bitmap) -> [UInt8] {
            (0..<40).flatMap { y in b.pixels[(y * 200 * 4)..<((y * 200 + Int(a)) * 4)] }
        }
        XCTAssertTrue(columns(latin).contains { $0 > 0 })
        XCTAssertEqual(columns(mixed), columns(latin))
    }
}
