import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `rasterizationScale` is Core Animation's: the rasterized bitmap's pixels per point, whatever
/// the canvas scale ("set it to the screen's scale" gives a sharp bitmap on a 2x screen; left
/// at 1 there it is magnified and blurry).
///
/// The layer: 4x4 pt, a red sublayer 1.5 pt wide at its left edge (aliased, so a pixel is red
/// when its centre is left of x = 1.5). On a 2x canvas the pixel centres are at x = 0.25, 0.75,
/// 1.25, 1.75 pt.
final class RasterizationScaleTests: XCTestCase {
    private func row(rasterizationScale: CGFloat, canvasScale: Double) -> [UInt8] {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 1.5, height: 4), rgb(255, 0, 0)))
        l.shouldRasterize = true
        l.rasterizationScale = rasterizationScale
        let image = renderCPU(l, width: 4, height: 4, scale: canvasScale)
        return (0..<4).map { image.rgba($0, 3)[3] }
    }

    /// At 1 px/pt the bitmap has texel centres at 0.5 and 1.5 pt: texel 0 red, texel 1 clear.
    /// Magnified bilinearly onto the 2x canvas: 0.25 pt clamps to texel 0 (255); 0.75 pt is
    /// ¾ texel 0 (0.75 · 255 = 191.25 → 191); 1.25 pt is ¼ texel 0 (63.75 → 64); 1.75 pt is
    /// between texels 1 and 2, both clear (0).
    func testScaleOneOnATwoXCanvasIsMagnified() {
        XCTAssertEqual(row(rasterizationScale: 1, canvasScale: 2), [255, 191, 64, 0])
    }

    /// At the screen's scale the bitmap's texels are the canvas pixels: sharp.
    func testScreenScaleIsSharp() {
        XCTAssertEqual(row(rasterizationScale: 2, canvasScale: 2), [255, 255, 255, 0])
    }

    /// The pass is made at rasterizationScale pixels per point, not that times the canvas's.
    func testThePassHasRasterizationScalePixelsPerPoint() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 40, height: 20), rgb(255, 0, 0))
        l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(0, 0, 255)))
        l.shouldRasterize = true
        l.rasterizationScale = 3
        let list = displayList(l, width: 40, height: 20, scale: 2)
        guard let pass = list.passes.first(where: { $0.purpose == .rasterized }) else { return XCTFail("no rasterized pass") }
        XCTAssertEqual([pass.width, pass.height], [120, 60])
    }
}
