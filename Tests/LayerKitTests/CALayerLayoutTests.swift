import Foundation
import XCTest
@testable import LayerKitCore

/// A layer that records its `layoutSublayers()` calls and runs an optional layout body, as a
/// subclass in the book would.
private final class RecordingLayer: CALayer {
    var layoutCount = 0
    var body: ((RecordingLayer) -> Void)?
    var log: ((String) -> Void)?
    override func layoutSublayers() {
        layoutCount += 1
        log?(name ?? "?")
        body?(self)
    }
}

/// A delegate that records which layers it was asked to lay out.
private final class RecordingDelegate: CALayerDelegate {
    var laidOut: [CALayer] = []
    var body: ((CALayer) -> Void)?
    func layoutSublayers(of layer: CALayer) {
        laidOut.append(layer)
        body?(layer)
    }
}

/// Layout as `CALayer.h` defines it: `setNeedsLayout` marks, `layoutIfNeeded` runs
/// `layoutSublayers` for marked layers, the default `layoutSublayers` asks the delegate, and
/// `setNeedsLayout` "is automatically invoked on a layer whenever its `sublayers' … property is
/// modified, and is invoked on the layer and its superlayer whenever its `bounds' or `transform'
/// properties are modified. Implicit calls to -setNeedsLayout are skipped if the layer is
/// currently executing its -layoutSublayers method." `layoutIfNeeded`: "Traverse upwards from
/// the layer while the superlayer requires layout. Then layout the entire tree beneath that
/// ancestor."
final class CALayerLayoutTests: XCTestCase {
    private func recording(_ name: String) -> RecordingLayer {
        let l = RecordingLayer()
        l.name = name
        return l
    }

    /// Lays `root`'s tree out and forgets every count in it, so a test starts from a clean state.
    private func settle(_ root: CALayer) {
        root.layoutIfNeeded()
        func reset(_ l: CALayer) {
            (l as? RecordingLayer)?.layoutCount = 0
            for s in l.sublayers ?? [] { reset(s) }
        }
        reset(root)
    }

    // MARK: setNeedsLayout / layoutIfNeeded

    func testAFreshLayerDoesNotNeedLayout() {
        // gnustep/libs-quartzcore Tests/quartzcore/CALayer/layout.m, run against Apple's framework.
        XCTAssertFalse(CALayer().needsLayout())
        XCTAssertFalse(CAShapeLayer().needsLayout())
    }

    func testSetNeedsLayoutThenLayoutIfNeededCallsOverrideOnce() {
        let l = recording("l")
        settle(l)
        XCTAssertFalse(l.needsLayout())
        l.setNeedsLayout()
        XCTAssertTrue(l.needsLayout())
        XCTAssertEqual(l.layoutCount, 0, "marking alone does not lay out")
        l.layoutIfNeeded()
        XCTAssertEqual(l.layoutCount, 1)
        XCTAssertFalse(l.needsLayout())
        l.layoutIfNeeded()
        XCTAssertEqual(l.layoutCount, 1, "nothing to do the second time")
    }

    func testSeveralMarksLayOutOnce() {
        let l = recording("l")
        settle(l)
        l.setNeedsLayout()
        l.setNeedsLayout()
        l.setNeedsLayout()
        l.layoutIfNeeded()
        XCTAssertEqual(l.layoutCount, 1)
    }

    func testLayoutIfNeededWithoutMarkDoesNothing() {
        let l = recording("l")
        settle(l)
        l.layoutIfNeeded()
        XCTAssertEqual(l.layoutCount, 0)
    }

    func testDirectLayoutSublayersCallAlwaysRuns() {
        let l = recording("l")
        settle(l)
        l.layoutSublayers()
        XCTAssertEqual(l.layoutCount, 1)
    }

