import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// An emitter's particles in the display list (docs/scene-format.md, "The particle model",
/// steps 11 and 12), with positions and colours worked out by hand, and drawn by the CPU
/// renderer: above the layer's own drawing, within `masksToBounds`, one quad each (or one
/// additive pass for `renderMode` additive).
final class ParticleCompositingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ParticleCompositingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)).writePNG(to: directory.appendingPathComponent("dot.png").path)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// A 100x100 canvas, black, with the emitter `emitter` (JSON members) at the origin.
    private func list(_ emitter: String, time: Double) throws -> DisplayList {
        let text = ##"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 100, "height": 100, "background": "#000000"}, "##
            + #""images": {"dot": "dot.png"}, "root": {"type": "emitterLayer", "frame": [0, 0, 100, 100], \#(emitter)}}"#
        return Compositor.displayList(for: try readScene(text, directory: directory.path), time: time)
    }

    private func cell(_ extra: String = "") -> String {
        #"{"contents": "dot", "birthRate": 1, "lifetime": 10, "velocity": 10, "magnificationFilter": "nearest"\#(extra)}"#
    }

    func testEachParticleIsAQuadOfItsImageAtItsPlaceAndColour() throws {
        let tinted = cell(#", "color": [1, 0.5, 0.25, 0.5]"#)
        let l = try list(##""backgroundColor": "#202020", "borderWidth": 1, "emitterPosition": [20, 30], "emitterCells": [\##(tinted)]"##,
                         time: 2.5)
        let quads = l.canvas.quads
        // Background, border, then the particles born at 0, 1, 2: ages 2.5, 1.5, 0.5, so at
        // x = 20 + 10 · age = 45, 35, 25, y = 30.
        XCTAssertEqual(quads.count, 5)
        guard case .color = quads[0].fill, case .border = quads[1].shape else { return XCTFail("background and border first") }
        XCTAssertEqual(quads[2...].map { [Double($0.transform.m41), Double($0.transform.m42)] }, [[45, 30], [35, 30], [25, 30]])
        for q in quads[2...] {
            XCTAssertEqual(q.rect, CGRect(x: -1, y: -1, width: 2, height: 2), "the 2x2 image at contentsScale 1, centred")
            XCTAssertEqual([q.transform.m11, q.transform.m12, q.transform.m21, q.transform.m22], [1, 0, 0, 1])
            guard case .image(let f) = q.fill else { return XCTFail("an image fill") }
            // (1, 0.5, 0.25) at alpha 0.5, premultiplied.
            XCTAssertEqual(f.modulation, PremultipliedColor(r: 0.5, g: 0.25, b: 0.125, a: 0.5))
            XCTAssertEqual(f.x.texels, [0, 2])
            XCTAssertEqual(f.magnification, .nearest)
            XCTAssertFalse(q.antialiased)
        }
    }

    func testScaleAndSpinTurnTheQuadAboutItsCentre() throws {
        let l = try list(#""emitterCells": [\#(cell(#", "scale": 2, "spin": 1"#))]"#, time: 0.5)
        XCTAssertEqual(l.canvas.quads.count, 1, "only particle 0 is born by 0.5")
        let q = try XCTUnwrap(l.canvas.quads.first)
        // S = 2, turned 0.5 rad at age 0.5 (positive clockwise on screen): scale, then rotate,
        // then move to x = 10 · 0.5.
        XCTAssertEqual(Double(q.transform.m11), 2 * cos(0.5), accuracy: 1e-12)
        XCTAssertEqual(Double(q.transform.m12), 2 * sin(0.5), accuracy: 1e-12)
        XCTAssertEqual(Double(q.transform.m21), -2 * sin(0.5), accuracy: 1e-12)
        XCTAssertEqual(Double(q.transform.m41), 5, accuracy: 1e-12)
    }

    func testMasksToBoundsClipsTheParticlesAndACellWithoutContentsDrawsNothing() throws {
        let clipped = try list(#""masksToBounds": true, "emitterCells": [\#(cell())]"#, time: 1)
        XCTAssertEqual(clipped.canvas.quads.count, 2)
        XCTAssertTrue(clipped.canvas.quads.allSatisfy { $0.clips.count == 1 })
        let empty = try list(#""emitterCells": [{"birthRate": 10, "lifetime": 10}]"#, time: 1)
        XCTAssertEqual(empty.canvas.quads.count, 0)
    }

    func testParticlesWhoseNumbersOverflowAreNotDrawn() throws {
        // Finite fields can still overflow: 3e38 (the layer's, single precision) times a speed
        // near 1e308 is infinite, so the particles are at infinity or NaN (inf · 0 at age 0).
        // Their quads' maps cannot be inverted: nothing is drawn, and nothing crashes.
        let l = try list(#""velocity": 3e38, "emitterCells": [\#(cell(#", "velocityRange": 1e308"#))]"#, time: 2)
        XCTAssertEqual(l.canvas.quads.count, 0)
        XCTAssertNoThrow(try CPURenderer().render(l))
        let additive = try list(#""renderMode": "additive", "velocity": 3e38, "emitterCells": [\#(cell(#", "velocityRange": 1e308"#))]"#,
                                time: 2)
        XCTAssertEqual(additive.passes.count, 1)
    }

    func testAReplicatorsColourTintsTheParticles() throws {
        // instanceColor (0.5, 1, 1, 1) over an emitter of (0.4, 0.2, 0, 1) particles of a white
        // dot: the dot tinted to (127.5 → 128, 255, 255), times the particle's colour:
        // (128 · 0.4 = 51.2 → 51, 255 · 0.2 = 51, 0).
        let emitter = #"{"type": "emitterLayer", "frame": [0, 0, 100, 100], "emitterPosition": [20, 30], "emitterCells": "#
            + #"[{"contents": "dot", "birthRate": 0.1, "lifetime": 10, "magnificationFilter": "nearest", "color": [0.4, 0.2, 0, 1]}]}"#
        let text = ##"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 100, "height": 100, "background": "#000000"}, "##
            + #""images": {"dot": "dot.png"}, "root": {"type": "replicatorLayer", "frame": [0, 0, 100, 100], "#
            + #""instanceColor": [0.5, 1, 1, 1], "sublayers": [\#(emitter)]}}"#
        let b = try CPURenderer().render(Compositor.displayList(for: try readScene(text, directory: directory.path), time: 1))
        XCTAssertEqual(Array(b.pixels[((30 * 100 + 20) * 4)..<((30 * 100 + 20) * 4 + 4)]), [51, 51, 0, 255])
    }

    func testAdditiveParticlesGoIntoOnePassOfTheirExtent() throws {
        let l = try list(#""renderMode": "additive", "emitterPosition": [20, 30], "emitterCells": [\#(cell())]"#, time: 2.5)
        XCTAssertEqual(l.passes.count, 2)
        let pass = l.passes[0]
        XCTAssertEqual(pass.purpose, .additive)
        XCTAssertEqual(pass.quads.count, 3)
        // Centres x 25…45, y 30, each within √2 (half the 2x2 diagonal): x 23.59…46.41,
        // y 28.59…31.41, made whole: 23…47 by 28…32.
        XCTAssertEqual([pass.width, pass.height], [24, 4])
        let back = try XCTUnwrap(l.canvas.quads.first)
        XCTAssertEqual(back.rect, CGRect(x: 23, y: 28, width: 24, height: 4))
        guard case .pass(let f) = back.fill else { return XCTFail("the pass drawn back") }
        XCTAssertEqual(f.pass, 0)
    }

    func testPixelsSourceOverAndAdditive() throws {
        // Two cells at the point (20, 30), not moving: (0.4, 0.2, 0, 1) each, bytes (102, 51, 0).
        let still = #"{"contents": "dot", "birthRate": 0.1, "lifetime": 10, "magnificationFilter": "nearest", "color": [0.4, 0.2, 0, 1]}"#
        for (mode, red, green) in [("unordered", 102, 51), ("additive", 204, 102)] {
            let l = try list(#""renderMode": "\#(mode)", "emitterPosition": [20, 30], "emitterCells": [\#(still), \#(still)]"#, time: 1)
            let b = try CPURenderer().render(l)
            func px(_ x: Int, _ y: Int) -> [UInt8] { Array(b.pixels[((y * 100 + x) * 4)..<((y * 100 + x) * 4 + 4)]) }
            // The 2x2 image covers pixels 19…20 by 29…30.
            for (x, y) in [(19, 29), (20, 30)] { XCTAssertEqual(px(x, y), [UInt8(red), UInt8(green), 0, 255], mode) }
            XCTAssertEqual(px(21, 30), [0, 0, 0, 255], mode)
            XCTAssertEqual(px(18, 29), [0, 0, 0, 255], mode)
        }
    }
}
