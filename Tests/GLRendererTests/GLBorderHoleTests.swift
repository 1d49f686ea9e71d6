@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A border's hole left out of its geometry (`FrameData.hole`, `LK_HOLE`): where the inner
/// cut-out covers every pixel centre fully the border draws nothing, so those pixels get no
/// fragments; the ring around the hole draws the rest exactly as the whole quad did.
final class GLBorderHoleTests: XCTestCase {
    /// The record of the only quad of `layer` on a 200 x 200 root, and its features.
    private func record(_ layer: CALayer) -> (QuadRecord, ShaderFeatures?) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.addSublayer(layer)
        let list = Compositor.displayList(root: root.snapshot(), width: 200, height: 200, scale: 1, background: nil)
        let frame = GLRenderer.frameData(list, canvas: (200, 200), es: false) { _ in (1, 1) }
        XCTAssertEqual(list.quadCount, 1)
        return (QuadRecord(floats: frame.data.floats[0..<(FrameData.quadStride * 4)]), frame.features[0])
    }

    private func border(_ frame: CGRect, radius: CGFloat = 0) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.borderWidth = 5
        layer.cornerRadius = radius
        return layer
    }

    /// A 140 x 100 border 5 wide at (10, 20), square and aliased: the visible box's centre
    /// (80, 70) is the reference pixel, the layer point under it (70, 50) the local origin, so
    /// the rectangle is (-70, -50, 70, 50) and the cut-out (-65, -45, 65, 45). One local unit a
    /// pixel: the hole is the cut-out less one pixel (an aliased edge's slack) on every side.
    func testASquareBordersHoleIsItsCutOutLessOnePixel() {
        let (rec, features) = record(border(CGRect(x: 10, y: 20, width: 140, height: 100)))
        XCTAssertEqual(rec[.rect], [-70, -50, 70, 50])
        XCTAssertEqual(rec[.hole], [-64, -44, 64, 44])
        XCTAssertEqual(features.map { $0.contains(.hole) }, true)
    }

    /// The same border with corner radius 8: the cut-out's corners have radius 8 - 5 = 3, and
    /// its coverage is not only 0 or 1, so the slack is 1.5 pixels: 3 + 1.5 on every side.
    func testARoundedBordersHoleLeavesOutTheCutOutsCorners() {
        XCTAssertEqual(record(border(CGRect(x: 10, y: 20, width: 140, height: 100), radius: 8)).0[.hole], [-60.5, -40.5, 60.5, 40.5])
    }

    /// A hole shorter than `minimumHoleSide` (48) pixels is not left out. 60 high: the visible
    /// box's centre is y 50, the origin y 30, the cut-out y -25...25, the hole -24...24, 48
    /// pixels. 59 high: the centre 49.5 rounds to 50 too, the cut-out is -25...24 and the
    /// hole 47 pixels: none, the quad's four vertices.
    func testAHoleShorterThanTheMinimumIsNotLeftOut() {
        XCTAssertEqual(record(border(CGRect(x: 10, y: 20, width: 140, height: 60))).0[.hole], [-64, -24, 64, 24])
        let (rec, features) = record(border(CGRect(x: 10, y: 20, width: 140, height: 59)))
        XCTAssertEqual(rec[.borderHasHole], 1)
        XCTAssertEqual(rec[.hole], [0, 0, 0, 0])
        XCTAssertEqual(features.map { $0.contains(.hole) }, false)
    }

    /// With the fill floor (every fragment one colour) the fragments show: the border's 4 pixels
    /// and the cut-out's first pixel (inside the slack) are drawn, the hole's are not; the
    /// picture itself draws the border only.
    func testTheHoleGetsNoFragments() throws {
        let gl = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = CALayer()
        layer.frame = CGRect(x: 5, y: 5, width: 90, height: 90)
        layer.borderWidth = 4
        layer.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(layer)
        let list = displayList(root, width: 100, height: 100, background: rgb(255, 255, 255))
        gl.renderer.tracksDamage = false
        let picture = try gl.renderer.render(list)
        gl.renderer.drawsFillFloor = true
        let floor = try gl.renderer.render(list)

        func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
            Array(bitmap.pixels[(y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4])
        }
        let floorColour: [UInt8] = [255, 127, 127, 255], white: [UInt8] = [255, 255, 255, 255]
        // x 5...8 border, 9 the cut-out's first pixel, 10 on the hole.
        XCTAssertEqual(pixel(picture, 8, 20), [0, 0, 255, 255])
        XCTAssertEqual(pixel(picture, 9, 20), white)
        XCTAssertEqual(pixel(floor, 8, 20), floorColour)
        XCTAssertEqual(pixel(floor, 9, 20), floorColour)
        XCTAssertEqual(pixel(floor, 11, 20), white)
        XCTAssertEqual(pixel(floor, 50, 50), white)
    }
}
