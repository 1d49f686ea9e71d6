import CPURenderer
import Foundation
@testable import GLRenderer
import LayerCompositor
import LayerKitCore
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

    /// Lists from a `FrameCompositor` name the canvas quads that may have changed, and both
    /// backends compare only those. Over random edits (fixed seeds), the GL renderer that
    /// follows them has the records and frame plan of a fresh build and the pixels of a full
    /// redraw of the same list without its lineage; the CPU renderer that follows them, the
    /// pixels of its own full redraw; and the two backends agree within the standard budget.
    func testFramesFollowingTheLineageEqualFullRebuildsOverRandomEdits() throws {
        let h = try GLHarness()
        let full = try GLRenderer()
        full.tracksDamage = false
        var narrowed = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            var g = SeededGenerator(seed: seed)
            let root = randomTree(count: 30, size: CGSize(width: 160, height: 120), using: &g)
            let compositor = FrameCompositor(), cpu = CPURenderer()
            for step in 0..<16 {
                for _ in 0..<Int.random(in: 0...2, using: &g) { randomEdit(root, using: &g) }
                let list = compositor.displayList(root: root.snapshot(), width: 160, height: 120, scale: 1, background: nil)
                let bare = Compositor.displayList(root: root.snapshot(), width: 160, height: 120, scale: 1, background: nil)
                XCTAssertNil(bare.canvasChanges(since: list), "a list of its own: compared in full")
                let gl = try h.renderer.render(list)
                let s = h.renderer.lastFrameStats
                if s.recordsCompared > 0 && s.recordsCompared < s.quads { narrowed += 1 }
                let r = try XCTUnwrap(h.renderer.records)
                let fresh = GLRenderer.frameData(list, canvas: (160, 120), es: h.renderer.isES) { _ in (1, 1) }
                XCTAssertEqual(r.data.floats, fresh.data.floats, "seed \(seed), step \(step)")
                XCTAssertEqual(r.features, fresh.features, "seed \(seed), step \(step)")
                XCTAssertEqual(r.plan, FramePlan(list, features: fresh.features), "seed \(seed), step \(step)")
                XCTAssertTrue(gl == (try full.render(bare)), "seed \(seed), step \(step)")
                let reference = try cpu.render(list)
                XCTAssertTrue(reference == (try CPURenderer().render(bare)), "seed \(seed), step \(step)")
                let d = BitmapDifference(reference, gl, threshold: GLBudget.standard.threshold)
                XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "seed \(seed), step \(step)")
            }
        }
        XCTAssertGreaterThan(narrowed, 5, "frames that compared only the quads the lineage named")
    }

    /// The frame plan is kept while the changed quads need what they needed, and planned
    /// again when one needs other shader features: ten squares in one draw, the fifth rounded
    /// (its batch's program gains features) and squared again (loses them), each frame
    /// patching one record.
    func testThePlanFollowsAChangedQuadsFeatures() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
        let squares = (0..<10).map { i in solidLayer(CGRect(x: Double(i) * 20 + 2, y: 2, width: 16, height: 16), CGColor(red: 1, green: 0, blue: 0, alpha: 1)) }
        for s in squares { root.addSublayer(s) }
        let compositor = FrameCompositor()
        func frame() throws -> FramePlan {
            let list = compositor.displayList(root: root.snapshot(), width: 200, height: 20, scale: 1, background: nil)
            let gl = try h.renderer.render(list)
            XCTAssertTrue(gl == (try GLRenderer().render(Compositor.displayList(root: root.snapshot(), width: 200, height: 20, scale: 1,
                                                                                   background: nil))))
            let fresh = GLRenderer.frameData(list, canvas: (200, 20), es: h.renderer.isES) { _ in (1, 1) }
            let plan = try XCTUnwrap(h.renderer.records).plan
            XCTAssertEqual(plan, FramePlan(list, features: fresh.features))
            return plan
        }
        let square = try frame()
        XCTAssertEqual(square.batches.map { $0.map(\.count) }, [[10]])
        squares[4].cornerRadius = 5
        let rounded = try frame()
        XCTAssertEqual(h.renderer.lastFrameStats.recordsCompared, 1)
        XCTAssertNotEqual(rounded, square, "a rounded corner needs more of the shader")
        squares[4].cornerRadius = 0
        XCTAssertEqual(try frame(), square)
        XCTAssertEqual(h.renderer.lastFrameStats.recordsWritten, 1)
    }

    /// The images a frame draws are counted from the last frame's where the lineage names the
    /// changed quads: swapping images on two of three layers (A A B → A A A → C A A) keeps
    /// exactly the images still drawn, by how many quads, and the pixels are the reference's.
    func testImagesDrawnFollowTheChangedQuads() throws {
        let h = try GLHarness()
        func image(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> CGImage {
            CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: (0..<4).flatMap { _ in [r, g, b, 255] }))
        }
        let (a, b, c) = (image(255, 0, 0), image(0, 255, 0), image(0, 0, 255))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 20)
        let layers = [a, a, b].enumerated().map { i, img in
            let l = CALayer()
            l.frame = CGRect(x: Double(i) * 20 + 2, y: 2, width: 16, height: 16)
            l.contents = img
            root.addSublayer(l)
            return l
        }
        let compositor = FrameCompositor()
        func frame() throws -> [ObjectIdentifier: Int] {
            let list = compositor.displayList(root: root.snapshot(), width: 60, height: 20, scale: 1, background: nil)
            let d = BitmapDifference(try CPURenderer().render(list), try h.renderer.render(list), threshold: GLBudget.standard.threshold)
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction)
            return try XCTUnwrap(h.renderer.records).images.mapValues(\.quads)
        }
        XCTAssertEqual(try frame(), [ObjectIdentifier(a): 2, ObjectIdentifier(b): 1])
        layers[2].contents = a
        XCTAssertEqual(try frame(), [ObjectIdentifier(a): 3])
        XCTAssertEqual(h.renderer.lastFrameStats.recordsWritten, 3, "another set of textures: the records are built again")
        layers[0].contents = c
        XCTAssertEqual(try frame(), [ObjectIdentifier(a): 2, ObjectIdentifier(c): 1])
        XCTAssertEqual(h.renderer.lastFrameStats.textureUploads, 1, "C alone is new")
    }
}
