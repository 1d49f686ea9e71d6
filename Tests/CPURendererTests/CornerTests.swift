import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `maskedCorners` and `cornerCurve` on the CPU reference, at pixels computed by hand (pixel
/// (x, y) is sampled at its centre (x + 0.5, y + 0.5); a corner's coverage is 0.5 − the signed
/// distance to the curve, clamped to 0…1; straight edges are aliased by default).
final class CornerTests: XCTestCase {
    let white = rgb(255, 255, 255), red = rgb(255, 0, 0)

    /// A 100 pt white square with `cornerRadius` 30 rounding only the corners of `mask`.
    private func oneCorner(_ mask: CACornerMask) -> CALayer {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), white)
        l.cornerRadius = 30
        l.maskedCorners = mask
        return l
    }

    /// A white `width` × `height` layer with `cornerRadius` 30 and `curve`, alone on its canvas.
    private func render(_ curve: CALayerCornerCurve, _ width: CGFloat, _ height: CGFloat) -> Bitmap {
        let l = solidLayer(CGRect(x: 0, y: 0, width: width, height: height), white)
        l.cornerRadius = 30
        l.cornerCurve = curve
        return renderCPU(l, width: width, height: height)
    }

    func testOnlyTheMaskedCornerIsRounded() {
        let img = renderCPU(oneCorner(.layerMaxXMinYCorner), width: 100, height: 100)
        // (98.5, 1.5) is √(28.5² + 28.5²) = 40.3 pt from the arc's centre (70, 30): outside.
        XCTAssertEqual(img.rgba(98, 1), [0, 0, 0, 0])
        // (85.5, 15.5) is √(15.5² + 14.5²) = 21.2 pt from it: inside by more than a pixel.
        XCTAssertEqual(img.rgba(85, 15), [255, 255, 255, 255])
        // The other three corners are square: their corner pixels are whole.
        XCTAssertEqual(img.rgba(0, 0), [255, 255, 255, 255])
        XCTAssertEqual(img.rgba(0, 99), [255, 255, 255, 255])
        XCTAssertEqual(img.rgba(99, 99), [255, 255, 255, 255])
    }

    /// Each corner of `CACornerMask` is the one its name says in the layer's y-down bounds:
    /// rounding one leaves its corner pixel empty and the three others whole.
    func testEachCornerByItsName() {
        let cases: [(CACornerMask, (Int, Int))] = [(.layerMinXMinYCorner, (0, 0)), (.layerMaxXMinYCorner, (99, 0)),
                                                   (.layerMinXMaxYCorner, (0, 99)), (.layerMaxXMaxYCorner, (99, 99))]
        for (mask, rounded) in cases {
            let img = renderCPU(oneCorner(mask), width: 100, height: 100)
            for (_, corner) in cases {
                // A corner pixel is √(29.5² + 29.5²) = 41.7 pt from its arc's centre.
                let expected: [UInt8] = corner == rounded ? [0, 0, 0, 0] : [255, 255, 255, 255]
                XCTAssertEqual(img.rgba(corner.0, corner.1), expected, "\(mask) at \(corner)")
            }
        }
    }

    /// An empty mask rounds nothing: the same pixels as `cornerRadius` 0.
    func testAnEmptyMaskRoundsNothing() {
        let square = renderCPU(oneCorner([]), width: 100, height: 100)
        let plain = renderCPU(solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), white), width: 100, height: 100)
        XCTAssertEqual(square.pixels, plain.pixels)
        XCTAssertEqual(square.rgba(0, 0), [255, 255, 255, 255])
    }

    /// The border follows the mask on both its edges: square corners keep a square ring, the
    /// rounded one's inner edge has radius 30 − 10 = 20.
    func testBorderFollowsTheMask() {
        let l = oneCorner(.layerMaxXMinYCorner)
        l.borderWidth = 10
        l.borderColor = red
        let img = renderCPU(l, width: 100, height: 100)
        XCTAssertEqual(img.rgba(0, 0), [255, 0, 0, 255], "square outer corner")
        XCTAssertEqual(img.rgba(10, 10), [255, 255, 255, 255], "square inner corner: (10.5, 10.5) is inside")
        XCTAssertEqual(img.rgba(9, 10), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(98, 1), [0, 0, 0, 0])
        // (85.5, 15.5) is 21.2 pt from (70, 30): outside the inner radius 20 by more than a
        // pixel, inside the outer 30: all border.
        XCTAssertEqual(img.rgba(85, 15), [255, 0, 0, 255])
        // (80.5, 20.5) is √(10.5² + 9.5²) = 14.2 pt from it: inside the inner curve.
        XCTAssertEqual(img.rgba(80, 20), [255, 255, 255, 255])
    }

    /// With `masksToBounds` the clip is square where the mask leaves corners square.
    func testMasksToBoundsClipFollowsTheMask() {
        let l = oneCorner(.layerMinXMaxYCorner)
        l.masksToBounds = true
        l.addSublayer(solidLayer(CGRect(x: -20, y: -20, width: 140, height: 140), red))
        let img = renderCPU(l, width: 100, height: 100)
        XCTAssertEqual(img.rgba(0, 99), [0, 0, 0, 0], "bottom left rounded away")
        XCTAssertEqual(img.rgba(0, 0), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(99, 0), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(99, 99), [255, 0, 0, 255])
    }

    /// The corners are named in the layer's own bounds: under a `geometryFlipped` superlayer
    /// minimum y is the visual bottom, so `.layerMinXMinYCorner` rounds the bottom left (as on
    /// an unflipped macOS view).
    func testCornersFollowTheLayersOwnGeometry() {
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        container.isGeometryFlipped = true
        container.addSublayer(oneCorner(.layerMinXMinYCorner))
        let img = renderCPU(container, width: 100, height: 100)
        XCTAssertEqual(img.rgba(0, 99), [0, 0, 0, 0])
        XCTAssertEqual(img.rgba(0, 0), [255, 255, 255, 255])
    }

    // MARK: cornerCurve

    func testCornerCurveExpansionFactor() {
        XCTAssertEqual(CALayer.cornerCurveExpansionFactor(.circular), 1)
        XCTAssertEqual(CALayer.cornerCurveExpansionFactor(.continuous), 1.528665, accuracy: 1e-6)
    }

    /// A 200 pt square, radius 30, top-left corner, `.circular` against `.continuous`.
    ///
    /// Circular: the arc's centre is (30, 30). Continuous (docs/layers.md, "Continuous corners"): the
    /// superellipse |u|ⁿ + |v|ⁿ = aⁿ about (a, a) with a = 1.52866483 × 30 = 45.860, through the
    /// diagonal point 0.30441544 × 30 = 9.1325 pt in from the corner, so
    /// n = ln 2 / −ln(1 − 9.1325 / 45.860) = ln 2 / 0.22207 = 3.1213; coverage is 0.5 − the
    /// first-order distance (N − a) / |∇N|, N = (uⁿ + vⁿ)^(1/n), ∇N = ((u/N)ⁿ⁻¹, (v/N)ⁿ⁻¹).
    func testContinuousAgainstCircular() {
        let circular = render(.circular, 200, 200), continuous = render(.continuous, 200, 200)
        // Pixel (26, 0), centre (26.5, 0.5). Circular: (u, v) = (3.5, 29.5), distance
        // √882.5 − 30 = −0.2931, coverage 0.7931 → 202. Continuous: (u, v) = (45.860 − 26.5,
        // 45.860 − 0.5) = (19.360, 45.360), N = 46.356, |∇N| = 0.9678, distance 0.5121 > 0.5 → 0.
        XCTAssertEqual(Double(circular.rgba(26, 0)[3]), 202, accuracy: 1)
        XCTAssertEqual(continuous.rgba(26, 0)[3], 0)
        // Pixel (30, 0): for the circle (30.5, 0.5) is right of the arc (x > 30), on the straight
        // edge: 255. Continuous: (u, v) = (15.360, 45.360), N = 45.849, |∇N| = 0.9824, distance
        // −0.0110, coverage 0.5110 → 130.
        XCTAssertEqual(circular.rgba(30, 0)[3], 255)
        XCTAssertEqual(Double(continuous.rgba(30, 0)[3]), 130, accuracy: 2)
        // Pixel (22, 1): circular (u, v) = (7.5, 28.5), distance √868.5 − 30 = −0.530: 255.
        // Continuous: (u, v) = (23.360, 44.360), distance 0.357, coverage 0.143 → 36.5.
        XCTAssertEqual(circular.rgba(22, 1)[3], 255)
        XCTAssertEqual(Double(continuous.rgba(22, 1)[3]), 36.5, accuracy: 2)
        // The continuous curve starts 45.86 pt along each edge: pixel (46, 0) is whole, and
        // (45, 0), 0.36 pt in, has coverage 0.999996 (255).
        XCTAssertEqual(continuous.rgba(46, 0)[3], 255)
        XCTAssertEqual(continuous.rgba(45, 0)[3], 255)
        XCTAssertEqual(continuous.rgba(0, 46)[3], 255)
        // The four corners are mirror images of one another.
        for (x, y) in [(26, 0), (30, 0), (22, 1), (9, 9), (8, 8)] {
            let a = continuous.rgba(x, y)
            XCTAssertEqual(continuous.rgba(199 - x, y), a)
            XCTAssertEqual(continuous.rgba(x, 199 - y), a)
            XCTAssertEqual(continuous.rgba(199 - x, 199 - y), a)
        }
        // On the diagonal the curve is 9.1325 pt in: (9.5, 9.5) is inside by 0.37 × √2 = 0.52
        // (whole), (8.5, 8.5) outside by 0.63 × √2 = 0.89 (empty).
        XCTAssertEqual(continuous.rgba(9, 9)[3], 255)
        XCTAssertEqual(continuous.rgba(8, 8)[3], 0)
    }

    /// When the radius is half the shorter side the continuous curve cannot start 1.53 r along
    /// the edges: a = r, the diagonal point is the circle's, n = ln 2 / −ln(√½) = 2, and the
    /// capsule is drawn exactly as `.circular` draws it.
    func testContinuousCapsuleIsCircular() {
        XCTAssertEqual(render(.continuous, 100, 60).pixels, render(.circular, 100, 60).pixels)
    }

    /// A continuous curve on a corner the mask leaves square draws nothing different.
    func testContinuousOnSquareCornersIsSquare() {
        let l = oneCorner(.layerMaxXMinYCorner)
        l.cornerCurve = .continuous
        let img = renderCPU(l, width: 100, height: 100)
        XCTAssertEqual(img.rgba(0, 0), [255, 255, 255, 255])
        XCTAssertEqual(img.rgba(99, 99), [255, 255, 255, 255])
        XCTAssertEqual(img.rgba(99, 0), [0, 0, 0, 0])
    }
}
