import CPURenderer
import GLRenderer
import LayerCompositor
import LayerKitCore
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
        let canvas = Canvas(width: 20, height: 10)
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

    /// A frame where 3 of 100 squares change compares and writes 3 records, since the
    /// compositor names the quads that changed (`records_compared`); the same list drawn
    /// without its lineage compares all 100 and still writes 3.
    func testAFrameComparesOnlyTheQuadsTheCompositorNames() throws {
        let gl = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let squares = (0..<100).map { i in
            let l = CALayer()
            l.frame = CGRect(x: Double(i % 10) * 10 + 2, y: Double(i / 10) * 10 + 2, width: 6, height: 6)
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            return l
        }
        for s in squares { root.addSublayer(s) }
        let loop = FrameLoop(renderer: gl.renderer)
        let canvas = Canvas(width: 100, height: 100)
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames[0][.recordsWritten], 100)
        XCTAssertEqual(loop.profiler.frames[0][.recordsCompared], 0, "built, not compared")
        for i in [5, 50, 95] { squares[i].backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 1.0 / 60, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames[1][.quadsFlattened], 3)
        XCTAssertEqual(loop.profiler.frames[1][.recordsCompared], 3)
        XCTAssertEqual(loop.profiler.frames[1][.recordsWritten], 3)
        XCTAssertEqual(frame.pixels, try CPURenderer().render(frame.displayList))

        for i in [5, 50, 95] { squares[i].backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1) }
        let bare = Compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        _ = try gl.renderer.render(bare)
        XCTAssertEqual(gl.renderer.lastFrameStats.recordsCompared, 100)
        XCTAssertEqual(gl.renderer.lastFrameStats.recordsWritten, 3)
    }

    /// Draw calls are counted where they are made: images A, B, A one after another need three
    /// draws (a unit cannot hold two textures); a shadow adds its source pass and two blurs.
    func testDrawCallsAreTheDrawsMade() throws {
        let gl = try GLHarness()
        let root = rootWithImagesABA(spacing: 12)
        let canvas = Canvas(width: 40, height: 10)
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
