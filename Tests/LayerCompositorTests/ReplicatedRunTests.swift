import Foundation
@testable import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// When the compositor marks a replicator's copies as a replicated run (`CopyRun`: the quads of
/// copy 0 and, per copy, an affine pixel map and a colour factor, which GL draws instanced) and
/// when it does not, leaving the copies' quads to be drawn one by one. The list holds every
/// copy's quads either way. Expected maps and factors are worked out by hand in the comments.
final class ReplicatedRunTests: XCTestCase {
    private func replicator(_ frame: CGRect, count: Int, _ t: CATransform3D = CATransform3DIdentity,
                            _ sublayers: [CALayer]) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = frame
        r.instanceCount = count
        r.instanceTransform = t
        for s in sublayers { r.addSublayer(s) }
        return r
    }

    private func runs(_ quads: [DrawQuad]) -> [(index: Int, run: CopyRun)] {
        quads.enumerated().compactMap { i, q in q.copyRun.map { (i, $0) } }
    }

    private func assertCopy(_ c: CopyRun.Copy, _ abcdef: [Double], tint: [Float], accuracy: Double = 1e-9,
                            file: StaticString = #filePath, line: UInt = #line) {
        assertEqual([c.a, c.b, c.c, c.d, c.e, c.f], abcdef, accuracy: accuracy, "map", file: file, line: line)
        for (x, e) in zip([c.tint.x, c.tint.y, c.tint.z, c.tint.w], tint) {
            XCTAssertEqual(x, e, accuracy: 1e-6, "tint \(c.tint)", file: file, line: line)
        }
    }

    /// Listing 6.8 (the seed): ten copies of one white square, each turned 36° more about the
    /// point 200 below the replicator's centre, (150, 350) in its bounds, (250, 370) on the
    /// canvas (frame origin (100, 20)); green and blue offsets −0.1 make copy k's colour
    /// (1, 1 − 0.1k, 1 − 0.1k, 1), opaque, so its factor relative to copy 0 is that too. Copy
    /// k's map turns by θ = 36k° about (250, 370): a = d = cos θ, b = sin θ, c = −sin θ (row
    /// vectors: x' = x cos θ − y sin θ + e), e = 250 − 250 cos θ + 370 sin θ,
    /// f = 370 − 250 sin θ − 370 cos θ.
    func testListing68IsOneRunOfTenCopies() {
        let square = solidLayer(CGRect(x: 100, y: 100, width: 100, height: 100), rgb(255, 255, 255), name: "square")
        let t = CATransform3DTranslate(CATransform3DRotate(CATransform3DMakeTranslation(0, 200, 0), .pi / 5, 0, 0, 1), 0, -200, 0)
        let ring = replicator(CGRect(x: 100, y: 20, width: 300, height: 300), count: 10, t, [square])
        ring.instanceGreenOffset = -0.1
        ring.instanceBlueOffset = -0.1
        let list = compose(container(CGRect(x: 0, y: 0, width: 500, height: 640), [ring]), 500, 640)
        XCTAssertEqual(list.canvas.quads.count, 10)
        let found = runs(list.canvas.quads)
        XCTAssertEqual(found.map(\.index), [0])
        guard let run = found.first?.run else { return }
        XCTAssertEqual(run.quadsPerCopy, 1)
        XCTAssertEqual(run.copies.count, 10)
        for k in [0, 1, 3, 9] {
            let θ = Double(k) * .pi / 5, (s, c) = (sin(θ), cos(θ))
            let g = Float(1 - 0.1 * Double(k))
            assertCopy(run.copies[k], [c, s, -s, c, 250 - 250 * c + 370 * s, 370 - 250 * s - 370 * c], tint: [1, g, g, 1])
        }
    }

    /// A copy of several quads (background, a sublayer, a border) is one block: 3 quads per
    /// copy, 4 copies 30 apart along x, untinted.
    func testACopyOfSeveralQuadsIsOneBlock() {
        let card = solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), rgb(0, 0, 255), name: "card")
        card.borderWidth = 2
        card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        card.addSublayer(solidLayer(CGRect(x: 5, y: 5, width: 5, height: 5), rgb(255, 255, 0), name: "pip"))
        let r = replicator(CGRect(x: 10, y: 10, width: 150, height: 50), count: 4, CATransform3DMakeTranslation(30, 0, 0), [card])
        let list = compose(r)
        XCTAssertEqual(list.canvasLabels, Array(repeating: ["card", "pip", "card"], count: 4).flatMap { $0 })
        let found = runs(list.canvas.quads)
        XCTAssertEqual(found.map(\.index), [0])
        guard let run = found.first?.run else { return }
        XCTAssertEqual(run.quadsPerCopy, 3)
        for k in 0..<4 { assertCopy(run.copies[k], [1, 0, 0, 1, 30 * Double(k), 0], tint: [1, 1, 1, 1]) }
    }

    /// Nested replicators make one run of their product: an outer 3 copies 30 apart along x,
    /// each an inner 4 copies 20 apart along y, is 12 copies of the dot, copy 4i + j at
    /// (30i, 20j); the inner red offset −0.25 gives copy 4i + j red 1 − 0.25j.
    func testNestedReplicatorsAreOneRunOfTheirProduct() {
        let dot = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 255, 255), name: "dot")
        let inner = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 4, CATransform3DMakeTranslation(0, 20, 0), [dot])
        inner.instanceRedOffset = -0.25
        let outer = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(30, 0, 0), [inner])
        let list = compose(outer)
        XCTAssertEqual(list.canvas.quads.count, 12)
        let found = runs(list.canvas.quads)
        XCTAssertEqual(found.map(\.index), [0], "one run, the inner ones replaced")
        guard let run = found.first?.run else { return }
        XCTAssertEqual(run.quadsPerCopy, 1)
        XCTAssertEqual(run.copies.count, 12)
        for i in 0..<3 {
            for j in 0..<4 {
                assertCopy(run.copies[4 * i + j], [1, 0, 0, 1, 30 * Double(i), 20 * Double(j)], tint: [1 - 0.25 * Float(j), 1, 1, 1])
            }
        }
    }

    /// Offsets clamp: red −0.4 from 1 gives copies 1, 0.6, 0.2, 0, 0; the factor is that of
    /// the clamped colours.
    func testClampedOffsetsAreTheFactors() {
        let dot = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 255, 255), name: "dot")
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 5, CATransform3DMakeTranslation(12, 0, 0), [dot])
        r.instanceRedOffset = -0.4
        let list = compose(r)
        guard let run = list.canvas.quads.first?.copyRun else { return XCTFail("no run") }
        for (k, red) in [1, 0.6, 0.2, 0, 0].enumerated() {
            assertCopy(run.copies[k], [1, 0, 0, 1, 12 * Double(k), 0], tint: [Float(red), 1, 1, 1])
        }
    }

    /// Where copy 0 has none of a channel that a later copy has, no factor makes one from the
    /// other: blue 0 with offset +0.5. The copies are drawn one by one.
    func testAChannelCopyZeroLacksIsNoRun() {
        let dot = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 255, 255), name: "dot")
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(12, 0, 0), [dot])
        r.instanceColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        r.instanceBlueOffset = 0.5
        let list = compose(r)
        XCTAssertEqual(list.canvas.quads.count, 3)
        XCTAssertTrue(runs(list.canvas.quads).isEmpty)
    }

    /// `preservesDepth`: the copies are sorted with the replicator's siblings, not flattened
    /// into its plane, so there is no run.
    func testPreservesDepthIsNoRun() {
        let dot = solid("dot", CGRect(x: 0, y: 0, width: 10, height: 10))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(12, 0, 0), [dot])
        r.preservesDepth = true
        let list = compose(container(CGRect(x: 0, y: 0, width: 200, height: 200), [r]))
        XCTAssertEqual(list.canvas.quads.count, 3)
        XCTAssertTrue(runs(list.canvas.quads).isEmpty)
    }

    /// A mask inside the copies puts each copy in passes of its own: no run.
    func testAMaskInTheCopiesIsNoRun() {
        let dot = solid("dot", CGRect(x: 0, y: 0, width: 20, height: 20))
        dot.mask = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 20), rgb(0, 0, 0), name: "mask")
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(25, 0, 0), [dot])
        let list = compose(r)
        XCTAssertGreaterThan(list.passes.count, 1)
        XCTAssertTrue(list.passes.allSatisfy { runs($0.quads).isEmpty })
    }

    /// instanceDelay with an animated sublayer. Opacity 0.2 → 1 over 1 s from time 10, at 10.5
    /// (see ReplicatorCompositingTests): the copies draw at 0.6, 0.4, 0.2, which multiply
    /// what they draw as a colour factor would: a run whose factors are 0.4 / 0.6 = 2/3 and
    /// 0.2 / 0.6 = 1/3 in every channel. A corner radius 0 → 5 makes copies of other shapes
    /// (2.5, 1.5, 0.5 at 10.5): no run. At rest, a run.
    func testInstanceDelayWithAnAnimation() {
        func replicated(_ key: String) -> CAReplicatorLayer {
            let bar = solid("bar", CGRect(x: 0, y: 0, width: 10, height: 10))
            let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(20, 0, 0), [bar])
            r.instanceDelay = 0.25
            let a = CABasicAnimation(keyPath: key)
            (a.fromValue, a.toValue) = key == "opacity" ? (0.2, 1) : (0, 5)
            a.beginTime = 10
            a.duration = 1
            bar.add(a, forKey: nil)
            return r
        }
        let faded = replicated("opacity")
        let rest = Compositor.displayList(root: faded.snapshot(atTime: 0), width: 100, height: 100, scale: 1, background: nil)
        XCTAssertEqual(runs(rest.canvas.quads).map(\.index), [0])
        let list = Compositor.displayList(root: faded.snapshot(atTime: 10.5), width: 100, height: 100, scale: 1, background: nil)
        XCTAssertEqual(list.canvas.quads.map(\.opacity).map { ($0 * 10).rounded() / 10 }, [0.6, 0.4, 0.2])
        guard let run = list.canvas.quads.first?.copyRun else { return XCTFail("no run") }
        assertCopy(run.copies[1], [1, 0, 0, 1, 20, 0], tint: Array(repeating: 2.0 / 3, count: 4))
        assertCopy(run.copies[2], [1, 0, 0, 1, 40, 0], tint: Array(repeating: 1.0 / 3, count: 4))
        let rounded = Compositor.displayList(root: replicated("cornerRadius").snapshot(atTime: 10.5), width: 100, height: 100, scale: 1,
                                             background: nil)
        XCTAssertEqual(rounded.canvas.quads.count, 3)
        XCTAssertTrue(runs(rounded.canvas.quads).isEmpty)
    }

    /// Copies a step apart in a replicator tilted under perspective (turned 30° about x, the
    /// parent's sublayerTransform m34 = −1/500) are projective, not affine, images of copy 0
    /// in pixels: no run.
    func testPerspectiveBetweenCopiesIsNoRun() {
        let dot = solid("dot", CGRect(x: 40, y: 10, width: 20, height: 20))
        let r = replicator(CGRect(x: 50, y: 50, width: 100, height: 100), count: 3, CATransform3DMakeTranslation(0, 30, 0), [dot])
        r.transform = CATransform3DMakeRotation(.pi / 6, 1, 0, 0)
        let parent = container(CGRect(x: 0, y: 0, width: 200, height: 200), [r])
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        parent.sublayerTransform = p
        let list = compose(parent)
        XCTAssertEqual(list.canvas.quads.count, 3)
        XCTAssertTrue(runs(list.canvas.quads).isEmpty)
    }

    /// Copies of an image share it when untinted: a run, whose fills are the very image.
    func testUntintedContentsAreARun() {
        let image = CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)))
        let pic = CALayer()
        pic.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        pic.contents = image
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 4, CATransform3DMakeTranslation(20, 0, 0), [pic])
        let list = compose(r)
        XCTAssertEqual(runs(list.canvas.quads).first?.run.copies.count, 4)
        // Tinted, each copy's image is its own (tinted) image: no run.
        r.instanceAlphaOffset = -0.2
        XCTAssertTrue(runs(compose(r).canvas.quads).isEmpty)
    }

    /// A frame whose replicator is unchanged copies its quads from the memo, run included.
    func testTheMemoKeepsTheRun() {
        let dot = solid("dot", CGRect(x: 0, y: 0, width: 10, height: 10))
        let r = replicator(CGRect(x: 0, y: 0, width: 100, height: 100), count: 5, CATransform3DMakeTranslation(15, 0, 0), [dot])
        let other = solid("other", CGRect(x: 0, y: 150, width: 10, height: 10))
        let root = container(CGRect(x: 0, y: 0, width: 200, height: 200), [r, other])
        let frames = FrameCompositor()
        let first = frames.displayList(root: root.snapshot(), width: 200, height: 200, scale: 1, background: nil)
        other.position = CGPoint(x: 50, y: 155)
        let second = frames.displayList(root: root.snapshot(), width: 200, height: 200, scale: 1, background: nil)
        XCTAssertEqual(runs(first.canvas.quads).map(\.index), [0])
        XCTAssertEqual(runs(second.canvas.quads).map(\.index), [0])
        XCTAssertEqual(second.canvas.quads[0].copyRun, first.canvas.quads[0].copyRun)
    }
}
