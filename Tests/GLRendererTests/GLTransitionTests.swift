import CPURenderer
import GLRenderer
import LayerCompositor
import LayerKit
import LayerKitTestSupport
import XCTest

/// `CATransition` on the GL backend: the same display lists as `TransitionRenderTests`, equal to
/// the CPU reference within the standard budget, and the hand-computed pixels within 2/255.
final class GLTransitionTests: XCTestCase {
    func testTransitionsMatchTheReference() throws {
        let gl = try GLHarness()
        let cases: [(String, CATransition, Double, [(Int, Int, [Double])])] = [
            ("fade", transition(.fade), 10.25, [(50, 50, [191.25, 0, 63.75, 255]), (150, 50, [0, 0, 0, 0])]),
            ("push-fromRight", transition(.push, .fromRight), 10.5,
             [(25, 50, [255, 0, 0, 255]), (75, 50, [0, 0, 255, 255]), (125, 50, [0, 0, 0, 0])]),
            ("moveIn-fromTop", transition(.moveIn, .fromTop), 10.25, [(50, 10, [0, 0, 255, 255]), (50, 60, [255, 0, 0, 255])]),
            ("reveal-fromBottom", transition(.reveal, .fromBottom), 10.25, [(50, 10, [255, 0, 0, 255]), (50, 90, [0, 0, 255, 255])]),
        ]
        let lists = cases.map { ($0.0, redToBlueTransition($0.1, at: $0.2), $0.3) }
            + [("translucent-fade", translucentFade(at: 10.5), [(5, 5, [31.875, 0, 0, 31.875])])]
        for (name, list, expected) in lists {
            let (d, _, out) = try compareBackends(list, gl: gl.renderer, name: "transition-" + name)
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, name)
            for (x, y, want) in expected {
                let p = out[x, y]
                for (g, w) in zip([p.r, p.g, p.b, p.a], want) { XCTAssertEqual(Double(g), w, accuracy: 2, "\(name) at (\(x), \(y))") }
            }
        }
    }
}
