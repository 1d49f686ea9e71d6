import CPURenderer
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The reference renderer on the numeric edge cases (singular transforms, zero sizes,
/// coordinates of 1e9, non-finite properties, planes crossing the eye): no crash, the expected
/// pixels, nothing drawn mirrored. GLRendererTests runs the same table on the GL backend.
final class NumericEdgeCaseTests: XCTestCase {
    func testEdgeCasesRenderAsExpected() {
        for edge in NumericEdgeCase.all() {
            let bitmap = renderCPU(edge.root, width: NumericEdgeCase.width, height: NumericEdgeCase.height)
            for problem in edge.problems(in: bitmap) { XCTFail(problem) }
        }
    }
}
