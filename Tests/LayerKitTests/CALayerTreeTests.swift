import Foundation
import XCTest
@testable import LayerKitCore

/// The layer tree operations of `CALayer`: `addSublayer`, `insertSublayer(_:at:)`,
/// `insertSublayer(_:above:)`/`(_:below:)`, `removeFromSuperlayer`, `replaceSublayer`,
/// `sublayers` (nil when empty) and `mask`; and the refused edits, which leave the tree
/// unchanged and are reported to `layerTreeErrorHandler`.
final class CALayerTreeTests: XCTestCase {
    private var refusals: [LayerTreeError] = []
    private var savedHandler: ((LayerTreeError) -> Void)?

    override func setUp() {
        super.setUp()
        refusals = []
        savedHandler = layerTreeErrorHandler
        layerTreeErrorHandler = { [unowned self] error in self.refusals.append(error) }
    }

    override func tearDown() {
        if let savedHandler { layerTreeErrorHandler = savedHandler }
        super.tearDown()
    }

    private func named(_ name: String) -> CALayer {
        let l = CALayer()
        l.name = name
        return l
    }

    /// The names of `l`'s sublayers, or nil when it has none.
    private func names(_ l: CALayer) -> [String]? {
        l.sublayers?.map { $0.name ?? "?" }
    }

    // MARK: Adding

    func testNewLayerHasNilSublayers() {
        let l = CALayer()
        XCTAssertNil(l.sublayers)
        XCTAssertNil(l.superlayer)
    }

    func testAddSublayerAppendsAndSetsSuperlayer() {
        let p = named("p"), a = named("a"), b = named("b")
        p.addSublayer(a)
        p.addSublayer(b)
        XCTAssertEqual(names(p), ["a", "b"])
        XCTAssertTrue(a.superlayer === p)
        XCTAssertTrue(b.superlayer === p)
        XCTAssertTrue(p.sublayers?[0] === a)
        XCTAssertTrue(p.sublayers?[1] === b)
        XCTAssertTrue(refusals.isEmpty)
    }

