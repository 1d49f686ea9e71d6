import Foundation
import LayerCompositor
import LayerKit
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
}
