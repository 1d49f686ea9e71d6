import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The demo's debug options without a window: which keys toggle what, that no page claims
/// those keys, and which regions flash and for how long.
final class DemoDebugOverlayTests: XCTestCase {
    func testKeysToggleOneOverlayAtATimeAndTheFlash() {
        var d = DebugOverlays()
        XCTAssertEqual(d.typed("b"), "debug overlay: blended")
        XCTAssertEqual(d.overlay, .blended)
        XCTAssertEqual(d.typed("o"), "debug overlay: offscreen", "another overlay replaces it")
        XCTAssertEqual(d.typed("i"), "debug overlay: misaligned")
        XCTAssertEqual(d.typed("i"), "debug overlay: off", "its own key again turns it off")
        XCTAssertNil(d.overlay)
        XCTAssertEqual(d.typed("f"), "flash updated regions on")
        XCTAssertTrue(d.flashes)
        XCTAssertNil(d.typed("x"), "not a debug key: the page's")
        XCTAssertEqual(d.summary, "flash")
        _ = d.typed("o")
        XCTAssertEqual(d.summary, "overlay offscreen · flash", "the HUD's status line")
        XCTAssertEqual(d.typed("f"), "flash updated regions off")
        XCTAssertEqual(d.summary, "overlay offscreen")
        _ = d.typed("o")
        XCTAssertNil(d.summary)
    }

    /// The demo's keys come before the page's, so a page using one would never see it.
    func testTheKeysAreListedAndNoPageUsesThem() throws {
        let keys = DebugOverlays.keys.map { String($0.key) } + [String(DebugOverlays.flashKey)]
        let listed = Set(KeysOverlay.globalKeys.map(\.key))
        for k in keys { XCTAssertTrue(listed.contains(k), "\(k) in the ? list") }
        for page in try Gallery.pages(examples: Examples(directory: examplesDirectory)) {
            for help in page.keys {
                XCTAssertFalse(help.key.split(separator: " ").contains { keys.contains(String($0)) }, "\(page.id) uses \(help.key)")
            }
        }
    }

    /// The overlay adds its tints; nothing else changes the list.
    func testApplyDrawsTheOverlay() {
        let root = container(solidLayer(CGRect(x: 10, y: 10, width: 10, height: 10), rgb(255, 0, 0)))
        let list = displayList(root, width: 100, height: 100)
        var d = DebugOverlays()
        let area = CGRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(d.apply(list, now: 0, within: area), list)
        _ = d.typed("b")
        XCTAssertEqual(d.apply(list, now: 0, within: area), list.withDebugOverlay(.blended))
    }

    /// A 10x10 layer moves from (10, 10) to (30, 10): the regions are its old and new pixels,
    /// each a pixel wider (`Damage`'s margin for antialiased fringes): (9, 9) and (29, 9), 12x12.
    /// The first frame flashes all of `area`; each flash ends `flashDuration` after its frame.
    func testUpdatedRegionsFlashForAMoment() {
        let leaf = solidLayer(CGRect(x: 10, y: 10, width: 10, height: 10), rgb(255, 0, 0))
        let root = container(leaf)
        let compositor = FrameCompositor()
        func frame() -> DisplayList { compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil) }
        let area = CGRect(x: 0, y: 0, width: 100, height: 80)
        var d = DebugOverlays()
        _ = d.typed("f")
        let first = frame()
        let drawn = d.apply(first, now: 10, within: area)
        XCTAssertEqual(drawn.canvas.quads.count, 2)
        XCTAssertEqual(drawn.canvas.quads.last?.rect, area, "everything is new, cut to the area")
        XCTAssertEqual(drawn.canvas.quads.last?.fill, .color(DebugOverlays.flashColor))
        XCTAssertEqual(d.nextFlashEnd, 10 + DebugOverlays.flashDuration)

        leaf.position.x += 20
        let moved = d.apply(frame(), now: 10.1, within: area)
        XCTAssertEqual(moved.canvas.quads.dropFirst().map(\.rect),
                       [area, CGRect(x: 9, y: 9, width: 12, height: 12), CGRect(x: 29, y: 9, width: 12, height: 12)])
        XCTAssertEqual(d.nextFlashEnd, 10 + DebugOverlays.flashDuration, "the first flash ends first")

        let later = d.apply(frame(), now: 10 + DebugOverlays.flashDuration, within: area)
        XCTAssertEqual(later.canvas.quads.count, 3, "the first flash is over; the move's still shows")
        XCTAssertEqual(d.apply(frame(), now: 11, within: area).canvas.quads.count, 1, "all over, nothing updated since")
        XCTAssertNil(d.nextFlashEnd)

        leaf.position.x += 20
        let excluded = d.apply(frame(), now: 12, within: area, excluding: CGRect(x: 45, y: 0, width: 10, height: 10))
        XCTAssertEqual(excluded.canvas.quads.dropFirst().map(\.rect), [CGRect(x: 29, y: 9, width: 12, height: 12)],
                       "the new place (49, 9) meets the excluded rectangle")
    }

    private func container(_ sublayer: CALayer) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(sublayer)
        return root
    }
}
