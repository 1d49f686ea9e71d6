import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `FrameCompositor` reuses the last display list only while the snapshot and canvas are
/// unchanged, and what it reuses is what `Compositor.displayList` would build.
final class FrameCompositorTests: XCTestCase {
    func testReusesTheListOnlyForAnUnchangedTreeAndCanvas() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        let leaf = CALayer()
        leaf.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        leaf.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(leaf)
        let c = FrameCompositor()
        func frame(width: Double = 40, scale: Double = 1, background: CGColor? = nil) -> DisplayList {
            c.displayList(root: root.snapshot(), width: width, height: 30, scale: scale, background: background)
        }
        let first = frame()
        XCTAssertFalse(c.lastReused)
        XCTAssertEqual(frame(), first)
        XCTAssertTrue(c.lastReused, "nothing changed")
        leaf.position.x += 1
        let moved = frame()
        XCTAssertFalse(c.lastReused, "a layer moved")
        XCTAssertNotEqual(moved, first)
        XCTAssertEqual(moved, Compositor.displayList(root: root.snapshot(), width: 40, height: 30, scale: 1, background: nil))
        for (what, list) in [("width", { frame(width: 41) }), ("scale", { frame(scale: 2) }),
                             ("background", { frame(background: CGColor(red: 1, green: 1, blue: 1, alpha: 1)) })] {
            _ = frame()
            _ = list()
            XCTAssertFalse(c.lastReused, what)
        }
    }

    /// Moving one of 100 squares flattens that square again and copies the other 99 quads.
    func testOnlyTheChangedSubtreeIsFlattenedAgain() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        for i in 0..<100 {
            root.addSublayer(solidLayer(CGRect(x: i % 10 * 20, y: i / 10 * 20, width: 10, height: 10), CGColor(red: 1, green: 0, blue: 0, alpha: 1)))
        }
        let c = FrameCompositor()
        func frame() -> DisplayList { c.displayList(root: root.snapshot(), width: 200, height: 200, scale: 1, background: nil) }
        _ = frame()
        XCTAssertEqual(c.lastCopiedQuads, 0, "nothing to copy from")
        root.sublayers![42].position.x += 3
        XCTAssertEqual(frame(), Compositor.displayList(root: root.snapshot(), width: 200, height: 200, scale: 1, background: nil))
        XCTAssertEqual(c.lastCopiedQuads, 99)
        root.sublayers![7].shadowOpacity = 0.5
        _ = frame()
        XCTAssertEqual(c.lastCopiedQuads, 99, "the shadowed square draws its pass and shadow quads; the other 99 are copied")
        root.sublayers![8].position.y += 1
        _ = frame()
        XCTAssertEqual(c.lastCopiedQuads, 98, "a subtree with an offscreen pass is flattened again every frame")
    }

    /// A subtree drawn again as it was but under a changed placement, opacity or clip is
    /// flattened again: here a `CATransformLayer` above it (whose opacity and transform pass to
    /// its sublayers' planes) and a clipping superlayer change.
    func testASharedSnapshotUnderAChangedAncestorIsFlattenedAgain() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let group = CATransformLayer()
        group.frame = root.bounds
        let clip = CALayer()
        clip.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        let leaf = solidLayer(CGRect(x: 10, y: 10, width: 80, height: 20), CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        root.addSublayer(group)
        group.addSublayer(clip)
        clip.addSublayer(leaf)
        let c = FrameCompositor()
        for edit in [{ group.opacity = 0.5 }, { group.transform = CATransform3DMakeTranslation(3, 0, 0) }, { clip.masksToBounds = true },
                     { clip.position.x += 1 }] {
            _ = c.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
            edit()
            let patched = c.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
            XCTAssertEqual(patched, Compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil))
            XCTAssertEqual(c.lastCopiedQuads, 0)
        }
    }

    /// Over random edits of random trees (fixed seeds), the patched list equals a full build,
    /// and its canvas quads differ from the last list's only where its lineage says they may
    /// (`DisplayList.canvasChanges(since:)`).
    func testPatchedListsEqualFullBuildsOverRandomEdits() {
        var copied = 0, known = 0, narrowed = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            var g = SeededGenerator(seed: seed)
            let root = randomTree(count: 60, size: CGSize(width: 160, height: 120), using: &g)
            let c = FrameCompositor()
            var last: DisplayList?
            for step in 0..<40 {
                for _ in 0..<Int.random(in: 1...3, using: &g) { randomEdit(root, using: &g) }
                let scale = step % 10 == 9 ? 2.0 : 1.0
                let patched = c.displayList(root: root.snapshot(), width: 160, height: 120, scale: scale, background: nil)
                let full = Compositor.displayList(root: root.snapshot(), width: 160, height: 120, scale: scale, background: nil)
                XCTAssertEqual(patched, full, "seed \(seed), step \(step)")
                if patched != full { return }
                copied += c.lastCopiedQuads
                if let before = last, let ranges = patched.canvasChanges(since: before) {
                    known += 1
                    let (a, b) = (before.canvas.quads, patched.canvas.quads)
                    XCTAssertEqual(a.count, b.count, "seed \(seed), step \(step)")
                    let named = Set(ranges.joined())
                    XCTAssertEqual(named.count, ranges.reduce(0) { $0 + $1.count }, "disjoint")
                    XCTAssertEqual(ranges, ranges.sorted { $0.lowerBound < $1.lowerBound }, "ascending")
                    for i in b.indices where !named.contains(i) {
                        XCTAssertEqual(a[i], b[i], "seed \(seed), step \(step): quad \(i) changed but was not named")
                    }
                    if named.count < b.count { narrowed += 1 }
                }
                last = patched
            }
        }
        XCTAssertGreaterThan(copied, 0, "the edits left subtrees to copy")
        XCTAssertGreaterThan(known, 15, "one-pass lists following one-pass lists of as many quads")
        XCTAssertGreaterThan(narrowed, 15, "frames whose changes were narrower than the whole canvas")
    }

    /// 10 squares side by side in one flat context (one quad each, in order): recolouring the
    /// fourth and moving the eighth names canvas quads 3 and 7 alone; an unchanged tree names
    /// none; a list edited after it was built, and a list from another compositor, have no
    /// lineage, so everything must be compared.
    func testTheLineageNamesTheChangedQuads() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
        let squares = (0..<10).map { i in solidLayer(CGRect(x: Double(i) * 20, y: 5, width: 10, height: 10), CGColor(red: 1, green: 0, blue: 0, alpha: 1)) }
        for s in squares { root.addSublayer(s) }
        let c = FrameCompositor()
        func frame() -> DisplayList { c.displayList(root: root.snapshot(), width: 200, height: 20, scale: 1, background: nil) }
        let first = frame()
        XCTAssertEqual(first.canvas.quads.count, 10)
        squares[3].backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        squares[7].position.y += 2
        let second = frame()
        XCTAssertEqual(second.canvasChanges(since: first), [3..<4, 7..<8])
        XCTAssertEqual(c.lastCopiedQuads, 8)
        XCTAssertNil(first.canvasChanges(since: second), "the lineage runs one way")
        let third = frame()
        XCTAssertEqual(third.canvasChanges(since: second), [], "the same list again")
        var edited = third
        edited.passes = second.passes
        XCTAssertNil(edited.canvasChanges(since: second))
        XCTAssertNil(edited.canvasChanges(since: third))
        XCTAssertEqual(edited, third, "the lineage is not compared")
        let other = FrameCompositor().displayList(root: root.snapshot(), width: 200, height: 20, scale: 1, background: nil)
        XCTAssertNil(other.canvasChanges(since: third))
        // A removed square changes how many quads there are: unknown.
        squares[5].removeFromSuperlayer()
        XCTAssertNil(frame().canvasChanges(since: third))
    }
}
