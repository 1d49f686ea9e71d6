import CPURenderer
import LayerCompositor
import LayerKitCore
import XCTest

/// `FrameLoop` driving the CPU reference: it draws what the renderer draws from the
/// compositor's list, timed as `draw`.
final class FrameLoopCPUTests: XCTestCase {
    func testTheLoopDrawsTheCompositorsListOnTheCPU() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        let leaf = CALayer()
        leaf.frame = CGRect(x: 2, y: 2, width: 6, height: 4)
        leaf.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(leaf)
        let loop = FrameLoop(renderer: CPURenderer())
        let canvas = Canvas(width: 20, height: 10, background: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.renderer.name, "cpu")
        XCTAssertEqual(loop.profiler.frames[0].phases.map(\.name), ["layout", "snapshot", "composite", "draw"])
        XCTAssertEqual(loop.profiler.frames[0][.quads], 1)
        // Pixel (3, 3) is inside the red 6x4 leaf at (2, 2); (10, 3) is the blue background.
        let inside = frame.pixels[3, 3], outside = frame.pixels[10, 3]
        XCTAssertEqual([inside.r, inside.g, inside.b, inside.a], [255, 0, 0, 255])
        XCTAssertEqual([outside.r, outside.g, outside.b, outside.a], [0, 0, 255, 255])
        XCTAssertNil(loop.renderer.texturesHeld, "the CPU keeps no textures it counts")
    }
}