    func testAddingAnExistingSublayerMovesItToTheFront() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.addSublayer(a)
        XCTAssertEqual(names(p), ["b", "c", "a"])
        p.addSublayer(a)
        XCTAssertEqual(names(p), ["b", "c", "a"])
        XCTAssertTrue(a.superlayer === p)
    }

    func testInsertSublayerAtIndex() {
        let p = named("p"), a = named("a"), b = named("b")
        p.addSublayer(a)
        p.addSublayer(b)
        p.insertSublayer(named("c"), at: 0)
        XCTAssertEqual(names(p), ["c", "a", "b"])
        p.insertSublayer(named("d"), at: 2)
        XCTAssertEqual(names(p), ["c", "a", "d", "b"])
        p.insertSublayer(named("e"), at: 4)
        XCTAssertEqual(names(p), ["c", "a", "d", "b", "e"])
        XCTAssertTrue(p.sublayers!.allSatisfy { $0.superlayer === p })
    }

    func testInsertExistingSublayerAtIndexZeroMovesIt() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.insertSublayer(c, at: 0)
        XCTAssertEqual(names(p), ["c", "a", "b"])
    }

    func testInsertSublayerBelowAndAbove() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.insertSublayer(named("d"), below: b)
        XCTAssertEqual(names(p), ["a", "d", "b", "c"])
        p.insertSublayer(named("e"), above: b)
        XCTAssertEqual(names(p), ["a", "d", "b", "e", "c"])
        p.insertSublayer(named("f"), above: c)
        XCTAssertEqual(names(p), ["a", "d", "b", "e", "c", "f"])
        p.insertSublayer(named("g"), below: a)
        XCTAssertEqual(names(p), ["g", "a", "d", "b", "e", "c", "f"])
        XCTAssertTrue(refusals.isEmpty)
    }

    func testInsertBelowOrAboveMovesAnExistingSibling() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.insertSublayer(c, below: a)
        XCTAssertEqual(names(p), ["c", "a", "b"])
        p.insertSublayer(a, above: b)
        XCTAssertEqual(names(p), ["c", "b", "a"])
        XCTAssertTrue(a.superlayer === p)
    }

    // MARK: Removing and moving

    func testRemoveFromSuperlayer() {
        let p = named("p"), a = named("a"), b = named("b")
        p.addSublayer(a)
        p.addSublayer(b)
        a.removeFromSuperlayer()
        XCTAssertEqual(names(p), ["b"])
        XCTAssertNil(a.superlayer)
        b.removeFromSuperlayer()
        XCTAssertNil(p.sublayers, "sublayers is nil, not [], once the last one is removed")
        XCTAssertNil(b.superlayer)
        // Removing a layer without a superlayer does nothing.
        b.removeFromSuperlayer()
        XCTAssertNil(b.superlayer)
        XCTAssertTrue(refusals.isEmpty)
    }

    func testRemovingKeepsTheSubtree() {
        let p = named("p"), a = named("a"), a1 = named("a1")
        p.addSublayer(a)
        a.addSublayer(a1)
        a.removeFromSuperlayer()
        XCTAssertEqual(names(a), ["a1"])
        XCTAssertTrue(a1.superlayer === a)
    }

    func testMovingALayerBetweenParents() {
        let p1 = named("p1"), p2 = named("p2"), x = named("x"), y = named("y")
        p1.addSublayer(x)
        p1.addSublayer(y)
        p2.addSublayer(x)
        XCTAssertEqual(names(p1), ["y"])
        XCTAssertEqual(names(p2), ["x"])
        XCTAssertTrue(x.superlayer === p2)
        p2.insertSublayer(y, at: 0)
        XCTAssertNil(p1.sublayers)
        XCTAssertEqual(names(p2), ["y", "x"])
        XCTAssertTrue(y.superlayer === p2)
        p1.addSublayer(x)
        XCTAssertEqual(names(p1), ["x"])
        XCTAssertEqual(names(p2), ["y"])
    }

    func testMovingADeepLayerUpTheTreeIsAllowed() {
        // Adding a descendant to an ancestor is no cycle.
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        root.addSublayer(grandchild)
        XCTAssertEqual(names(root), ["child", "grandchild"])
        XCTAssertNil(child.sublayers)
        XCTAssertTrue(refusals.isEmpty)
    }

    // MARK: Replacing

    func testReplaceSublayerKeepsThePlace() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c"), d = named("d")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.replaceSublayer(b, with: d)
        XCTAssertEqual(names(p), ["a", "d", "c"])
        XCTAssertNil(b.superlayer)
        XCTAssertTrue(d.superlayer === p)
        XCTAssertTrue(refusals.isEmpty)
    }

    func testReplaceWithALayerFromAnotherParent() {
        let p = named("p"), q = named("q"), a = named("a"), b = named("b"), c = named("c"), x = named("x"), y = named("y")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        q.addSublayer(x)
        q.addSublayer(y)
        p.replaceSublayer(b, with: x)
        XCTAssertEqual(names(p), ["a", "x", "c"])
        XCTAssertEqual(names(q), ["y"])
        XCTAssertTrue(x.superlayer === p)
        XCTAssertNil(b.superlayer)
    }

    func testReplaceFirstWithLastSibling() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c")
        p.addSublayer(a)
        p.addSublayer(b)
        p.addSublayer(c)
        p.replaceSublayer(a, with: c)
        XCTAssertEqual(names(p), ["c", "b"])
        XCTAssertNil(a.superlayer)
        XCTAssertTrue(c.superlayer === p)
    }

    func testReplaceWithItselfChangesNothing() {
        let p = named("p"), a = named("a"), b = named("b")
        p.addSublayer(a)
        p.addSublayer(b)
        p.replaceSublayer(a, with: a)
        XCTAssertEqual(names(p), ["a", "b"])
        XCTAssertTrue(a.superlayer === p)
    }

    func testReplaceRefusedWhenOldLayerIsNotASublayer() {
        let p = named("p"), a = named("a"), stranger = named("stranger"), d = named("d")
        p.addSublayer(a)
        p.replaceSublayer(stranger, with: d)
        XCTAssertEqual(refusals, [.notASublayer("layer 'stranger'")])
        XCTAssertEqual(names(p), ["a"])
        XCTAssertNil(d.superlayer)
    }

    // MARK: The sublayers property

    func testSettingSublayers() {
        let p = named("p"), a = named("a"), b = named("b"), old = named("old")
        p.addSublayer(old)
        p.sublayers = [a, b]
        XCTAssertEqual(names(p), ["a", "b"])
        XCTAssertTrue(a.superlayer === p)
        XCTAssertNil(old.superlayer)
        p.sublayers = []
        XCTAssertNil(p.sublayers)
        XCTAssertNil(a.superlayer)
        p.sublayers = [b]
        p.sublayers = nil
        XCTAssertNil(p.sublayers)
        XCTAssertNil(b.superlayer)
    }

    func testSettingSublayersTakesLayersFromTheirParents() {
        let p = named("p"), q = named("q"), x = named("x")
        q.addSublayer(x)
        p.sublayers = [x]
        XCTAssertNil(q.sublayers)
        XCTAssertTrue(x.superlayer === p)
    }

    // MARK: Refusals

    func testAddingALayerToItselfIsRefused() {
        let a = named("a")
        a.addSublayer(a)
        XCTAssertEqual(refusals, [.cycle(layer: "layer 'a'", into: "layer 'a'")])
        XCTAssertNil(a.sublayers)
        XCTAssertNil(a.superlayer)
    }

    func testAddingALayerIntoItsOwnSubtreeIsRefused() {
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        grandchild.addSublayer(root)
        XCTAssertEqual(refusals, [.cycle(layer: "layer 'root'", into: "layer 'grandchild'")])
        XCTAssertNil(root.superlayer)
        XCTAssertNil(grandchild.sublayers)
        XCTAssertEqual(names(root), ["child"])
        XCTAssertEqual(names(child), ["grandchild"])
        XCTAssertTrue(child.superlayer === root)
        XCTAssertTrue(grandchild.superlayer === child)
    }

    /// A layer above another only through its mask (the mask's superlayer is the layer it
    /// masks) is an ancestor too: a layer with no sublayers is still walked up from when it has
    /// a mask.
    func testAnAncestorThroughAMaskIsRefused() {
        let a = named("a"), m = named("m"), leaf = named("leaf")
        a.mask = m
        m.addSublayer(a)
        m.addSublayer(leaf)
        let b = named("b")
        b.mask = named("bm")
        leaf.addSublayer(b)
        b.mask?.addSublayer(named("fine"))
        XCTAssertEqual(refusals, [.cycle(layer: "layer 'a'", into: "layer 'm'")])
        XCTAssertNil(a.superlayer)
        XCTAssertEqual(names(m), ["leaf"])
        XCTAssertTrue(b.superlayer === leaf)
    }

    func testEveryInsertionFormRefusesCycles() {
        let root = named("root"), child = named("child"), leaf = named("leaf")
        root.addSublayer(child)
        child.addSublayer(leaf)
        child.insertSublayer(root, at: 0)
        child.insertSublayer(root, below: leaf)
        child.insertSublayer(root, above: leaf)
        child.replaceSublayer(leaf, with: root)
        child.insertSublayer(child, at: 0)
        child.sublayers = [leaf, root]
        XCTAssertEqual(refusals.count, 6)
        XCTAssertTrue(refusals.allSatisfy { if case .cycle = $0 { return true } else { return false } }, "\(refusals)")
        XCTAssertNil(root.superlayer)
        XCTAssertEqual(names(root), ["child"])
        XCTAssertEqual(names(child), ["leaf"])
        XCTAssertTrue(leaf.superlayer === child)
    }

    func testMaskWithASuperlayerIsRefused() {
        let p = named("p"), l = named("l"), m = named("m")
        p.addSublayer(m)
        l.mask = m
        XCTAssertEqual(refusals, [.maskHasSuperlayer("layer 'm'")])
        XCTAssertNil(l.mask)
        XCTAssertTrue(m.superlayer === p)
        XCTAssertEqual(names(p), ["m"])
    }

    // MARK: Masks

    func testMaskIsNotASublayer() {
        let l = named("l"), m = named("m")
        l.mask = m
        XCTAssertTrue(l.mask === m)
        XCTAssertNil(l.sublayers)
        XCTAssertTrue(refusals.isEmpty)
        let n = named("n")
        l.mask = n
        XCTAssertTrue(l.mask === n)
        l.mask = nil
        XCTAssertNil(l.mask)
        XCTAssertTrue(refusals.isEmpty)
        // The old masks are free again and may be used elsewhere.
        let other = named("other")
        other.mask = m
        XCTAssertTrue(other.mask === m)
        other.addSublayer(n)
        XCTAssertEqual(names(other), ["n"])
        XCTAssertTrue(refusals.isEmpty)
    }

    /// Every layer of a fixture with its superlayer, sublayers and mask: equal before and after
    /// a refused edit when the tree is unchanged.
    private func structure(_ layers: [CALayer]) -> [String] {
        layers.map { l in
            "\(l.name ?? "?") in \(l.superlayer?.name ?? "-") subs \(names(l) ?? []) mask \(l.mask?.name ?? "-") isMask \(l.isMask)"
        }
    }

    /// Every insertion form and `mask =`, on a layer given itself, an ancestor, its own mask or
    /// another layer's mask: refused once, cleanly, with the tree unchanged (`a.mask = m;
    /// a.addSublayer(m)` used to trap computing `count - 1` before the refusal).
    func testEveryTreeOperationRefusesMasksAncestorsAndItself() {
        typealias Op = (String, (CALayer, CALayer) -> Void)
        let ops: [Op] = [
            ("addSublayer", { t, l in t.addSublayer(l) }),
            ("insertSublayer at 0", { t, l in t.insertSublayer(l, at: 0) }),
            ("insertSublayer at 99", { t, l in t.insertSublayer(l, at: 99) }),
            ("insertSublayer above nil", { t, l in t.insertSublayer(l, above: nil) }),
            ("insertSublayer below nil", { t, l in t.insertSublayer(l, below: nil) }),
            ("insertSublayer above sibling", { t, l in t.insertSublayer(l, above: t.sublayers?.first) }),
            ("insertSublayer below sibling", { t, l in t.insertSublayer(l, below: t.sublayers?.first) }),
            ("replaceSublayer", { t, l in if let s = t.sublayers?.first { t.replaceSublayer(s, with: l) } else { t.addSublayer(l) } }),
            ("mask =", { t, l in t.mask = l }),
        ]
        for (opName, op) in ops {
            for target in ["root", "a", "c"] {
                for candidate in ["own mask", "other mask", "ancestor", "itself"] {
                    // root ── a (mask m) ── c ── leaf;  root ── b (mask n)
                    let root = named("root"), a = named("a"), b = named("b"), c = named("c"), leaf = named("leaf")
                    let m = named("m"), n = named("n")
                    for (parent, child) in [(root, a), (root, b), (a, c), (c, leaf)] { parent.addSublayer(child) }
                    a.mask = m
                    b.mask = n
                    let all = [root, a, b, c, leaf, m, n]
                    let t = ["root": root, "a": a, "c": c][target]!
                    let l: CALayer
                    switch candidate {
                    case "own mask":
                        if t !== a { t.mask = named("own") }
                        l = t.mask!
                    case "other mask": l = n
                    case "ancestor": l = t === c ? a : root
                    default: l = t
                    }
                    let before = structure(all + [t.mask].compactMap { $0 })
                    refusals = []
                    op(t, l)
                    let what = "\(opName) on \(target) with \(candidate)"
                    XCTAssertEqual(structure(all + [t.mask].compactMap { $0 }), before, what)
                    // Setting a layer's own mask again is no edit at all; everything else is refused.
                    let expected = opName == "mask =" && candidate == "own mask" ? 0 : 1
                    XCTAssertEqual(refusals.count, expected, "\(what): \(refusals)")
                }
            }
        }
    }

    func testSettingSublayersToTheLayersOwnMaskRefusesIt() {
        let p = named("p"), m = named("m")
        p.mask = m
        p.sublayers = [m]
        XCTAssertEqual(refusals, [.sublayerIsMask("layer 'm'")])
        XCTAssertNil(p.sublayers)
        XCTAssertTrue(p.mask === m)
        XCTAssertTrue(m.superlayer === p)
    }

    func testRemovingAMaskFromItsHostFreesIt() {
        let p = named("p"), m = named("m")
        p.mask = m
        m.removeFromSuperlayer()
        XCTAssertNil(p.mask)
        XCTAssertNil(m.superlayer)
        XCTAssertFalse(m.isMask)
        p.addSublayer(m)
        XCTAssertEqual(names(p), ["m"])
        XCTAssertTrue(refusals.isEmpty)
    }

    /// Core Animation puts `newLayer` where `oldLayer` was, after taking it from its old place:
    /// replacing b with a in [a, b, c] gives [a, c].
    func testReplaceWithAnEarlierSiblingTakesTheOldLayersPlace() {
        let p = named("p"), a = named("a"), b = named("b"), c = named("c"), d = named("d")
        for l in [a, b, c, d] { p.addSublayer(l) }
        p.replaceSublayer(c, with: a)
        XCTAssertEqual(names(p), ["b", "a", "d"])
        XCTAssertNil(c.superlayer)
        XCTAssertTrue(refusals.isEmpty)
    }

    func testDebugNames() {
        XCTAssertEqual(named("x").debugName, "layer 'x'")
        XCTAssertEqual(CAShapeLayer().debugName, "unnamed CAShapeLayer")
    }
}
