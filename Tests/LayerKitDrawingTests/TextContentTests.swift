@testable import LayerKitDrawing
import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// CATextLayer drawing through the whole pipeline. Glyph shapes are the font's, so these tests
/// check where ink lands (extents, lines, positions) rather than exact pixels. They assume the
/// fonts that Scripts/install-dependencies installs: DejaVu Sans (the default; ascender 1901,
/// cap height 1493, 2048 units per em) and WenQuanYi Micro Hei for CJK.
final class TextContentTests: XCTestCase {
    /// A text layer at the origin, black, left-aligned unless configured otherwise.
    func text(_ string: String, width: CGFloat = 200, height: CGFloat = 40, fontSize: CGFloat = 20,
              _ configure: (CATextLayer) -> Void = { _ in }) -> CATextLayer {
        let l = CATextLayer()
        l.frame = CGRect(x: 0, y: 0, width: width, height: height)
        l.string = string
        l.fontSize = fontSize
        l.foregroundColor = rgb(0, 0, 0)
        configure(l)
        return l
    }

    func render(_ l: CATextLayer, scale: Double = 1) -> Bitmap {
        renderCPU(l, width: Double(l.bounds.width), height: Double(l.bounds.height), scale: scale)
    }

    /// The box of pixels with any ink, in pixels, or nil when there is none.
    func ink(_ b: Bitmap, columns: Range<Int>? = nil) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<b.height {
            for x in columns ?? 0..<b.width where b.rgba(x, y)[3] > 0 {
                box = box.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
            }
        }
        return box
    }

    /// Runs of rows with ink, separated by blank rows: the visible lines.
    func inkedRowRuns(_ b: Bitmap) -> Int {
        var runs = 0, previous = false
        for y in 0..<b.height {
            let inked = (0..<b.width).contains { b.rgba($0, y)[3] > 0 }
            if inked && !previous { runs += 1 }
            previous = inked
        }
        return runs
    }

    // MARK: Placement

    /// The first line's ascender is at the top of the bounds: "H" at 100 px has its cap top at
    /// (1901 − 1493) / 2048 · 100 = 19.9 and sits on the baseline at 1901 / 2048 · 100 = 92.8.
    func testFirstLineAscenderAtTop() throws {
        let box = try XCTUnwrap(ink(render(text("H", width: 120, height: 120, fontSize: 100))))
        XCTAssertEqual(Double(box.minY), 19.9, accuracy: 1)
        XCTAssertEqual(Double(box.maxY), 92.8 - 1, accuracy: 1)
    }

    /// Left (and natural) put the ink at the left edge, right at the right edge, centre in the
    /// middle.
    func testAlignment() throws {
        let left = try XCTUnwrap(ink(render(text("Hi there") { $0.alignmentMode = .left })))
        let natural = try XCTUnwrap(ink(render(text("Hi there"))))
        let right = try XCTUnwrap(ink(render(text("Hi there") { $0.alignmentMode = .right })))
        let center = try XCTUnwrap(ink(render(text("Hi there") { $0.alignmentMode = .center })))
        XCTAssertLessThanOrEqual(left.minX, 3)
        XCTAssertEqual(natural.minX, left.minX)
        XCTAssertGreaterThanOrEqual(right.maxX, 195)
        XCTAssertGreaterThan(right.minX, 100)
        XCTAssertEqual(Double(center.minX + center.maxX) / 2, 100, accuracy: 3)
        // The same glyphs, moved: equal ink widths.
        XCTAssertEqual(Double(right.maxX - right.minX), Double(left.maxX - left.minX), accuracy: 1)
    }

    /// Justified wrapped text reaches both edges on every line but a paragraph's last.
    func testJustifiedStretchesWrappedLines() throws {
        let b = render(text("aa bb cc dd ee ff gg hh ii jj", width: 100, height: 60, fontSize: 16) {
            $0.isWrapped = true
            $0.alignmentMode = .justified
        })
        let firstLine = Bitmap(width: 100, height: 16, pixels: Array(b.pixels[0..<(100 * 16 * 4)]))
        let first = try XCTUnwrap(ink(firstLine))
        XCTAssertGreaterThanOrEqual(first.maxX, 97)
        XCTAssertLessThanOrEqual(first.minX, 2)
    }

    // MARK: Wrapping

    /// Two words that do not fit side by side: wrapped, two lines; not wrapped, one (clipped).
    /// (No dotted letters: an i's dot would count as a line of its own.)
    func testWrappingMakesLines() {
        let string = "wrapped words"
        XCTAssertEqual(inkedRowRuns(render(text(string, width: 100, height: 80) { $0.isWrapped = true })), 2)
        XCTAssertEqual(inkedRowRuns(render(text(string, width: 100, height: 80))), 1)
        // A newline always starts a line.
        XCTAssertEqual(inkedRowRuns(render(text("one\ntwo\nthree", width: 100, height: 80))), 3)
    }

    // MARK: Truncation

    /// "H", forty "x" and "H" in 150 pt: the ellipsis (dots on the baseline, below the x-height)
    /// replaces the end, start or middle; the H's are taller than x-height. Baseline 18.6, cap
    /// height 14.6 px, x-height 10.9 px at 20 px: a column reaching above row 6 is an H.
    func testTruncationModes() throws {
        let string = "H" + String(repeating: "x", count: 40) + "H"
        func truncated(_ mode: CATextLayerTruncationMode) throws -> (tallLeft: Bool, tallRight: Bool, box: (minX: Int, maxX: Int, minY: Int, maxY: Int)) {
            let b = render(text(string, width: 150, height: 30) { $0.truncationMode = mode })
            let box = try XCTUnwrap(ink(b))
            let leftColumn = try XCTUnwrap(ink(b, columns: box.minX..<(box.minX + 1)))
            let rightColumn = try XCTUnwrap(ink(b, columns: box.maxX..<(box.maxX + 1)))
            return (leftColumn.minY < 6, rightColumn.minY < 6, box)
        }
        let end = try truncated(.end), start = try truncated(.start), middle = try truncated(.middle)
        XCTAssertTrue(end.tallLeft)
        XCTAssertFalse(end.tallRight)
        XCTAssertFalse(start.tallLeft)
        XCTAssertTrue(start.tallRight)
        XCTAssertTrue(middle.tallLeft)
        XCTAssertTrue(middle.tallRight)
        for t in [end, start, middle] { XCTAssertLessThan(t.box.maxX, 150) }
        // The ellipsis is three dots low on the line: the end's last columns have no ink above
        // the x-height.
        let b = render(text(string, width: 150, height: 30) { $0.truncationMode = .end })
        let dots = try XCTUnwrap(ink(b, columns: (end.box.maxX - 2)..<(end.box.maxX + 1)))
        XCTAssertGreaterThan(dots.minY, 13)
        // Without truncation the line runs to the edge and is clipped there.
        let none = try XCTUnwrap(ink(render(text(string, width: 150, height: 30))))
        XCTAssertEqual(none.maxX, 149)
    }

    /// Wrapped text that runs out of height is truncated on its last line that fits, and the
    /// lines below are dropped. Line height 16 · 2384 / 2048 = 18.6: two lines fit in 45, the
    /// third would show its top (baseline 14.9 + 2 · 18.6 = 52.1, ascenders 12 above).
    func testWrappedTruncationOnLastVisibleLine() throws {
        let string = "one two three four five six seven eight nine ten"
        let clipped = render(text(string, width: 100, height: 45, fontSize: 16) { $0.isWrapped = true })
        XCTAssertEqual(inkedRowRuns(clipped), 3)
        let b = render(text(string, width: 100, height: 45, fontSize: 16) {
            $0.isWrapped = true
            $0.truncationMode = .end
        })
        XCTAssertEqual(inkedRowRuns(b), 2)
        // The second line ends with the ellipsis: its last columns hold only dots on the
        // baseline (33.5).
        let secondLine = Bitmap(width: 100, height: 20, pixels: Array(b.pixels[(100 * 20 * 4)..<(100 * 40 * 4)]))
        let box = try XCTUnwrap(ink(secondLine))
        let dots = try XCTUnwrap(ink(secondLine, columns: (box.maxX - 2)..<(box.maxX + 1)))
        XCTAssertGreaterThan(dots.minY + 20, 29)
    }

    // MARK: Fonts

    /// Kerning: DejaVu Sans kerns "AV" by −131 / 2048 em, so at 100 px the V of "AV" sits 6.4
    /// px left of where A's advance alone would put it.
    func testKerning() throws {
        let line = try XCTUnwrap(FontLibrary.withFonts { ShapedLine("AV", font: nil, pixelSize: 100, fonts: $0) })
        let a = line.glyphs[0]
        XCTAssertEqual(a.shapedKern, -131.0 / 2048 * 100, accuracy: 0.05)
        XCTAssertEqual(line.glyphs[1].x, a.advance - 131.0 / 2048 * 100, accuracy: 0.05)
        let v = try XCTUnwrap(ink(render(text("V", width: 200, height: 120, fontSize: 100))))
        let av = try XCTUnwrap(ink(render(text("AV", width: 200, height: 120, fontSize: 100))))
        XCTAssertEqual(Double(av.maxX), Double(v.maxX) + a.advance + a.shapedKern, accuracy: 1)
    }

    /// Twice the font size, twice the ink.
    func testFontSize() throws {
        let small = try XCTUnwrap(ink(render(text("H", width: 100, height: 100, fontSize: 20))))
        let large = try XCTUnwrap(ink(render(text("H", width: 100, height: 100, fontSize: 40))))
        XCTAssertEqual(Double(large.maxY - large.minY + 1), 2 * Double(small.maxY - small.minY + 1), accuracy: 2)
        XCTAssertEqual(Double(large.maxX - large.minX + 1), 2 * Double(small.maxX - small.minX + 1), accuracy: 2)
    }

    /// contentsScale 2 on a scale-2 canvas draws the text at twice the pixel size (crisp), so
    /// its ink is twice as wide in pixels as at scale 1.
    func testContentsScaleDoublesInk() throws {
        let one = try XCTUnwrap(ink(render(text("Scale"))))
        let two = try XCTUnwrap(ink(render(text("Scale") { $0.contentsScale = 2 }, scale: 2)))
        XCTAssertEqual(Double(two.maxX - two.minX + 1), 2 * Double(one.maxX - one.minX + 1), accuracy: 2)
        XCTAssertEqual(Double(two.maxY - two.minY + 1), 2 * Double(one.maxY - one.minY + 1), accuracy: 2)
    }

    /// The foreground colour fills the glyphs (premultiplied by coverage at the edges).
    func testForegroundColour() {
        let b = render(text("I", width: 100, height: 100, fontSize: 80) { $0.foregroundColor = rgb(200, 40, 0) })
        let solid = (0..<100).flatMap { y in (0..<100).map { b.rgba($0, y) } }.filter { $0[3] == 255 }
        XCTAssertFalse(solid.isEmpty)
        for px in solid { XCTAssertEqual(px, [200, 40, 0, 255]) }
    }

    /// Characters the font lacks come from a font that has them: 北 is not in DejaVu Sans, so it
    /// is drawn from the CJK fallback, about an em wide.
    func testFallbackFontForCJK() throws {
        let fallback = FontLibrary.withFonts { fonts in fonts.face(for: nil)!.glyphIndex("北") == 0 && fonts.fallback(for: "北", family: nil) != nil }
        XCTAssertTrue(fallback)
        let box = try XCTUnwrap(ink(render(text("北", width: 60, height: 60, fontSize: 40))))
        XCTAssertGreaterThan(box.maxX - box.minX, 28)
    }

    /// A font named by family goes through fontconfig; one named by file is opened directly.
    /// Both differ from the default.
    func testFontByFamilyAndFile() {
        let sans = render(text("Family"))
        let serif = render(text("Family") { $0.font = "DejaVu Serif" })
        let bold = render(text("Family") { $0.font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf" })
        XCTAssertNotEqual(sans, serif)
        XCTAssertNotEqual(sans, bold)
        XCTAssertNotNil(ink(serif))
        XCTAssertNotNil(ink(bold))
    }
}
