import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import XCTest

/// The GL backend returns each offscreen target to its pool once the target's last reader has
/// drawn, and a later pass of the same size reuses it: a frame of nested passes makes as many
/// targets as it holds at once, not one per pass.
final class GLPassLifetimeTests: XCTestCase {
    /// Six nested levels, 36 offscreen passes (see `PassLifetimeTests`). Held at once, by hand:
    /// three 306x308 targets (content, mask, shadow and content), two 77x77 (a blur and its
    /// source), and the canvas's own target: 6 textures after the frame, no contents images.
    func testNestedPassesReuseTargets() throws {
        let h = try GLHarness()
        let list = Compositor.displayList(for: BenchmarkScene.nested.make(count: 6))
        XCTAssertEqual(list.passes.count, 37)
        _ = try h.renderer.render(list)
        XCTAssertEqual(h.renderer.lastFrameStats.texturesHeld, 6)
        XCTAssertEqual(h.renderer.lastFrameStats.textureBytesHeld, (3 * 306 * 308 + 2 * 77 * 77 + 200 * 200) * 4)
    }
}
