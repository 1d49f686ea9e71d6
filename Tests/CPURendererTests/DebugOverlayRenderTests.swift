import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Debug overlays as the CPU reference draws them, each pixel worked out by hand. A tint is
/// 102/255 of its colour (premultiplied, alpha 102), drawn source-over: each channel becomes
/// `tint + pixel × 153/255`, rounded, so white under green is (153, 255, 153).
final class DebugOverlayRenderTests: XCTestCase {
    /// `layers` on a 60x40 white canvas, drawn with `overlay`.
    private func render(_ layers: [CALayer], _ overlay: DebugOverlay) throws -> Bitmap {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        for l in layers { root.addSublayer(l) }
        return try CPURenderer().render(displayList(root, width: 60, height: 40, background: rgb(255, 255, 255)).withDebugOverlay(overlay))
    }

    private func layer(_ frame: CGRect, _ color: CGColor) -> CALayer { solidLayer(frame, color) }

    private func imageLayer(_ frame: CGRect) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.contents = solidImage(width: 10, height: 10, rgb(0, 255, 0))
        return l
    }

    func testBlended() throws {
        let bitmap = try render([
            layer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0)),
            // Blue at alpha ½ (128 as a byte) over white: 255 × 127/255 = 127 in red and green.
            layer(CGRect(x: 20, y: 0, width: 10, height: 10), rgb(0, 0, 255, 0.5)),
            // White at alpha ½ over white stays white; two of them overlap at x 45…50.
            layer(CGRect(x: 40, y: 0, width: 10, height: 10), rgb(255, 255, 255, 0.5)),
            layer(CGRect(x: 45, y: 0, width: 10, height: 10), rgb(255, 255, 255, 0.5)),
        ], .blended)
        // Red under green: (0 + 255·0.6, 102 + 0, 0).
        XCTAssertEqual(bitmap.rgba(5, 5), [153, 102, 0, 255], "opaque: green")
        // (127, 127, 255) under red: (102 + 127·0.6 = 178.2, 76.2, 153).
        XCTAssertEqual(bitmap.rgba(25, 5), [178, 76, 153, 255], "translucent: red")
        XCTAssertEqual(bitmap.rgba(42, 5), [255, 153, 153, 255], "one blended layer over white")
        // Under the second layer: (255, 153, 153) → white at ½: 128 + 153 × 127/255 = 204.2 →
        // its red tint: 204 × 0.6 = 122.4.
        XCTAssertEqual(bitmap.rgba(47, 5), [255, 122, 122, 255], "two blended layers: redder")
        XCTAssertEqual(bitmap.rgba(52, 5), [255, 153, 153, 255], "the second alone")
        XCTAssertEqual(bitmap.rgba(15, 5), [255, 255, 255, 255], "nothing drawn: no tint")
    }

    /// A layer hidden under an opaque one does not show its tint through.
    func testAnOpaqueLayerCoversTheTintsUnderIt() throws {
        let bitmap = try render([layer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0, 0.5)),
                                 layer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0))], .blended)
        XCTAssertEqual(bitmap.rgba(5, 5), [153, 102, 0, 255], "green over red, as for the opaque layer alone")
    }

    func testOffscreen() throws {
        let masked = layer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0))
        masked.mask = layer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(0, 0, 0))
        let bitmap = try render([masked, layer(CGRect(x: 20, y: 0, width: 10, height: 10), rgb(255, 0, 0))], .offscreen)
        // Red under yellow: (102 + 255·0.6, 102 + 0, 0).
        XCTAssertEqual(bitmap.rgba(5, 5), [255, 102, 0, 255], "masked: drawn through a pass, yellow")
        XCTAssertEqual(bitmap.rgba(25, 5), [255, 0, 0, 255], "plain: untouched")
    }

    func testMisaligned() throws {
        let bitmap = try render([imageLayer(CGRect(x: 10.5, y: 3, width: 10, height: 10)),
                                 imageLayer(CGRect(x: 30, y: 3, width: 20, height: 20)),
                                 imageLayer(CGRect(x: 10, y: 25, width: 10, height: 10))], .misaligned)
        // Green (0, 255, 0) under magenta: (102, 153, 102); under yellow: (102, 255, 0).
        XCTAssertEqual(bitmap.rgba(15, 8), [102, 153, 102, 255], "at x 10.5: magenta")
        XCTAssertEqual(bitmap.rgba(40, 13), [102, 255, 0, 255], "scaled 2x: yellow")
        XCTAssertEqual(bitmap.rgba(15, 30), [0, 255, 0, 255], "whole pixels, unscaled: untouched")
    }

    /// Flashed regions: yellow at alpha 0.4 over white, inside the rectangle only.
    func testHighlights() throws {
        let list = displayList(CALayer(), width: 20, height: 20, background: rgb(255, 255, 255))
            .withHighlights([CGRect(x: 2, y: 3, width: 5, height: 4)], color: DebugOverlay.offscreenTint)
        let bitmap = try CPURenderer().render(list)
        XCTAssertEqual(bitmap.rgba(2, 3), [255, 255, 153, 255])
        XCTAssertEqual(bitmap.rgba(6, 6), [255, 255, 153, 255])
        XCTAssertEqual(bitmap.rgba(7, 6), [255, 255, 255, 255])
        XCTAssertEqual(bitmap.rgba(6, 7), [255, 255, 255, 255])
    }
}
