import CPURenderer
import GLRenderer
import LayerKit
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
}
