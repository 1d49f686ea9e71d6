import XCTest
@testable import LayerKitDrawing

/// The glyph cache: text drawn again from cached glyphs is the text drawn the first time, at
/// each size and pixel fraction apart, and the cache stays within its byte limit.
final class GlyphCacheTests: XCTestCase {
    private func drawn(_ text: String, at x: CGFloat, size: CGFloat) -> Bitmap {
        let ctx = rgbaContext(120, 40)
        ctx.draw(text: text, at: CGPoint(x: x, y: 10), size: size)
        return ctx.makeImage()!.bitmap
    }

    func testCachedGlyphsDrawWhatTheFirstDrawingDrew() {
        let first = drawn("Wave 42", at: 3.25, size: 18)
        // Other sizes and pen fractions between: their glyphs must not stand in for these.
        let other = drawn("Wave 42", at: 3.75, size: 18)
        let bigger = drawn("Wave 42", at: 3.25, size: 19)
        XCTAssertNotEqual(other, first)
        XCTAssertNotEqual(bigger, first)
        XCTAssertEqual(drawn("Wave 42", at: 3.25, size: 18), first)
    }

    /// "W" from 1 to 300 px is far more coverage than the limit (at 300 px alone about 300 x
    /// 220 bytes): the cache empties itself instead of growing past it.
    func testTheCacheStaysWithinItsLimit() throws {
        let face = try XCTUnwrap(FontLibrary.withFonts { $0.face(for: nil) })
        var largest = 0
        for size in 1...300 {
            _ = drawn("W", at: 0, size: CGFloat(size))
            largest = max(largest, FontLibrary.withFonts { _ in face.glyphCacheBytes })
        }
        XCTAssertLessThanOrEqual(largest, FontFace.glyphCacheLimit)
        XCTAssertGreaterThan(largest, FontFace.glyphCacheLimit / 2, "it did fill up")
    }
}
