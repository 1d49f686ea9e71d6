import Foundation
import GLRenderer
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The GL backend draws content under `isGeometryFlipped` as the CPU reference does: the same
/// colours at the same points (`FlippedContent`), and within the equivalence budget overall.
final class GLGeometryFlippedContentTests: XCTestCase {
    func testPathDrawingAndImageUnderFlips() throws {
        let h = try GLHarness()
        for scale in [1.0, 2.0] {
            let list = displayList(FlippedContent.tree(scale: scale), width: FlippedContent.width,
                                   height: FlippedContent.height, scale: scale, background: rgb(255, 255, 255))
            let (d, _, gl) = try compareBackends(list, gl: h.renderer, name: "geometry-flipped-content@\(Int(scale))x")
            XCTAssertEqual(FlippedContent.problems(in: gl, scale: scale), [])
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "at scale \(scale): \(d)")
        }
    }
}
