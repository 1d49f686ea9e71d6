import CPURenderer
import GLRenderer
import LayerCompositor
import LayerKit
import XCTest

/// `FrameLoop` driving `GLRenderer`: the backend's phases and counters land in the loop's
/// frame, and the pixels are the CPU reference's.
final class FrameLoopGLTests: XCTestCase {
    func testTheLoopRecordsTheGLBackendsPhasesAndCounters() throws {
        let gl = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        for x in [2.0, 11] {
            let leaf = CALayer()
            leaf.frame = CGRect(x: x, y: 2, width: 6, height: 4)
            leaf.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(leaf)
        }
        let loop = FrameLoop(renderer: gl.renderer)
        let canvas = FrameLoop.Canvas(width: 20, height: 10)
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        let f = loop.profiler.frames[0]
        XCTAssertEqual(f.phases.map(\.name), ["layout", "snapshot", "composite", "draw", "readback"])
        XCTAssertEqual(f[.quads], 2)
        XCTAssertEqual(f[.passes], 1)
        XCTAssertEqual(f[.drawCalls], 1, "two colour quads with the same features: one instanced draw")
        XCTAssertEqual(f[.recordsWritten], 2)
        XCTAssertEqual(f[.texturesHeld], Double(try XCTUnwrap(loop.renderer.texturesHeld)))
        XCTAssertEqual(frame.pixels, try CPURenderer().render(frame.displayList))

        // The same tree again: the list is reused, and so are the records.
        try loop.drawFrame(LayerTreeSource(root), at: 1.0 / 60, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames[1][.displayListReused], 1)
        XCTAssertEqual(loop.profiler.frames[1][.recordsWritten], 0)
    }
}
