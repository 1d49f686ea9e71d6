import CPURenderer
import GLRenderer
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The GL backend on the numeric edge cases the reference is checked on (CPURendererTests'
/// NumericEdgeCaseTests): the same expected pixels, nothing mirrored, and (within `Float`'s
/// range) the reference's picture within the usual budget.
final class GLNumericEdgeCaseTests: XCTestCase {
    func testEdgeCasesRenderAsTheReferenceDoes() throws {
        let h = try GLHarness()
        for edge in NumericEdgeCase.all() {
            let list = displayList(edge.root, width: NumericEdgeCase.width, height: NumericEdgeCase.height)
            let (d, _, gl) = try compareBackends(list, gl: h.renderer, name: "edge-\(edge.name)")
            for problem in edge.problems(in: gl) { XCTFail("GL: \(problem)") }
            if edge.matchesReferenceClosely { XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(edge.name): \(d)") }
        }
    }

    /// The library's canvas limit holds on GL too, before any texture is made.
    func testCanvasOverTheLimitIsRefused() throws {
        let h = try GLHarness()
        let root = solidLayer(CGRect(x: 0, y: 0, width: 400, height: 400), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertThrowsError(try h.renderer.render(displayList(root, width: 400, height: 400, scale: 100))) { error in
            XCTAssertEqual(error as? CanvasSizeError, CanvasSizeError(width: 40000, height: 40000))
        }
        XCTAssertThrowsError(try h.renderer.draw(displayList(root, width: 16385, height: 1), into: 0, width: 16385, height: 1)) { error in
            XCTAssertEqual(error as? CanvasSizeError, CanvasSizeError(width: 16385, height: 1))
        }
        root.frame = CGRect(x: 0, y: 0, width: 16384, height: 1)
        XCTAssertEqual(try h.renderer.render(displayList(root, width: 16384, height: 1)).rgba(16383, 0), [255, 0, 0, 255])
    }
}
