import Foundation
@testable import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// How the compositor draws a `CAReplicatorLayer`'s copies (docs/scene-format.md,
/// "replicatorLayer"), read off the display list: copy k of a sublayer is placed by
/// I_k = T(−c) · Tᵏ · T(c) about the bounds' centre c, its colours multiplied by
/// instanceColor + k · offsets (clamped), its time shifted by k · instanceDelay; copies draw
/// in order, nested replicators compose, and `preservesDepth` makes a transform layer of it.
/// Every expected number is worked out by hand in its comment.
final class ReplicatorCompositingTests: XCTestCase {
    private func replicator(_ frame: CGRect, count: Int, _ t: CATransform3D = CATransform3DIdentity,
                            _ sublayers: [CALayer]) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = frame
        r.instanceCount = count
        r.instanceTransform = t
        for s in sublayers { r.addSublayer(s) }
        return r
    }

    /// The point `p` of a quad's rect, where its transform puts it (2D, w = 1).
    private func placed(_ q: DrawQuad, _ p: CGPoint) -> CGPoint {
        let m = q.transform
        return CGPoint(x: p.x * m.m11 + p.y * m.m21 + m.m41, y: p.x * m.m12 + p.y * m.m22 + m.m42)
    }

    /// Listing 6.8: a 300 × 300 replicator, T = translate(0, 200) · rotate(36°) · translate(0,
    /// −200) chained as Core Animation's CATransform3DTranslate/Rotate chain them (so the turn
    /// is about the point 200 below the centre), and a 100 × 100 square at (100, 100). Copy 0's
    /// centre is (150, 150); copy k's is turned k · 36° about (150, 350): copy 1's at
    /// (150 + 200 sin 36°, 350 − 200 cos 36°) = (267.557, 188.197), copy 2's at
    /// (150 + 200 sin 72°, 350 − 200 cos 72°) = (340.211, 288.197). Each copy's linear part is
    /// the rotation by k · 36°.
    func testListing68GeometryTurnsEachCopyAboutTheCentre() {
        let t = CATransform3DTranslate(CATransform3DRotate(CATransform3DMakeTranslation(0, 200, 0), .pi / 5, 0, 0, 1), 0, -200, 0)
        let square = solid("square", CGRect(x: 100, y: 100, width: 100, height: 100))
        let list = compose(replicator(CGRect(x: 0, y: 0, width: 300, height: 300), count: 3, t, [square]), 400, 400)
        XCTAssertEqual(list.canvasLabels, ["square", "square", "square"])
        guard list.canvas.quads.count == 3 else { return }
        let centre = CGPoint(x: 50, y: 50)
        for (k, expected) in [(150.0, 150.0), (150 + 200 * sin(.pi / 5), 350 - 200 * cos(.pi / 5)),
                              (150 + 200 * sin(2 * .pi / 5), 350 - 200 * cos(2 * .pi / 5))].enumerated() {
            let q = list.canvas.quads[k], c = placed(q, centre)
            XCTAssertEqual(c.x, expected.0, accuracy: 1e-9, "copy \(k)")
            XCTAssertEqual(c.y, expected.1, accuracy: 1e-9, "copy \(k)")
            XCTAssertEqual(q.transform.m11, cos(Double(k) * .pi / 5), accuracy: 1e-12)
            XCTAssertEqual(q.transform.m12, sin(Double(k) * .pi / 5), accuracy: 1e-12)
        }
        XCTAssertEqual(list.canvas.quads[1].rect, CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    /// The centre is the bounds' centre, not the anchor point: with anchorPoint (0, 0) and
    /// bounds origin (10, 0), c = (10 + 50, 50) = (60, 50); a quarter turn takes the sublayer's
    /// point (60, 0) (50 above c) to (110, 50) in the replicator's bounds space, which is
    /// (100, 50) on the canvas (the bounds origin shifts by −10).
    func testTheCentreIsTheBoundsCentre() {
        let dot = solid("dot", CGRect(x: 60, y: 0, width: 1, height: 1))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 2, CATransform3DMakeRotation(.pi / 2, 0, 0, 1), [dot])
        r.anchorPoint = .zero
        r.position = .zero
        r.bounds.origin = CGPoint(x: 10, y: 0)
        let list = compose(r)
        guard list.canvas.quads.count == 2 else { return XCTFail("\(list.canvasLabels)") }
        let p = placed(list.canvas.quads[1], .zero)
        XCTAssertEqual(p.x, 100, accuracy: 1e-12)
        XCTAssertEqual(p.y, 50, accuracy: 1e-12)
    }

    /// The replicator's own background is drawn once, under every copy; no copies with
    /// instanceCount 0 or below.
    func testOwnContentOnceAndCountsOfZeroAndBelow() {
        let bar = solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(20, 0, 0), [bar])
        r.name = "rep"
        r.backgroundColor = rgb(0, 0, 255)
        XCTAssertEqual(compose(r).canvasLabels, ["rep", "bar", "bar", "bar"])
        r.instanceCount = 0
        XCTAssertEqual(compose(r).canvasLabels, ["rep"])
        r.instanceCount = -5
        XCTAssertEqual(compose(r).canvasLabels, ["rep"])
    }

    /// Listing 6.8's colours: white squares, blue and green offsets −0.1. Copy k's colour is
    /// (1, 1 − 0.1k, 1 − 0.1k, 1) (the offset is Float(−0.1), so copy 3 is 0.7 within 1e-7);
    /// with instanceColor (1, 1, 1, 0.5) and alpha offset −0.25, copy 2 has alpha 0 and copy 1
    /// 0.25, premultiplied (0.25, 0.225, 0.225, 0.25).
    func testColourModulationWithOffsets() {
        let square = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 255, 255), name: "square")
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 4, CATransform3DMakeTranslation(10, 0, 0), [square])
        r.instanceBlueOffset = -0.1
        r.instanceGreenOffset = -0.1
        let fills = compose(r).canvas.quads.map { q -> PremultipliedColor? in if case .color(let c) = q.fill { c } else { nil } }
        XCTAssertEqual(fills.count, 4)
        for (k, f) in fills.enumerated() {
            guard let f else { return XCTFail("copy \(k) has no colour fill") }
            XCTAssertEqual(f.r, 1)
            XCTAssertEqual(f.g, 1 - 0.1 * Float(k), accuracy: 1e-6)
            XCTAssertEqual(f.b, 1 - 0.1 * Float(k), accuracy: 1e-6)
            XCTAssertEqual(f.a, 1)
        }
        r.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        r.instanceAlphaOffset = -0.25
        let quads = compose(r).canvas.quads
        guard case .color(let c1) = quads[1].fill else { return XCTFail("no colour") }
        XCTAssertEqual(c1.a, 0.25, accuracy: 1e-6)
        XCTAssertEqual(c1.g, 0.225, accuracy: 1e-6)
        // Copies 2 and 3 (alpha 0 after clamping) draw nothing visible.
        let drawn = quads.filter { if case .color(let c) = $0.fill { c.a > 0 } else { true } }
        XCTAssertEqual(drawn.count, 2)
    }

    /// Image pixels are tinted premultiplied: a pixel (200, 100, 50, 255) under
    /// m = (1, 0.5, 1, 0.4) becomes (200·0.4, 100·0.5·0.4, 50·0.4, 255·0.4) = (80, 20, 20, 102).
    func testContentsArePremultipliedByTheTint() throws {
        let pic = CALayer()
        pic.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
        pic.contents = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [200, 100, 50, 255]))
        let r = replicator(CGRect(x: 0, y: 0, width: 10, height: 10), count: 1, CATransform3DIdentity, [pic])
        r.instanceColor = CGColor(red: 1, green: 0.5, blue: 1, alpha: 0.4)
        guard case .image(let fill) = try XCTUnwrap(compose(r).canvas.quads.first).fill else { return XCTFail("not an image") }
        XCTAssertEqual(fill.image.bitmap.pixels, [80, 20, 20, 102])
    }

    /// instanceDelay 0.25 s, an opacity animation of the sublayer from 0.2 to 1 over 1 s from
    /// time 10: at 10.5 copy 0 draws at 0.2 + 0.8 · 0.5 = 0.6, copy 1 at 0.4, copy 2 at 0.2;
    /// copy 3 (at 9.75, before the animation) at the model's 0.9.
    func testInstanceDelayShiftsTheCopiesAnimations() {
        let bar = solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))
        bar.opacity = 0.9
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 4, CATransform3DMakeTranslation(20, 0, 0), [bar])
        r.instanceDelay = 0.25
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0.2
        a.toValue = 1
        a.beginTime = 10
        a.duration = 1
        bar.add(a, forKey: nil)
        let list = Compositor.displayList(root: r.snapshot(atTime: 10.5), width: 100, height: 100, scale: 1, background: nil)
        let opacities = list.canvas.quads.map(\.opacity)
        XCTAssertEqual(opacities.count, 4)
        for (o, e) in zip(opacities, [0.6, 0.4, 0.2, 0.9] as [Float]) { XCTAssertEqual(o, e, accuracy: 1e-6, "\(opacities)") }
    }

    /// Nested replicators compose: an outer one of 2 copies moving 50 down holding an inner one
    /// of 2 moving 50 right draws the dot at (0, 0), (50, 0), (0, 50), (50, 50), in that order;
    /// the outer alpha offset −0.5 and the inner red offset −0.5 multiply: the last copy has
    /// straight (0.5, 1, 1, 0.5), premultiplied (0.25, 0.5, 0.5, 0.5).
    func testNestedReplicatorsComposeAndMultiply() {
        let dot = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 255, 255), name: "dot")
        let inner = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 2, CATransform3DMakeTranslation(50, 0, 0), [dot])
        inner.instanceRedOffset = -0.5
        let outer = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 2, CATransform3DMakeTranslation(0, 50, 0), [inner])
        outer.instanceAlphaOffset = -0.5
        let quads = compose(outer).canvas.quads
        XCTAssertEqual(quads.map { placed($0, .zero) }, [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 0), CGPoint(x: 0, y: 50), CGPoint(x: 50, y: 50)])
        guard quads.count == 4, case .color(let last) = quads[3].fill else { return XCTFail("no colour") }
        XCTAssertEqual([last.r, last.g, last.b, last.a], [0.25, 0.5, 0.5, 0.5])
    }

    /// preservesDepth: the replicator draws nothing of its own (a transform layer); without it,
    /// its background is drawn under the copies.
    func testPreservesDepthActsAsATransformLayer() {
        let bar = solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 2, CATransform3DMakeTranslation(20, 0, 0), [bar])
        r.name = "rep"
        r.backgroundColor = rgb(0, 0, 255)
        r.preservesDepth = true
        XCTAssertEqual(compose(r).canvasLabels, ["bar", "bar"])
        r.preservesDepth = false
        XCTAssertEqual(compose(r).canvasLabels, ["rep", "bar", "bar"])
    }

    /// A transition's old rendering holding a replicator draws its copies too: a fade of a
    /// layer whose replicator went from 2 copies to 3 draws 2 old and 3 new bars halfway.
    func testTransitionsOldRenderingDrawsItsCopies() {
        let bar = solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 2, CATransform3DMakeTranslation(20, 0, 0), [bar])
        let host = container(CGRect(x: 0, y: 0, width: 100, height: 100), [r])
        _ = host.snapshot()
        let fade = CATransition()
        fade.beginTime = 10
        fade.duration = 1
        CATransaction.begin()
        host.add(fade, forKey: kCATransition)
        r.instanceCount = 3
        CATransaction.commit()
        let list = Compositor.displayList(root: host.snapshot(atTime: 10.5), width: 100, height: 100, scale: 1, background: nil)
        let bars = list.passes.flatMap { pass -> [DrawQuad] in if case .quads(let q) = pass.content { q } else { [] } }
            .filter { $0.label == "bar" }
        XCTAssertEqual(bars.count, 5)
    }

    /// A tree built in Swift may ask for a billion copies; the compositor makes at most
    /// `maximumDrawnLayers` replicated layers, each copy of one sublayer costing 2 (the copy
    /// and its wrapper): 500,000 copies, made in bounded time. Replicators of two copies
    /// nested 10,000 deep (2^10000 copies asked for) stop at the same bound.
    func testHugeCountsAndDeepNestingAreBounded() {
        let r = replicator(CGRect(x: 0, y: 0, width: 10, height: 10), count: 1_000_000_000, CATransform3DIdentity,
                           [solid("bar", CGRect(x: 0, y: 0, width: 1, height: 1))])
        let expanded = ReplicatorExpansion(previous: nil).expand(r.snapshot())
        XCTAssertEqual(expanded.sublayers.count, 500_000)
        var deep: CALayer = solid("leaf", CGRect(x: 0, y: 0, width: 1, height: 1))
        for _ in 0..<10_000 { deep = replicator(CGRect(x: 0, y: 0, width: 10, height: 10), count: 2, CATransform3DIdentity, [deep]) }
        let start = Date()
        let nested = ReplicatorExpansion(previous: nil).expand(deep.snapshot())
        XCTAssertLessThanOrEqual(nested.layerCount, 10_000 + LayerSnapshot.maximumDrawnLayers)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
    }

    /// Across frames: when only a layer beside the replicator moves, the frame compositor
    /// copies the three copies' quads from the last frame instead of flattening them again.
    func testFrameCompositorReusesAnUnchangedReplicatorsQuads() {
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(20, 0, 0),
                           [solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))])
        r.instanceAlphaOffset = -0.25
        let mover = solid("mover", CGRect(x: 0, y: 50, width: 10, height: 10))
        let root = container(CGRect(x: 0, y: 0, width: 100, height: 100), [r, mover])
        let compositor = FrameCompositor()
        _ = compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        mover.position.x += 10
        let list = compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        XCTAssertEqual(list.canvasLabels, ["bar", "bar", "bar", "mover"])
        XCTAssertEqual(compositor.lastCopiedQuads, 3)
        XCTAssertEqual(compositor.lastInstances, 3, "the kept copies count as drawn")
    }

    /// A replicator that did not change between frames is rewritten once: the next frame's
    /// expansion gives back the same objects, so the compositor's memo reuses its quads.
    func testUnchangedReplicatorsKeepTheirExpansion() {
        let r = replicator(CGRect(x: 0, y: 0, width: 10, height: 10), count: 3, CATransform3DMakeTranslation(1, 0, 0),
                           [solid("bar", CGRect(x: 0, y: 0, width: 1, height: 1))])
        r.instanceAlphaOffset = -0.25
        let root = container(CGRect(x: 0, y: 0, width: 10, height: 10), [r])
        let first = ReplicatorExpansion(previous: nil)
        let a = first.expand(root.snapshot())
        let b = ReplicatorExpansion(previous: first).expand(root.snapshot())
        XCTAssertTrue(a === b)
        // A tree without replicators is given back as it is.
        let plain = container(.zero, [solid("bar", CGRect(x: 0, y: 0, width: 1, height: 1))]).snapshot()
        XCTAssertTrue(ReplicatorExpansion(previous: nil).expand(plain) === plain)
    }
}
