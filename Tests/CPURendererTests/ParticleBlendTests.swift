import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The two display-list features particles need, drawn by the CPU renderer, with bytes worked
/// out by hand: an image fill's `modulation` (a particle's colour multiplies its image) and an
/// `additive` pass (the particles of `renderMode` additive add up, clamped at 1).
final class ParticleBlendTests: XCTestCase {
    private func quad(_ rect: CGRect, _ fill: Fill) -> DrawQuad {
        DrawQuad(transform: .identity, inverse: PlaneMap(inverseOf: .identity)!, rect: rect, shape: .rect(corners: .square),
                 fill: fill, opacity: 1, antialiased: false, clips: [], label: "q")
    }

    private func pixel(_ b: Bitmap, _ x: Int) -> [UInt8] { Array(b.pixels[(x * 4)..<(x * 4 + 4)]) }

    func testModulationMultipliesEachTexelByThePremultipliedColour() throws {
        let image = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [200, 100, 50, 255]))
        let map = AxisMap(stops: [0, 2], texels: [0, 1])
        // Straight (1, 0.5, 0.2, 0.8) premultiplied: (0.8, 0.4, 0.16, 0.8).
        let fill = ImageFill(image: image, x: map, y: map, minification: .nearest, magnification: .nearest,
                             modulation: PremultipliedColor(r: 0.8, g: 0.4, b: 0.16, a: 0.8))
        let plain = ImageFill(image: image, x: map, y: map, minification: .nearest, magnification: .nearest)
        let list = DisplayList(passes: [RenderPass(index: 0, purpose: .canvas, width: 4, height: 2, content: .quads([
            quad(CGRect(x: 0, y: 0, width: 2, height: 2), .image(fill)),
            quad(CGRect(x: 2, y: 0, width: 2, height: 2), .image(plain)),
        ]), label: "canvas")], width: 4, height: 2, background: .clear)
        let b = try CPURenderer().render(list)
        // (200 · 0.8, 100 · 0.4, 50 · 0.16, 255 · 0.8) over transparent black.
        XCTAssertEqual(pixel(b, 0), [160, 40, 8, 204])
        XCTAssertEqual(pixel(b, 1), [160, 40, 8, 204])
        XCTAssertEqual(pixel(b, 2), [200, 100, 50, 255], "no modulation leaves the image as it is")
    }

    func testAnAdditivePassAddsItsQuadsAndIsThenCompositedOver() throws {
        let a = PremultipliedColor(r: 0.4, g: 0.2, b: 0, a: 0.4), c = PremultipliedColor(r: 0.8, g: 0.2, b: 0.1, a: 0.8)
        let particles = RenderPass(index: 0, purpose: .additive, width: 2, height: 1, content: .quads([
            quad(CGRect(x: 0, y: 0, width: 2, height: 1), .color(a)),
            quad(CGRect(x: 0, y: 0, width: 1, height: 1), .color(c)),
        ]), label: "particles")
        let canvas = RenderPass(index: 1, purpose: .canvas, width: 2, height: 1, content: .quads([
            quad(CGRect(x: 0, y: 0, width: 2, height: 1), .pass(PassFill(pass: 0, scale: 1))),
        ]), label: "canvas")
        let list = DisplayList(passes: [particles, canvas], width: 2, height: 1,
                               background: PremultipliedColor(r: 0, g: 0, b: 1, a: 1))
        let b = try CPURenderer().render(list)
        // Pixel 0: (102, 51, 0, 102) + (204, 51, 25.5 → 26, 204) = (306 → 255, 102, 26, 306 → 255),
        // opaque, so it covers the blue. Pixel 1: (102, 51, 0, 102) over blue: b = 255 · (1 − 0.4) = 153.
        XCTAssertEqual(pixel(b, 0), [255, 102, 26, 255])
        XCTAssertEqual(pixel(b, 1), [102, 51, 153, 255])
        // Source-over in the same pass would have given 204 + 102 · 0.2 for red, not 255.
        let over = DisplayList(passes: [RenderPass(index: 0, purpose: .groupOpacity, width: 2, height: 1, content: particles.content,
                                                   label: "particles"), canvas],
                               width: 2, height: 1, background: PremultipliedColor(r: 0, g: 0, b: 1, a: 1))
        XCTAssertEqual(pixel(try CPURenderer().render(over), 0)[0], 224)
    }
}
