import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `GLRenderer.drawsFillFloor` (`layerkit bench --floor`): the frame's own draws, of the same
/// geometry, with one constant colour blended over the target, so that its time is the
/// rasteriser's floor for what the real frame draws.
final class GLFillFloorTests: XCTestCase {
    /// Images A, B, A and a rounded translucent colour layer: three draws either way (a unit
    /// cannot hold two images; the colour quad joins the last); with the floor, every pixel
    /// of every quad's geometry is the constant (128, 0, 0, 128)/255 over white,
    /// (128 + 127, 127, 127, 128 + 127), whatever the quad's fill, shape or opacity.
    func testTheFloorDrawsTheSameQuadsInTheSameDrawsWithOneColour() throws {
        let gl = try GLHarness()
        let root = rootWithImagesABA(spacing: 10)
        let round = CALayer()
        round.frame = CGRect(x: 32, y: 1, width: 8, height: 8)
        round.cornerRadius = 4
        round.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        round.opacity = 0.5
        root.addSublayer(round)
        let list = displayList(root, width: 40, height: 10, background: rgb(255, 255, 255))
        gl.renderer.tracksDamage = false

        let picture = try gl.renderer.render(list)
        let pictureStats = gl.renderer.lastFrameStats
        gl.renderer.drawsFillFloor = true
        let floor = try gl.renderer.render(list)
        let floorStats = gl.renderer.lastFrameStats

        XCTAssertEqual(pictureStats.drawCalls, 3)
        XCTAssertEqual(floorStats.drawCalls, 3)
        func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
            Array(bitmap.pixels[(y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4])
        }
        let floorColour: [UInt8] = [255, 127, 127, 255]
        // Inside the first A, inside B; then between two quads; then the rounded layer's corner,
        // outside its curve but inside its geometry.
        XCTAssertEqual(pixel(picture, 3, 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(floor, 3, 5), floorColour)
        XCTAssertEqual(pixel(picture, 13, 5), [0, 0, 255, 255])
        XCTAssertEqual(pixel(floor, 13, 5), floorColour)
        XCTAssertEqual(pixel(floor, 8, 5), [255, 255, 255, 255])
        XCTAssertEqual(pixel(picture, 32, 1), [255, 255, 255, 255])
        XCTAssertEqual(pixel(floor, 32, 1), floorColour)

        gl.renderer.drawsFillFloor = false
        XCTAssertEqual(try gl.renderer.render(list), picture, "off again: the picture again")
    }
}
