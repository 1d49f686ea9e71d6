import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// Redrawing only the damage gives exactly the pixels of a full redraw.
final class DamageTests: XCTestCase {
    func testMovingOneLayerRedrawsOnlyItsOldAndNewPlace() throws {
        let scene = BenchmarkScene.multiply.make(count: 400)
        let root = scene.root
        let renderer = CPURenderer()
        func list() -> DisplayList { Compositor.displayList(for: scene) }
        _ = try renderer.render(list())
        XCTAssertEqual(renderer.lastRedrawnPixels, 1280 * 720, "the first frame is a full render")

        let moved = root.sublayers![137]
        moved.position.x += 7
        moved.transform = CATransform3DRotate(moved.transform, 0.2, 0, 0, 1)
        let incremental = try renderer.render(list())
        XCTAssertGreaterThan(renderer.lastRedrawnPixels, 0)
        XCTAssertLessThan(renderer.lastRedrawnPixels, 1280 * 720 / 100, "only around the moved square")
        let full = try CPURenderer().render(list())
        XCTAssertEqual(BitmapDifference(incremental, full, threshold: 0).pixelsOver, 0)

        _ = try renderer.render(list())
        XCTAssertEqual(renderer.lastRedrawnPixels, 0, "an unchanged frame redraws nothing")
    }

    /// The renderer hands out its canvas without copying; a frame the caller still holds is
    /// not touched by the next frame's damage redraw.
    func testAHeldFrameDoesNotChangeWhenTheNextIsDrawn() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let a = solidLayer(CGRect(x: 8, y: 8, width: 20, height: 20), rgb(255, 0, 0))
        root.addSublayer(a)
        let renderer = CPURenderer()
        let first = try renderer.render(displayList(root, width: 64, height: 64))
        let expected = try CPURenderer().render(displayList(root, width: 64, height: 64))
        a.position.x += 20
        let second = try renderer.render(displayList(root, width: 64, height: 64))
        XCTAssertGreaterThan(renderer.lastRedrawnPixels, 0, "the second frame was a damage redraw")
        XCTAssertEqual(first, expected, "the first frame is as it was drawn")
        XCTAssertNotEqual(first.pixels, second.pixels)
    }

    func testReorderingRedrawsTheOverlap() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let a = solidLayer(CGRect(x: 20, y: 20, width: 100, height: 100), rgb(255, 0, 0))
        let b = solidLayer(CGRect(x: 60, y: 60, width: 100, height: 100), rgb(0, 0, 255, 0.5))
        root.addSublayer(a)
        root.addSublayer(b)
        let renderer = CPURenderer()
        _ = try renderer.render(displayList(root, width: 200, height: 200))
        a.zPosition = 1
        let incremental = try renderer.render(displayList(root, width: 200, height: 200))
        XCTAssertEqual(incremental.rgba(80, 80), [255, 0, 0, 255], "red now in front")
        XCTAssertEqual(BitmapDifference(incremental, renderCPU(root, width: 200, height: 200), threshold: 0).pixelsOver, 0)
    }

    /// Two squares far apart that move redraw their own places, not the box spanning both.
    /// A 10-point square's pixel bounds are one pixel wider on each side (12 x 12); moved 2 to
    /// the right its old and new bounds meet and merge into 14 x 12 = 168 pixels.
    func testChangesFarApartRedrawOnlyTheirOwnRectangles() throws {
        let (root, a, b) = twoSquaresFarApart()
        let renderer = CPURenderer()
        _ = try renderer.render(displayList(root, width: 200, height: 200))
        a.position.x += 2
        b.position.x += 2
        let incremental = try renderer.render(displayList(root, width: 200, height: 200))
        XCTAssertEqual(renderer.lastRedrawnPixels, 2 * 168)
        XCTAssertEqual(incremental, renderCPU(root, width: 200, height: 200))
    }

    /// Over random edits of random trees (fixed seeds), each damage redraw is byte for byte
    /// the full redraw.
    func testDamageRedrawsEqualFullRedrawsOverRandomEdits() throws {
        var damageFrames = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            var g = SeededGenerator(seed: seed)
            let root = randomTree(count: 30, size: CGSize(width: 160, height: 120), using: &g)
            let renderer = CPURenderer()
            _ = try renderer.render(displayList(root, width: 160, height: 120))
            for step in 0..<16 {
                randomEdit(root, using: &g)
                let incremental = try renderer.render(displayList(root, width: 160, height: 120))
                if renderer.lastRedrawnPixels < 160 * 120 { damageFrames += 1 }
                XCTAssertTrue(incremental == renderCPU(root, width: 160, height: 120), "seed \(seed), step \(step)")
            }
        }
        XCTAssertGreaterThan(damageFrames, 10, "frames without offscreen passes were damage redraws")
    }

    /// An image no longer drawn is let go even when every later frame is a damage redraw (a
    /// slideshow of new images in a corner would otherwise keep every image it ever showed).
    func testADamageRedrawLetsGoOfImagesNoLongerDrawn() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let picture = CALayer()
        picture.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        root.addSublayer(picture)
        let renderer = CPURenderer()
        weak var shown: CGImage?
        do {
            let red = solidImage(width: 8, height: 8, rgb(255, 0, 0))
            shown = red
            picture.contents = red
            _ = try renderer.render(displayList(root, width: 64, height: 64))
            // A static change: an implicit animation of the committed layer would hold the red
            // image as its `fromValue`.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            picture.contents = solidImage(width: 8, height: 8, rgb(0, 0, 255))
            CATransaction.commit()
        }
        let next = try renderer.render(displayList(root, width: 64, height: 64))
        XCTAssertGreaterThan(renderer.lastRedrawnPixels, 0)
        XCTAssertLessThan(renderer.lastRedrawnPixels, 64 * 64, "only around the 8 x 8 picture: a damage redraw")
        XCTAssertEqual(next.rgba(4, 4), [0, 0, 255, 255])
        XCTAssertNil(shown, "the red image is drawn no more: the renderer does not keep it")
    }
}
