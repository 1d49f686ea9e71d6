import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// The GL backend draws an image fill's `modulation` and an `additive` pass as the CPU
/// reference does (`ParticleBlendTests` has the bytes by hand): the same bytes here, since
/// both round the fragment to 8 bits before blending.
final class GLParticleBlendTests: XCTestCase {
    private func quad(_ rect: CGRect, _ fill: Fill) -> DrawQuad {
        DrawQuad(transform: .identity, inverse: PlaneMap(inverseOf: .identity)!, rect: rect, shape: .rect(corners: .square),
                 fill: fill, opacity: 1, antialiased: false, clips: [], label: "q")
    }

    func testModulationAndAdditivePassesMatchTheCPUReference() throws {
        let h = try GLHarness()
        let image = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [200, 100, 50, 255]))
        let map = AxisMap(stops: [0, 2], texels: [0, 1])
        let fill = ImageFill(image: image, x: map, y: map, minification: .nearest, magnification: .nearest,
                             modulation: PremultipliedColor(r: 0.8, g: 0.4, b: 0.16, a: 0.8))
        let particles = RenderPass(index: 0, purpose: .additive, width: 4, height: 2, content: .quads([
            quad(CGRect(x: 0, y: 0, width: 4, height: 2), .color(PremultipliedColor(r: 0.4, g: 0.2, b: 0, a: 0.4))),
            quad(CGRect(x: 0, y: 0, width: 2, height: 2), .image(fill)),
        ]), label: "particles")
        let canvas = RenderPass(index: 1, purpose: .canvas, width: 4, height: 2, content: .quads([
            quad(CGRect(x: 0, y: 0, width: 4, height: 2), .pass(PassFill(pass: 0, scale: 1))),
            // Drawn source-over after the additive pass: the blend function is reset.
            quad(CGRect(x: 3, y: 0, width: 1, height: 2), .color(PremultipliedColor(r: 0, g: 0.5, b: 0, a: 0.5))),
        ]), label: "canvas")
        let list = DisplayList(passes: [particles, canvas], width: 4, height: 2, background: PremultipliedColor(r: 0, g: 0, b: 1, a: 1))
        let cpu = try CPURenderer().render(list), gl = try h.renderer.render(list)
        XCTAssertEqual(gl.pixels, cpu.pixels)
        // (102, 51, 0, 102) + (160, 40, 8, 204), opaque.
        XCTAssertEqual(Array(gl.pixels[0..<4]), [255, 91, 8, 255])
        // Column 3: (102, 51, 153, 255), then (0, 127.5 → 128, 0, 128) over it with k = 127/255:
        // (50.8, 128 + 25.4, 76.2, 255), rounded.
        XCTAssertEqual(Array(gl.pixels[12..<16]), [51, 153, 76, 255])
    }
}

/// Particles cost draw calls per batch, not per particle: the quads of one cell share their
/// image, so the GL backend draws them with one instanced call (`FramePlan`: a batch is a run
/// of quads whose textures agree, one per unit, with the union of their shader features).
final class GLParticleDrawCallTests: XCTestCase {
    /// Listing 6.13: 301 additive particles into their pass (one draw), then on the canvas the
    /// pass drawn back and 301 unordered particles: a pass on the pass unit and one image on
    /// the image unit agree, so one draw. Two in all.
    func testOneCellsParticlesAreOneInstancedDraw() throws {
        let h = try GLHarness()
        let scene = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/6.13-fire-additive.json").path)
        let list = Compositor.displayList(for: scene)
        XCTAssertEqual(list.passes.map(\.quads.count), [301, 302])
        _ = try h.renderer.render(list)
        XCTAssertEqual(h.renderer.lastFrameStats.drawCalls, 2)
        // 10,000 particles of one cell (born 2000 a second, living 5 s: at time 6 those born
        // after time 1), additive: one draw into the pass, one drawing it back.
        let bench = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("bench/particles-10000.json").path)
        let many = Compositor.displayList(for: bench)
        XCTAssertEqual(many.passes.first?.quads.count, 10_000)
        _ = try h.renderer.render(many)
        XCTAssertEqual(h.renderer.lastFrameStats.drawCalls, 2)
    }
}
