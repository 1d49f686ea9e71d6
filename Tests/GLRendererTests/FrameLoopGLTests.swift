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

    /// Draw calls are counted where they are made: images A, B, A one after another need three
    /// draws (a unit cannot hold two textures); a shadow adds its source pass and two blurs.
    func testDrawCallsAreTheDrawsMade() throws {
        let gl = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        let a = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255]))
        let b = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [0, 0, 255, 255]))
        for (i, image) in [a, b, a].enumerated() {
            let leaf = CALayer()
            leaf.frame = CGRect(x: Double(i) * 12, y: 2, width: 6, height: 6)
            leaf.contents = image
            root.addSublayer(leaf)
        }
        let canvas = FrameLoop.Canvas(width: 40, height: 10)
        let loop = FrameLoop(renderer: gl.renderer)
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames[0][.drawCalls], 3)

        let shadowed = root.sublayers![1]
        shadowed.shadowOpacity = 1
        shadowed.shadowRadius = 2
        try loop.drawFrame(LayerTreeSource(root), at: 1.0 / 60, canvas: canvas)
        let list = try XCTUnwrap(loop.profiler.frames.last)
        // The shadowed layer is drawn into a source pass (one draw: B), blurred along x and y
        // (two draws), and the canvas draws A, the shadow (pass 2) and the layer from its source
        // pass (pass 0), then A: the pass unit cannot hold passes 2 and 0 at once, so two draws,
        // [A, shadow] and [layer, A].
        XCTAssertEqual(list[.passes], 4)
        XCTAssertEqual(list[.drawCalls], 1 + 2 + 2)
    }
}
