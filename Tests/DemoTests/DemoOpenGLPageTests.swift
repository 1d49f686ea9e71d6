import CPURenderer
import Foundation
import LayerKitCore
import LayerKitTestSupport
@testable import layerkit_demo
import XCTest

/// Listing 6.14's page: the triangle drawn with OpenGL, upright, once per angle; asynchronous
/// only while the clock runs and the page spins.
final class DemoOpenGLPageTests: XCTestCase {
    /// Frozen at 0 s the triangle is the book's: its top corner (0, 0.5) in clip space is the
    /// layer's point (150, 75), green, at canvas (200, 105); its bottom-left corner, blue, is
    /// at layer (75, 225). A frozen page draws once, asks nothing more, and says so.
    func testAFrozenPageDrawsTheBooksTriangleOnce() {
        let page = OpenGLTrianglePage()
        XCTAssertEqual(page.update(clock: DemoClock(frozen: 0)), .onInput)
        XCTAssertFalse(page.triangle.isAsynchronous)
        for _ in 0..<3 {
            _ = page.update(clock: DemoClock(frozen: 0))
            _ = page.root.snapshot()
        }
        XCTAssertEqual([page.triangle.draws, page.triangle.canDrawAsks], [1, 1], "frames at a frozen time mark nothing")
        let canvas = renderCPU(page.root, width: 400, height: 400)
        let top = canvas[200, 108], left = canvas[50 + 80, 30 + 222]
        XCTAssertTrue(top.g > 200 && top.r < 40 && top.b < 40, "near the top corner: \(top)")
        XCTAssertTrue(left.b > 200 && left.r < 40 && left.g < 40, "near the bottom-left corner: \(left)")
        _ = page.update(clock: DemoClock(frozen: 0))
        XCTAssertEqual((page.root.sublayers?.last as? CATextLayer)?.string,
                       "1 OpenGL drawings, 1 canDraw asks; isAsynchronous false (a: switch)")
    }

    /// A running clock makes the layer asynchronous: each frame asks `canDraw`, which says yes
    /// only when the angle moved. `a` stops it.
    func testARunningPageDrawsWhenTheAngleMoves() {
        let page = OpenGLTrianglePage()
        var time = 1.0
        let clock = DemoClock(frozen: nil, source: { time })
        XCTAssertEqual(page.update(clock: clock), .everyFrame)
        _ = page.root.snapshot()
        _ = page.root.snapshot()
        XCTAssertEqual([page.triangle.draws, page.triangle.canDrawAsks], [1, 2], "the same angle is not drawn again")
        time = 1.5
        _ = page.update(clock: clock)
        _ = page.root.snapshot()
        XCTAssertEqual(page.triangle.draws, 2)
        XCTAssertTrue(page.typed("a"))
        XCTAssertEqual(page.update(clock: clock), .onInput)
        XCTAssertFalse(page.triangle.isAsynchronous)
    }
}
