import Foundation
import GLRenderer
import LayerCompositor
import LayerKit
import LayerKitTestSupport
import XCTest

/// The GL renderer redraws (scissored) and reads back only a frame's damage, and gets exactly
/// the pixels it draws in full.
final class GLDamageTests: XCTestCase {
    /// Two squares far apart that move redraw their own places, not the box spanning both. A
    /// 10-point square's reference bounds are one pixel wider on each side, and GL's one more
    /// (14 x 14); moved 2 to the right its old and new bounds merge into 16 x 14 = 224 pixels.
    func testChangesFarApartRedrawOnlyTheirOwnRectangles() throws {
        let h = try GLHarness()
        let (root, a, b) = twoSquaresFarApart()
        _ = try h.renderer.render(displayList(root, width: 200, height: 200))
        XCTAssertEqual(h.renderer.lastRedrawnPixels, 200 * 200, "the first frame is drawn in full")
        a.position.x += 2
        b.position.x += 2
        let damaged = try h.renderer.render(displayList(root, width: 200, height: 200))
        XCTAssertEqual(h.renderer.lastRedrawnPixels, 2 * 224)
        h.renderer.tracksDamage = false
        XCTAssertTrue(damaged == (try h.renderer.render(displayList(root, width: 200, height: 200))))
        XCTAssertEqual(h.renderer.lastRedrawnPixels, 200 * 200)
    }

    /// Over random edits of random trees (fixed seeds), each damage redraw is byte for byte the
    /// full one, also after a frame that was not read back.
    func testDamageRedrawsEqualFullRedrawsOverRandomEdits() throws {
        let h = try GLHarness()
        let full = try GLRenderer()
        full.tracksDamage = false
        var damageFrames = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            var g = SeededGenerator(seed: seed)
            let root = randomTree(count: 30, size: CGSize(width: 160, height: 120), using: &g)
            _ = try h.renderer.render(displayList(root, width: 160, height: 120))
            for step in 0..<16 {
                randomEdit(root, using: &g)
                let list = displayList(root, width: 160, height: 120)
                if step == 8 {
                    try h.renderer.renderAndFinish(list)
                    continue
                }
                let damaged = try h.renderer.render(list)
                if h.renderer.lastRedrawnPixels < 160 * 120 { damageFrames += 1 }
                XCTAssertTrue(damaged == (try full.render(list)), "seed \(seed), step \(step)")
            }
        }
        XCTAssertGreaterThan(damageFrames, 10, "frames without offscreen passes were damage redraws")
    }
}
