import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import XCTest

/// The CPU renderer frees each offscreen pass once its last reader has drawn, so a frame of
/// nested passes holds a level's worth, not every pass it drew.
final class PassLifetimeTests: XCTestCase {
    /// Six nested levels (`BenchmarkScene.nested`: 200x200, mask (10, 10, 180, 180), shadow
    /// radius 20 (blur margin 61) at offset (4, 6)). Each level's pass covers what casts a shadow
    /// into the mask and the mask itself: the mask and the mask moved back by (4, 6), 61 wider,
    /// x −55…251 and y −57…251, 306x308. A level draws its content, its mask, then for the
    /// shadow a downsample by 4 and two blurs (77x77 each), then shadow and content together
    /// (306x308), which the mask multiplies where the level is drawn. Held at once, by hand:
    /// content, mask, the last blur and the shadow-and-content target while that is drawn
    /// (3 × 306 × 308 + 77² pixels), at 20 bytes a pixel. Kept to the end, the 36 passes would be
    /// 6 × (3 × 306 × 308 + 3 × 77²) pixels.
    func testNestedPassesAreFreedAfterTheirLastReader() throws {
        let list = Compositor.displayList(for: BenchmarkScene.nested.make(count: 6))
        XCTAssertEqual(list.passes.count, 37)
        let renderer = CPURenderer()
        _ = try renderer.render(list)
        XCTAssertEqual(CPURenderer.bytesPerPassPixel, 20)
        XCTAssertEqual(renderer.lastPeakPassBytes, (3 * 306 * 308 + 77 * 77) * 20)
        XCTAssertLessThan(renderer.lastPeakPassBytes, 6 * (3 * 306 * 308 + 3 * 77 * 77) * 20 / 5)
    }
}
