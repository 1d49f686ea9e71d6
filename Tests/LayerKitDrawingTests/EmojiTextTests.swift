import XCTest
@testable import LayerKitDrawing

/// Colour emoji: characters shown as emoji come from the colour emoji font (Noto Color Emoji,
/// Debian's fonts-noto-color-emoji, which Scripts/install-dependencies installs), shaped by
/// HarfBuzz (a ZWJ sequence is one glyph) and drawn in their own colours; without the font,
/// text still draws.
final class EmojiTextTests: XCTestCase {
    private func shaped(_ text: String, size: Double = 64) throws -> ShapedLine {
        try XCTUnwrap(FontLibrary.withFonts { ShapedLine(text, font: nil, pixelSize: size, fonts: $0) })
    }

    private func requireEmojiFont() throws {
        let face = try shaped("😀").glyphs.first?.face
        XCTAssertTrue(face?.isColor == true, "no colour emoji font: install fonts-noto-color-emoji (Scripts/install-dependencies)")
    }

    /// 👩‍💻 (woman, ZWJ, laptop) is one glyph of the colour font in one cluster, as wide as
    /// the single emoji 😀 (both one emoji cell), not the two glyphs of its parts.
    func testAZWJSequenceIsOneColourGlyph() throws {
        try requireEmojiFont()
        let sequence = try shaped("👩\u{200D}💻"), single = try shaped("😀"), parts = try shaped("👩💻")
        XCTAssertEqual(sequence.glyphs.count, 1)
        XCTAssertEqual(sequence.glyphs.map(\.cluster), [0])
        XCTAssertTrue(sequence.glyphs[0].face.isColor)
        XCTAssertEqual(parts.glyphs.count, 2)
        XCTAssertNotEqual(sequence.glyphs[0].index, parts.glyphs[0].index)
        XCTAssertEqual(sequence.width, single.width, accuracy: 1e-9)
        // Text around it stays in the text's font: "a" and "b" are DejaVu Sans glyphs.
        let mixed = try shaped("a👩\u{200D}💻b")
        XCTAssertEqual(mixed.glyphs.map(\.face.isColor), [false, true, false])
        XCTAssertEqual(mixed.glyphs.map(\.cluster), [0, 1, 4])
    }

    /// The ink box of the non-transparent pixels of `b`: (x0, y0, x1, y1), ends exclusive.
    private func ink(_ b: Bitmap) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<b.height { for x in 0..<b.width where b[x, y].a > 0 {
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
        } }
        return box
    }

    /// 😀 at 64 px is drawn in its own colours, whatever the fill colour: the middle of its
    /// ink (between the eyes, above the mouth) is the face's yellow, opaque. Noto's yellow
    /// there is (253, 224, 48); the bounds allow for the strike's scaling.
    func testAnEmojiIsDrawnInItsOwnColours() throws {
        try requireEmojiFont()
        let ctx = rgbaContext(100, 100)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.draw(text: "😀", at: CGPoint(x: 10, y: 20), size: 64)
        let b = ctx.makeImage()!.bitmap
        let (x0, y0, x1, y1) = try XCTUnwrap(ink(b))
        let centre = b[(x0 + x1) / 2, (y0 + y1) / 2]
        XCTAssertGreaterThan(centre.r, 200)
        XCTAssertGreaterThan(centre.g, 150)
        XCTAssertLessThan(centre.b, 100)
        XCTAssertEqual(centre.a, 255)
        // The emoji cell is one em and a quarter wide at most; the ink lies within it.
        XCTAssertGreaterThanOrEqual(x0, 10)
        XCTAssertLessThanOrEqual(x1, 10 + 80)
    }

    /// A text layer draws emoji in colour too (the same line drawing): "😀" at 40 px in black.
    func testATextLayerDrawsEmojiInColour() throws {
        try requireEmojiFont()
        var style = TextStyle()
        style.string = "😀"
        style.fontSize = 40
        let b = try XCTUnwrap(TextContent.render(style, bounds: CGRect(x: 0, y: 0, width: 60, height: 60), scale: 1)).image.bitmap
        let (x0, y0, x1, y1) = try XCTUnwrap(ink(b))
        let centre = b[(x0 + x1) / 2, (y0 + y1) / 2]
        XCTAssertGreaterThan(centre.r, 200)
        XCTAssertGreaterThan(centre.g, 150)
        XCTAssertLessThan(centre.b, 100)
    }

    /// Without a colour emoji font (its family named as one that is not installed), 😀 comes
    /// from the text's font (DejaVu Sans has a black-and-white 😀) in the fill colour: text
    /// draws, nothing crashes.
    func testWithoutTheEmojiFontTextStillDraws() throws {
        FontLibrary.withFonts { $0.emojiFamily = "No Such Emoji Family" }
        defer { FontLibrary.withFonts { $0.emojiFamily = "emoji" } }
        let line = try shaped("😀")
        XCTAssertEqual(line.glyphs.count, 1)
        XCTAssertFalse(line.glyphs[0].face.isColor)
        XCTAssertNotEqual(line.glyphs[0].index, 0)
        let ctx = rgbaContext(100, 100)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        XCTAssertGreaterThan(ctx.draw(text: "😀", at: CGPoint(x: 10, y: 20), size: 32), 0)
        let b = ctx.makeImage()!.bitmap
        let painted = (0..<100).flatMap { y in (0..<100).map { b[$0, y] } }.filter { $0.a > 0 }
        XCTAssertFalse(painted.isEmpty)
        XCTAssertTrue(painted.allSatisfy { $0.r == 0 && $0.g == 0 }, "only the blue fill colour")
    }
}
