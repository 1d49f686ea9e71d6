import Foundation
import LayerCompositor
import LayerKit
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

    /// Over random edits of random trees (fixed seeds), the patched list equals a full build.
    func testPatchedListsEqualFullBuildsOverRandomEdits() {
        var copied = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            var g = SeededGenerator(seed: seed)
            let root = randomTree(count: 60, size: CGSize(width: 160, height: 120), using: &g)
            let c = FrameCompositor()
            for step in 0..<40 {
                for _ in 0..<Int.random(in: 1...3, using: &g) { randomEdit(root, using: &g) }
                let scale = step % 10 == 9 ? 2.0 : 1.0
                let patched = c.displayList(root: root.snapshot(), width: 160, height: 120, scale: scale, background: nil)
                let full = Compositor.displayList(root: root.snapshot(), width: 160, height: 120, scale: scale, background: nil)
                XCTAssertEqual(patched, full, "seed \(seed), step \(step)")
                if patched != full { return }
                copied += c.lastCopiedQuads
            }
        }
        XCTAssertGreaterThan(copied, 0, "the edits left subtrees to copy")
    }
}
