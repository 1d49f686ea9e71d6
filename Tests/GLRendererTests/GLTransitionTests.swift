import CPURenderer
import GLRenderer
import LayerCompositor
import LayerKitCore
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

    /// Once a transition has ended, the GL backend keeps neither its old image nor its pass
    /// targets: after the pool's idle frames, it holds what a still frame of the new image
    /// holds, the image's texture and the canvas target.
    func testAFinishedTransitionLeavesNoTextures() throws {
        let gl = try GLHarness()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let source = PresentationTreeSource(layer)
        func draw(at t: Double) throws {
            source.commit(at: t)
            _ = try gl.renderer.render(Compositor.displayList(root: source.snapshot(at: t), width: 20, height: 20, scale: 1, background: nil))
        }
        weak var old: CGImage?
        do {
            let red = solidImage(width: 20, height: 20, rgb(255, 0, 0))
            old = red
            layer.contents = red
            try draw(at: 9)
            let fade = CATransition()
            (fade.beginTime, fade.duration) = (10, 1)
            layer.add(fade, forKey: nil)
            // The transition is the only animation: no implicit one of `contents` beside it.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.contents = solidImage(width: 20, height: 20, rgb(0, 0, 255))
            CATransaction.commit()
        }
        try draw(at: 10.5)
        // Both images, the two renderings' targets and the canvas's.
        XCTAssertEqual(gl.renderer.lastFrameStats.texturesHeld, 5)
        // Over at 11: removed at the frame of 11.5. Targets idle for more than 2 frames go.
        for t in [11.5, 11.6, 11.7, 11.8] { try draw(at: t) }
        XCTAssertNil(layer.animationKeys())
        XCTAssertNil(old, "the old image is not kept")
        XCTAssertEqual(gl.renderer.lastFrameStats.texturesHeld, 2)
    }
}
