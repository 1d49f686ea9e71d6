import CPURenderer
import LayerCompositor
import LayerKit
import XCTest

/// The CPU renderer frees each offscreen pass once its last reader has drawn, so a frame of
/// nested passes holds a level's worth, not every pass it drew.
final class PassLifetimeTests: XCTestCase {
    /// Six nested levels (`BenchmarkScene.nested`), each drawing its content (302x302), its mask
    /// (302x302), content × mask (302x302), then for the shadow a downsample and two blurs
    /// (76x76 each). Held at once, by hand: content, mask and content × mask while the last is
    /// drawn (3 × 302² pixels; a downsample or blur adds 76² to one 302² pass at most, and a
    /// level's content joins its child's content × mask and shadow: 2 × 302² + 76²), at 20
    /// bytes a pixel. Kept to the end, the 36 passes would be 6 × (3 × 302² + 3 × 76²) pixels.
    func testNestedPassesAreFreedAfterTheirLastReader() {
        let list = Compositor.displayList(for: BenchmarkScene.nested.make(count: 6))
        XCTAssertEqual(list.passes.count, 37)
        let renderer = CPURenderer()
        _ = renderer.render(list)
        XCTAssertEqual(CPURenderer.bytesPerPassPixel, 20)
        XCTAssertEqual(renderer.lastPeakPassBytes, 3 * 302 * 302 * 20)
        XCTAssertLessThan(renderer.lastPeakPassBytes, 6 * (3 * 302 * 302 + 3 * 76 * 76) * 20 / 5)
    }
}
