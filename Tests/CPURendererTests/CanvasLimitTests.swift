import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// The canvas limit is the library's: a display list whose canvas is over
/// `CanvasSizeError.maximumSide` pixels a side is refused with an error naming the limit
/// before anything is allocated for it, whoever calls the renderer (not only the CLI).
final class CanvasLimitTests: XCTestCase {
    private func root(_ w: CGFloat = 400, _ h: CGFloat = 400) -> CALayer {
        solidLayer(CGRect(x: 0, y: 0, width: w, height: h), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    func testA400PointCanvasAtScale100IsRefused() {
        // 400 pt × 100 = 40,000 px a side: 6.4 GB if it were allocated.
        let list = displayList(root(), width: 400, height: 400, scale: 100)
        XCTAssertThrowsError(try CPURenderer().render(list)) { error in
            XCTAssertEqual(error as? CanvasSizeError, CanvasSizeError(width: 40000, height: 40000))
            XCTAssertEqual("\(error)", "canvas of 40000x40000 px is over the limit of 16384 px a side")
        }
    }

    func testTheLimitItselfIsAllowedAndOnePixelMoreIsNot() throws {
        let atLimit = try CPURenderer().render(displayList(root(16384, 1), width: 16384, height: 1))
        XCTAssertEqual(atLimit.width, 16384)
        XCTAssertEqual(atLimit.rgba(16383, 0), [255, 0, 0, 255])
        XCTAssertThrowsError(try CPURenderer().render(displayList(root(), width: 1, height: 16385))) { error in
            XCTAssertEqual(error as? CanvasSizeError, CanvasSizeError(width: 1, height: 16385))
        }
    }

    /// A scale whose canvas is not even a representable pixel count composes (nothing traps
    /// converting it) and is refused by the renderer.
    func testAnAbsurdScaleIsRefusedWithoutATrap() {
        let list = displayList(root(), width: 400, height: 400, scale: 1e300)
        XCTAssertThrowsError(try CPURenderer().render(list)) { error in
            XCTAssertNotNil(error as? CanvasSizeError)
        }
    }

    func testTheCheckNamesTheScaleWhenGivenOne() {
        XCTAssertThrowsError(try CanvasSizeError.check(width: 320, height: 200, scale: 100)) { error in
            XCTAssertEqual("\(error)", "canvas of 32000x20000 px at scale 100.0 is over the limit of 16384 px a side")
        }
        XCTAssertNoThrow(try CanvasSizeError.check(width: 163.84, height: 1, scale: 100))
        XCTAssertEqual(Scene.maximumCanvasPixels, CanvasSizeError.maximumSide)
    }
}
