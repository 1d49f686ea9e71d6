import LayerCompositor
import LayerKitCore
import XCTest

/// `DrawQuad.pixelBounds`: the pixels a quad may touch on a 100 x 100 target, its outline's
/// bounding box one pixel wider on each side, clamped to the target; by hand.
final class PixelBoundsTests: XCTestCase {
    private func quad(_ t: CATransform3D, _ rect: CGRect) -> DrawQuad {
        DrawQuad(transform: t, inverse: PlaneMap(inverseOf: .identity)!, rect: rect, shape: .rect(corners: .square),
                 fill: .color(PremultipliedColor(r: 1, g: 0, b: 0, a: 1)), opacity: 1, antialiased: false,
                 clips: [], label: "q")
    }

    /// A 10 x 20 rect moved by (5.5, 7): x 5.5…15.5, y 7…27, so pixels ⌊4.5⌋ = 4 ..< ⌈16.5⌉ = 17
    /// and 6 ..< 28.
    func testAQuadInFrontIsItsCornersBoxOnePixelWider() {
        let q = quad(CATransform3DMakeTranslation(5.5, 7, 0), CGRect(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(q.pixelBounds(width: 100, height: 100), PixelRect(x0: 4, x1: 17, y0: 6, y1: 28))
    }

    /// A rect given with a negative width (x 10…0) is measured standardized; one reaching past
    /// the target's left and bottom edges (x −5…5, y 90…110) is clamped to 0 ..< 6 and 89 ..< 100.
    func testAQuadIsStandardizedAndClampedToTheTarget() {
        let flipped = quad(.identity, CGRect(x: 10, y: 0, width: -10, height: 10))
        XCTAssertEqual(flipped.pixelBounds(width: 100, height: 100), PixelRect(x0: 0, x1: 11, y0: 0, y1: 11))
        let over = quad(CATransform3DMakeTranslation(-5, 90, 0), CGRect(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(over.pixelBounds(width: 100, height: 100), PixelRect(x0: 0, x1: 6, y0: 89, y1: 100))
    }

    /// w = 1 − x/10 (m14 = −0.1): of the rect x 0…20, y 0…10 the corners at x = 20 have w = −1,
    /// behind the eye. The outline is clipped at w = 1e-5, where x ≈ 10 projects to about 10^6
    /// and y = 10 to 10^6: the box runs from (0, 0) past the target on both axes, so the whole
    /// target. With w = −1 everywhere (m44 = −1) nothing is in front: no pixels.
    func testAQuadPartlyOrWhollyBehindTheEyeIsClippedAtTheFront() {
        var partly = CATransform3D.identity
        partly.m14 = -0.1
        XCTAssertEqual(quad(partly, CGRect(x: 0, y: 0, width: 20, height: 10)).pixelBounds(width: 100, height: 100),
                       PixelRect(x0: 0, x1: 100, y0: 0, y1: 100))
        var behind = CATransform3D.identity
        behind.m44 = -1
        XCTAssertNil(quad(behind, CGRect(x: 0, y: 0, width: 20, height: 10)).pixelBounds(width: 100, height: 100))
    }
}
