import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `UpdatedRegions`: the first list updates the whole canvas; then the old and new pixels of
/// each changed quad (one pixel wider, as `Damage` measures); a change inside an offscreen pass
/// updates the canvas quads drawn from passes; a new size, everything.
final class UpdatedRegionsTests: XCTestCase {
    func testRegionsBetweenSuccessiveLists() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        let leaf = solidLayer(CGRect(x: 10, y: 10, width: 10, height: 10), rgb(255, 0, 0))
        // Group opacity over two drawing layers: an offscreen pass of the group's 20x20 at (50, 40).
        let group = solidLayer(CGRect(x: 50, y: 40, width: 20, height: 20), rgb(0, 0, 255))
        group.opacity = 0.5
        let inner = solidLayer(CGRect(x: 5, y: 5, width: 10, height: 10), rgb(0, 255, 0))
        group.addSublayer(inner)
        root.addSublayer(leaf)
        root.addSublayer(group)
        let compositor = FrameCompositor()
        func frame(width: Double = 100) -> DisplayList {
            compositor.displayList(root: root.snapshot(), width: width, height: 80, scale: 1, background: nil)
        }
        var regions = UpdatedRegions()
        XCTAssertEqual(regions.update(frame()), [CGRect(x: 0, y: 0, width: 100, height: 80)], "the first frame")
        XCTAssertEqual(regions.update(frame()), [], "nothing changed")
        leaf.position.y += 30
        XCTAssertEqual(regions.update(frame()), [CGRect(x: 9, y: 9, width: 12, height: 12), CGRect(x: 9, y: 39, width: 12, height: 12)])
        inner.backgroundColor = rgb(255, 255, 0)
        let list = frame()
        XCTAssertEqual(list.passes.count, 2)
        XCTAssertEqual(regions.update(list), [CGRect(x: 49, y: 39, width: 22, height: 22)],
                       "inside the pass: where the pass is drawn back")
        XCTAssertEqual(regions.update(frame(width: 90)), [CGRect(x: 0, y: 0, width: 90, height: 80)], "a new size")
    }
}
