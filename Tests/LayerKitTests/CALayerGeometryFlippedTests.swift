import Foundation
import XCTest
@testable import LayerKitCore

/// `isGeometryFlipped`: "the geometry of the layer (and its sublayers) is flipped vertically"
/// (CALayer.h); a flipped layer's sublayers are placed mirrored about its bounds' horizontal
/// mid-line, so their positions count from the bottom (LW p59). The flips of nested layers
/// compose (CALayer.h `contentsAreFlipped`: an odd number of flipped layers up the chain).
final class CALayerGeometryFlippedTests: XCTestCase {
    private func assertPoint(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: 1e-9, "x of \(p)", file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: 1e-9, "y of \(p)", file: file, line: line)
    }

    private func assertRect(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.origin.x, x, accuracy: 1e-9, "x of \(r)", file: file, line: line)
        XCTAssertEqual(r.origin.y, y, accuracy: 1e-9, "y of \(r)", file: file, line: line)
        XCTAssertEqual(r.size.width, w, accuracy: 1e-9, "width of \(r)", file: file, line: line)
        XCTAssertEqual(r.size.height, h, accuracy: 1e-9, "height of \(r)", file: file, line: line)
    }

    private func layer(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, in parent: CALayer? = nil, name: String? = nil) -> CALayer {
        let l = CALayer()
        l.name = name
        l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        l.position = CGPoint(x: x + w / 2, y: y + h / 2)
        parent?.addSublayer(l)
        return l
    }

    func testSublayerIsMirroredAboutTheMidLine() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(0, 0, 200, 100, in: root, name: "p")
        p.isGeometryFlipped = true
        let c = layer(10, 10, 20, 20, in: p, name: "c")
        // The frame is expressed in the (flipped) geometry and does not change.
        XCTAssertEqual(c.frame, CGRect(x: 10, y: 10, width: 20, height: 20))
        // Its centre (20, 20) is placed at 100 − 20 = 80: 20 up from the bottom.
        assertPoint(c.convert(CGPoint(x: 10, y: 10), to: p), 20, 80)
        assertRect(c.convert(c.bounds, to: p), 10, 70, 20, 20)
        assertRect(p.convert(c.bounds, from: c), 10, 70, 20, 20)
        // The whole geometry is mirrored: c's minimum y is at the bottom.
        assertPoint(c.convert(CGPoint(x: 0, y: 0), to: p), 10, 90)
        assertPoint(c.convert(CGPoint(x: 0, y: 20), to: p), 10, 70)
        assertPoint(p.convert(CGPoint(x: 10, y: 90), to: c), 0, 0)
        assertPoint(c.convert(CGPoint(x: 10, y: 10), to: root), 20, 80)
    }

    func testUnflippedPlacementForComparison() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(0, 0, 200, 100, in: root, name: "p")
        let c = layer(10, 10, 20, 20, in: p, name: "c")
        assertRect(c.convert(c.bounds, to: p), 10, 10, 20, 20)
        p.isGeometryFlipped = true
        assertRect(c.convert(c.bounds, to: p), 10, 70, 20, 20)
        p.isGeometryFlipped = false
        assertRect(c.convert(c.bounds, to: p), 10, 10, 20, 20)
    }

    func testMidLineIncludesTheBoundsOrigin() {
        // Bounds y 50…150: the mid-line is y = 100, so y maps to 200 − y.
        let root = layer(0, 0, 400, 400, name: "root")
        let p = CALayer()
        p.bounds = CGRect(x: 0, y: 50, width: 200, height: 100)
        p.position = CGPoint(x: 100, y: 50)
        p.isGeometryFlipped = true
        root.addSublayer(p)
        let c = layer(10, 60, 20, 20, in: p, name: "c")
        assertPoint(c.convert(CGPoint(x: 10, y: 10), to: p), 20, 130)
        assertRect(c.convert(c.bounds, to: p), 10, 120, 20, 20)
        // p's bounds y = 50 is root y = 0, so the centre is at root y = 80.
        assertPoint(c.convert(CGPoint(x: 10, y: 10), to: root), 20, 80)
    }

    func testHitTestingFollowsTheFlip() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(0, 0, 200, 100, in: root, name: "p")
        p.isGeometryFlipped = true
        let c = layer(10, 10, 20, 20, in: p, name: "c")
        XCTAssertTrue(root.hitTest(CGPoint(x: 20, y: 80)) === c)
        XCTAssertTrue(root.hitTest(CGPoint(x: 15, y: 71)) === c)
        XCTAssertTrue(root.hitTest(CGPoint(x: 20, y: 20)) === p)
        XCTAssertTrue(root.hitTest(CGPoint(x: 20, y: 69)) === p)
    }

    func testFlipDoesNotMoveTheLayerItself() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(30, 40, 200, 100, in: root, name: "p")
        p.isGeometryFlipped = true
        XCTAssertEqual(p.frame, CGRect(x: 30, y: 40, width: 200, height: 100))
        XCTAssertTrue(root.hitTest(CGPoint(x: 35, y: 45)) === p)
        XCTAssertTrue(root.hitTest(CGPoint(x: 25, y: 45)) === root)
    }

    func testNestedFlipsCancel() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(0, 0, 200, 100, in: root, name: "p")
        p.isGeometryFlipped = true
        let c = layer(10, 10, 20, 20, in: p, name: "c")
        c.isGeometryFlipped = true
        let g = layer(0, 0, 5, 5, in: c, name: "g")
        // g is mirrored twice: upright again, at the visual top of c (which spans y 70…90 in p).
        assertRect(g.convert(g.bounds, to: p), 10, 70, 5, 5)
        assertPoint(g.convert(CGPoint(x: 0, y: 0), to: p), 10, 70)
        assertPoint(g.convert(CGPoint(x: 5, y: 5), to: p), 15, 75)
    }

    /// `contentsAreFlipped()`: an odd number of flipped layers from the receiver up to its root.
    func testContentsAreFlippedCountsTheFlipsUpToTheRoot() {
        let root = layer(0, 0, 400, 400, name: "root")
        let p = layer(0, 0, 200, 100, in: root, name: "p")
        let c = layer(10, 10, 20, 20, in: p, name: "c")
        let g = layer(0, 0, 5, 5, in: c, name: "g")
        XCTAssertEqual([root, p, c, g].map { $0.contentsAreFlipped() }, [false, false, false, false])
        p.isGeometryFlipped = true
        XCTAssertEqual([root, p, c, g].map { $0.contentsAreFlipped() }, [false, true, true, true])
        c.isGeometryFlipped = true
        XCTAssertEqual([root, p, c, g].map { $0.contentsAreFlipped() }, [false, true, false, false])
        c.removeFromSuperlayer()
        XCTAssertEqual([c, g].map { $0.contentsAreFlipped() }, [true, true])
    }

    /// The context `draw(in:)` gets: the bounds with y down, or, when the contents are flipped,
    /// y up on the image (its origin at the bottom left), at `contentsScale` pixels per point.
    func testDrawingContextIsFlippedWithTheContents() {
        final class Recorder: CALayer {
            var ctm: CGAffineTransform?
            override func draw(in ctx: CGContext) { ctm = ctx.ctm }
        }
        let root = layer(0, 0, 400, 400, name: "root")
        let l = Recorder()
        l.bounds = CGRect(x: 5, y: 7, width: 20, height: 10)
        l.contentsScale = 2
        root.addSublayer(l)
        l.displayIfNeededNow()
        // Unflipped: device y = 2·10 − 2·(y − 7), x = 2·(x − 5).
        XCTAssertEqual(l.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: -10, ty: 34))
        root.isGeometryFlipped = true
        l.displayIfNeededNow()
        // Flipped: device y = 2·(y − 7).
        XCTAssertEqual(l.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: -10, ty: -14))
    }
}

private extension CALayer {
    func displayIfNeededNow() {
        setNeedsDisplay()
        displayIfNeeded()
    }
}