    func testLayoutIfNeededLaysOutMarkedDescendantsParentFirst() {
        var order: [String] = []
        let root = recording("root"), child = recording("child"), grandchild = recording("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        for l in [root, child, grandchild] { l.log = { order.append($0) } }
        settle(root)
        order = []
        grandchild.setNeedsLayout()
        root.setNeedsLayout()
        root.layoutIfNeeded()
        XCTAssertEqual(order, ["root", "grandchild"])
        XCTAssertEqual(child.layoutCount, 0, "an unmarked layer is not laid out")
        XCTAssertFalse(grandchild.needsLayout())
    }

    func testLayoutIfNeededOnASublayerLaysOutTheMarkedAncestorFirst() {
        // "Traverse upwards from the layer while the superlayer requires layout. Then layout
        // the entire tree beneath that ancestor."
        var order: [String] = []
        let root = recording("root"), child = recording("child")
        root.addSublayer(child)
        for l in [root, child] { l.log = { order.append($0) } }
        settle(root)
        order = []
        root.setNeedsLayout()
        child.setNeedsLayout()
        child.layoutIfNeeded()
        XCTAssertEqual(order, ["root", "child"])
        XCTAssertFalse(root.needsLayout())
        XCTAssertFalse(child.needsLayout())
    }

    // MARK: The delegate

    func testDefaultLayoutSublayersAsksTheDelegate() {
        let l = CALayer()
        let delegate = RecordingDelegate()
        l.delegate = delegate
        l.layoutIfNeeded()
        delegate.laidOut = []
        l.setNeedsLayout()
        l.layoutIfNeeded()
        XCTAssertEqual(delegate.laidOut.count, 1)
        XCTAssertTrue(delegate.laidOut.first === l)
        l.layoutIfNeeded()
        XCTAssertEqual(delegate.laidOut.count, 1)
    }

    func testDelegateLaysOutSublayers() {
        let parent = CALayer(), a = CALayer(), b = CALayer()
        parent.addSublayer(a)
        parent.addSublayer(b)
        let delegate = RecordingDelegate()
        // Two columns, side by side, filling the parent.
        delegate.body = { layer in
            let w = layer.bounds.width / 2, h = layer.bounds.height
            layer.sublayers?[0].frame = CGRect(x: 0, y: 0, width: w, height: h)
            layer.sublayers?[1].frame = CGRect(x: w, y: 0, width: w, height: h)
        }
        parent.delegate = delegate
        parent.bounds = CGRect(x: 0, y: 0, width: 300, height: 80)
        parent.layoutIfNeeded()
        XCTAssertEqual(a.frame, CGRect(x: 0, y: 0, width: 150, height: 80))
        XCTAssertEqual(b.frame, CGRect(x: 150, y: 0, width: 150, height: 80))
        XCTAssertEqual(b.position, CGPoint(x: 225, y: 40))
    }

    // MARK: What marks a layer

    func testBoundsSizeChangeMarksTheLayerAndItsSuperlayer() {
        let parent = recording("parent"), l = recording("l")
        parent.addSublayer(l)
        settle(parent)
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertTrue(l.needsLayout())
        XCTAssertTrue(parent.needsLayout(), "bounds changes mark the superlayer too")
        parent.layoutIfNeeded()
        XCTAssertEqual(parent.layoutCount, 1)
        XCTAssertEqual(l.layoutCount, 1)
    }

    func testBoundsOriginChangeMarksTheLayerAndItsSuperlayer() {
        // CALayer.h: "invoked on the layer and its superlayer whenever its `bounds' … [is]
        // modified" — not only its size (a scroll view's layout runs when it scrolls).
        let parent = recording("parent"), l = recording("l")
        parent.addSublayer(l)
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        settle(parent)
        l.bounds = CGRect(x: 5, y: 7, width: 10, height: 20)
        XCTAssertTrue(l.needsLayout())
        XCTAssertTrue(parent.needsLayout())
    }

    func testBoundsSizeChangeOfARootMarksIt() {
        let l = recording("l")
        settle(l)
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertTrue(l.needsLayout())
        l.layoutIfNeeded()
        XCTAssertEqual(l.layoutCount, 1)
    }

    func testFrameSizeChangeMarksTheLayer() {
        let l = recording("l")
        settle(l)
        l.frame = CGRect(x: 5, y: 5, width: 40, height: 30)
        XCTAssertTrue(l.needsLayout())
    }

    func testTransformChangeMarksTheLayerAndItsSuperlayer() {
        let parent = recording("parent"), l = recording("l")
        parent.addSublayer(l)
        settle(parent)
        l.transform = CATransform3DMakeScale(2, 2, 1)
        XCTAssertTrue(l.needsLayout())
        XCTAssertTrue(parent.needsLayout())
    }

    func testChangingSublayersMarksTheLayer() {
        let parent = recording("parent"), a = recording("a")
        settle(parent)
        parent.addSublayer(a)
        XCTAssertTrue(parent.needsLayout(), "addSublayer")
        settle(parent)
        a.removeFromSuperlayer()
        XCTAssertTrue(parent.needsLayout(), "removeFromSuperlayer")
        settle(parent)
        parent.sublayers = [a]
        XCTAssertTrue(parent.needsLayout(), "setting sublayers")
        settle(parent)
        parent.replaceSublayer(a, with: CALayer())
        XCTAssertTrue(parent.needsLayout(), "replaceSublayer")
        settle(parent)
        parent.insertSublayer(a, at: 0)
        XCTAssertTrue(parent.needsLayout(), "insertSublayer")
    }

    func testClearingSublayersMarksTheLayer() {
        let parent = recording("parent")
        parent.addSublayer(CALayer())
        parent.addSublayer(CALayer())
        settle(parent)
        parent.sublayers = nil
        XCTAssertTrue(parent.needsLayout(), "sublayers = nil")
        parent.sublayers = [CALayer()]
        settle(parent)
        parent.sublayers = []
        XCTAssertTrue(parent.needsLayout(), "sublayers = []")
    }

    func testImplicitMarksDuringLayoutSublayersAreSkipped() {
        // A layout that resizes sublayers and adds one must not leave the layer dirty.
        let parent = recording("parent"), child = recording("child")
        parent.addSublayer(child)
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.body = { p in
            child.frame = CGRect(x: 0, y: 0, width: p.bounds.width, height: 10)
            if p.sublayers?.count == 1 { p.addSublayer(CALayer()) }
        }
        parent.layoutIfNeeded()
        XCTAssertEqual(parent.layoutCount, 1)
        XCTAssertFalse(parent.needsLayout(), "implicit setNeedsLayout inside layoutSublayers is skipped")
        // The child was resized by its parent's layout and is laid out in the same pass.
        XCTAssertEqual(child.layoutCount, 1)
        XCTAssertFalse(child.needsLayout())
        XCTAssertEqual(child.frame, CGRect(x: 0, y: 0, width: 100, height: 10))
    }

    // MARK: Snapshots lay out

    func testSnapshotLaysOutFirst() {
        let root = recording("root"), child = CALayer()
        root.addSublayer(child)
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.body = { r in child.frame = r.bounds.insetBy(dx: 4, dy: 4) }
        let snap = root.snapshot()
        XCTAssertEqual(root.layoutCount, 1)
        XCTAssertFalse(root.needsLayout())
        XCTAssertEqual(snap.sublayers.count, 1)
        XCTAssertEqual(snap.sublayers[0].properties.bounds, CGRect(x: 0, y: 0, width: 56, height: 40))
        XCTAssertEqual(snap.sublayers[0].properties.position, CGPoint(x: 32, y: 24))
    }

    func testAMarkDeepInTheTreeIsReachedAndNothingElseIsLaidOut() {
        let root = recording("root"), a = recording("a"), b = recording("b"), c = recording("c")
        root.addSublayer(a)
        a.addSublayer(b)
        b.addSublayer(c)
        root.layoutIfNeeded()
        let counts = [root, a, b, c].map(\.layoutCount)
        c.setNeedsLayout()
        root.layoutIfNeeded()
        XCTAssertEqual([root, a, b, c].map(\.layoutCount), [counts[0], counts[1], counts[2], counts[3] + 1])
        root.layoutIfNeeded()
        XCTAssertEqual(c.layoutCount, counts[3] + 1, "laid out once")
    }

    func testASubtreeAdoptedWithAMarkInsideIsLaidOut() {
        let root = recording("root"), a = recording("a")
        root.addSublayer(a)
        root.layoutIfNeeded()
        // Marked while detached: the mark must survive the adoption, by insertion and by replacement.
        let d = recording("d"), e = recording("e")
        d.addSublayer(e)
        d.layoutIfNeeded()
        e.setNeedsLayout()
        a.addSublayer(d)
        root.layoutIfNeeded()
        XCTAssertEqual(e.layoutCount, 1, "e had no mark before setNeedsLayout")
        let f = recording("f"), g = recording("g")
        f.addSublayer(g)
        f.layoutIfNeeded()
        g.setNeedsLayout()
        a.replaceSublayer(d, with: f)
        root.layoutIfNeeded()
        XCTAssertEqual(g.layoutCount, 1)
    }

    func testASublayerMarkedByItsParentsLayoutIsLaidOutInTheSamePass() {
        let root = recording("root"), a = recording("a"), b = recording("b")
        root.addSublayer(a)
        a.addSublayer(b)
        root.layoutIfNeeded()
        a.body = { _ in b.setNeedsLayout() }
        a.setNeedsLayout()
        let before = b.layoutCount
        root.layoutIfNeeded()
        XCTAssertEqual(b.layoutCount, before + 1)
    }
}
