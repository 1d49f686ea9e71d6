import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// CAShapeLayer drawing, through the whole pipeline (compositor, CPU reference), with pixels
/// worked out by hand from the geometry. Layers sit at the canvas origin at scale 1, so layer
/// points are canvas pixels and pixel (x, y) covers [x, x+1] x [y, y+1].
final class ShapeContentTests: XCTestCase {
    /// A shape layer with `path` (SVG data) in a `width` x `height` frame at the origin.
    func shape(_ path: String, width: CGFloat = 100, height: CGFloat = 40, _ configure: (CAShapeLayer) -> Void = { _ in }) -> CAShapeLayer {
        let l = CAShapeLayer()
        l.frame = CGRect(x: 0, y: 0, width: width, height: height)
        l.path = try! CGPath(svgPathData: path)
        configure(l)
        return l
    }

    /// A stroke-only shape: red, no fill.
    func stroke(_ path: String, width: CGFloat = 100, height: CGFloat = 40, lineWidth: CGFloat, _ configure: (CAShapeLayer) -> Void = { _ in }) -> CAShapeLayer {
        shape(path, width: width, height: height) {
            $0.fillColor = nil
            $0.strokeColor = rgb(255, 0, 0)
            $0.lineWidth = lineWidth
            configure($0)
        }
    }

    func alpha(_ l: CALayer, _ x: Int, _ y: Int, width: Double = 100, height: Double = 40) -> UInt8 {
        renderCPU(l, width: width, height: height).rgba(x, y)[3]
    }

    // MARK: Fill

    /// Two squares turned the same way: nonzero winding fills the inner one (winding 2), even-odd
    /// leaves it empty (winding 2 is even).
    func testFillRules() {
        let rings = "M 0 0 H 40 V 40 H 0 Z M 10 10 H 30 V 30 H 10 Z"
        let nonZero = renderCPU(shape(rings) { $0.fillColor = rgb(255, 0, 0) }, width: 100, height: 40)
        let evenOdd = renderCPU(shape(rings) {
            $0.fillColor = rgb(255, 0, 0)
            $0.fillRule = .evenOdd
        }, width: 100, height: 40)
        XCTAssertEqual(nonZero.rgba(20, 20), [255, 0, 0, 255])
        XCTAssertEqual(evenOdd.rgba(20, 20), [0, 0, 0, 0])
        XCTAssertEqual(nonZero.rgba(5, 5), [255, 0, 0, 255])
        XCTAssertEqual(evenOdd.rgba(5, 5), [255, 0, 0, 255])
        XCTAssertEqual(nonZero.rgba(45, 20), [0, 0, 0, 0])
    }

    /// An edge through the middle of a pixel column covers 8 of its 16 samples: 128.
    func testFillIsAntialiased() {
        let img = renderCPU(shape("M 10.5 0 H 20.5 V 10 H 10.5 Z") { $0.fillColor = rgb(0, 0, 255) }, width: 100, height: 40)
        XCTAssertEqual(img.rgba(10, 5), [0, 0, 128, 128])
        XCTAssertEqual(img.rgba(15, 5), [0, 0, 255, 255])
        XCTAssertEqual(img.rgba(20, 5), [0, 0, 128, 128])
    }

    /// Core Animation does not clip a shape to its bounds.
    func testShapeOverflowsBounds() {
        let l = shape("M -10 -10 H -5 V -5 H -10 Z") { $0.fillColor = rgb(0, 255, 0) }
        l.frame = CGRect(x: 20, y: 20, width: 10, height: 10)
        XCTAssertEqual(renderCPU(l, width: 100, height: 40).rgba(12, 12), [0, 255, 0, 255])
    }

    /// A shape 1e300 points (or 1e19, beyond Int's range of pixels) from the bounds draws
    /// nothing that can be seen, and does not trap.
    func testShapeFarBeyondIntsRangeIsNotDrawn() {
        for far in ["M 1e300 0 h 10 v 10 h -10 Z", "M 0 -1e19 h 10 v 10 h -10 Z"] {
            let l = shape(far) {
                $0.fillColor = rgb(255, 0, 0)
                $0.strokeColor = rgb(0, 0, 255)
            }
            XCTAssertTrue(renderCPU(l, width: 100, height: 40).pixels.allSatisfy { $0 == 0 }, far)
        }
    }

    /// The stroke is drawn over the fill: a pixel on the outline has the stroke colour.
    func testStrokeOverFill() {
        let l = shape("M 10 10 H 30 V 30 H 10 Z") {
            $0.fillColor = rgb(0, 0, 255)
            $0.strokeColor = rgb(255, 0, 0)
            $0.lineWidth = 4
        }
        let img = renderCPU(l, width: 100, height: 40)
        XCTAssertEqual(img.rgba(10, 20), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(20, 20), [0, 0, 255, 255])
        XCTAssertEqual(img.rgba(7, 20), [0, 0, 0, 0])   // 2 pt outside the edge: past the stroke
    }

    // MARK: Caps

    /// A line from (20, 20) to (60, 20), 10 wide. Pixel (17, 20) lies 2.5 before the start:
    /// inside a round or square cap (radius/extension 5), outside a butt end. Pixel (15, 16)
    /// lies in the square cap's corner, 5.7 from the end point: outside the round cap.
    func testLineCaps() {
        let path = "M 20 20 L 60 20"
        let butt = stroke(path, lineWidth: 10) { $0.lineCap = .butt }
        let round = stroke(path, lineWidth: 10) { $0.lineCap = .round }
        let square = stroke(path, lineWidth: 10) { $0.lineCap = .square }
        XCTAssertEqual(alpha(butt, 17, 20), 0)
        XCTAssertEqual(alpha(round, 17, 20), 255)
        XCTAssertEqual(alpha(square, 17, 20), 255)
        XCTAssertEqual(alpha(butt, 15, 16), 0)
        XCTAssertEqual(alpha(round, 15, 16), 0)
        XCTAssertEqual(alpha(square, 15, 16), 255)
        // Round: 5 beyond the end at most; pixel 14 (centre 5.5 before the start) is empty.
        XCTAssertEqual(alpha(round, 14, 20), 0)
        XCTAssertEqual(alpha(round, 65, 20), 0)
        XCTAssertEqual(alpha(round, 62, 20), 255)
        // Butt: the stroke ends exactly at the end point.
        XCTAssertEqual(alpha(butt, 20, 20), 255)
        XCTAssertEqual(alpha(butt, 19, 20), 0)
        XCTAssertEqual(alpha(butt, 59, 20), 255)
        XCTAssertEqual(alpha(butt, 60, 20), 0)
    }

    // MARK: Joins

    /// A right-angled corner at (20, 20), 10 wide: the outer corner square [15, 20]² is all
    /// miter; a round join covers only within 5 of the corner point, so pixel (15, 15), 5.66
    /// away at its nearest, stays empty; a bevel cuts along x + y = 35, so (15, 15) and
    /// (16, 16) are outside it and (18, 18) inside.
    func testLineJoins() {
        let path = "M 20 35 L 20 20 L 35 20"
        let miter = stroke(path, lineWidth: 10) { $0.lineJoin = .miter }
        let round = stroke(path, lineWidth: 10) { $0.lineJoin = .round }
        let bevel = stroke(path, lineWidth: 10) { $0.lineJoin = .bevel }
        XCTAssertEqual(alpha(miter, 15, 15), 255)
        XCTAssertEqual(alpha(round, 15, 15), 0)
        XCTAssertEqual(alpha(bevel, 15, 15), 0)
        XCTAssertEqual(alpha(round, 17, 17), 255)
        XCTAssertEqual(alpha(bevel, 16, 16), 0)
        XCTAssertEqual(alpha(bevel, 18, 18), 255)
        // Pixel (17, 17) spans x + y from 34 to 36: the bevel's diagonal halves it. Its four
        // sample rows (y 17.125 … 17.875) are inside from x = 35 − y to 18, for 0.125, 0.375,
        // 0.625 and 0.875: a mean of 0.5, and 255 · 0.5 + 0.5 = 128.
        XCTAssertEqual(alpha(bevel, 17, 17), 128)
    }

    /// The corner at (60, 20) between segments from (10, 10) and to (10, 30) has an interior
    /// angle of 2·atan(10/50) = 22.6°: its miter is 1 / sin(11.3°) = 5.10 line widths long,
    /// reaching 10.2 past the corner at line width 4. A limit of 5.2 keeps it, 5 bevels it.
    func testMiterLimit() {
        let path = "M 10 10 L 60 20 L 10 30"
        let kept = stroke(path, lineWidth: 4) { $0.miterLimit = 5.2 }
        let cut = stroke(path, lineWidth: 4) { $0.miterLimit = 5 }
        let defaultLimit = stroke(path, lineWidth: 4)
        XCTAssertGreaterThan(alpha(kept, 66, 19), 100)
        XCTAssertGreaterThan(alpha(defaultLimit, 66, 19), 100)
        XCTAssertEqual(alpha(cut, 66, 19), 0)
        XCTAssertEqual(alpha(cut, 62, 19), 0)
    }

    // MARK: Dashes

    /// Dashes of 10 and gaps of 10 along a horizontal line: ink on [0, 10], [20, 30], …; a
    /// phase of 5 starts half way into the first dash: ink on [0, 5], [15, 25], ….
    func testDashPatternAndPhase() {
        let path = "M 0 10 L 100 10"
        let plain = renderCPU(stroke(path, lineWidth: 4) { $0.lineDashPattern = [10, 10] }, width: 100, height: 40)
        XCTAssertEqual(plain.rgba(5, 10)[3], 255)
        XCTAssertEqual(plain.rgba(15, 10)[3], 0)
        XCTAssertEqual(plain.rgba(25, 10)[3], 255)
        XCTAssertEqual(plain.rgba(95, 10)[3], 0)
        let phased = renderCPU(stroke(path, lineWidth: 4) {
            $0.lineDashPattern = [10, 10]
            $0.lineDashPhase = 5
        }, width: 100, height: 40)
        XCTAssertEqual(phased.rgba(2, 10)[3], 255)
        XCTAssertEqual(phased.rgba(7, 10)[3], 0)
        XCTAssertEqual(phased.rgba(12, 10)[3], 0)
        XCTAssertEqual(phased.rgba(17, 10)[3], 255)
        // An odd pattern repeats: [10] is [10, 10].
        let odd = renderCPU(stroke(path, lineWidth: 4) { $0.lineDashPattern = [10] }, width: 100, height: 40)
        XCTAssertEqual(odd, plain)
    }

    /// Zero-length dashes with round caps are dots of the line width: [0, 20] puts dots of
    /// radius 3 at x = 0, 20, 40, ….
    func testZeroLengthDashesAreDots() {
        let img = renderCPU(stroke("M 0 10 L 100 10", lineWidth: 6) {
            $0.lineDashPattern = [0, 20]
            $0.lineCap = .round
        },
                            width: 100, height: 40)
        XCTAssertEqual(img.rgba(20, 10)[3], 255)
        XCTAssertEqual(img.rgba(40, 9)[3], 255)
        XCTAssertEqual(img.rgba(30, 10)[3], 0)
        XCTAssertEqual(img.rgba(24, 10)[3], 0)
        let butt = renderCPU(stroke("M 0 10 L 100 10", lineWidth: 6) { $0.lineDashPattern = [0, 20] }, width: 100, height: 40)
        XCTAssertEqual(butt.rgba(20, 10)[3], 0)
    }

    // MARK: strokeStart / strokeEnd

    /// strokeEnd 0.5 stops half way along the path; strokeStart 0.25 starts a quarter in.
    func testStrokeStartAndEnd() {
        let path = "M 0 10 L 100 10"
        let half = renderCPU(stroke(path, lineWidth: 4) { $0.strokeEnd = 0.5 }, width: 100, height: 40)
        XCTAssertEqual(half.rgba(49, 10)[3], 255)
        XCTAssertEqual(half.rgba(50, 10)[3], 0)
        let middle = renderCPU(stroke(path, lineWidth: 4) {
            $0.strokeStart = 0.25
            $0.strokeEnd = 0.75
        }, width: 100, height: 40)
        XCTAssertEqual(middle.rgba(24, 10)[3], 0)
        XCTAssertEqual(middle.rgba(25, 10)[3], 255)
        XCTAssertEqual(middle.rgba(74, 10)[3], 255)
        XCTAssertEqual(middle.rgba(75, 10)[3], 0)
        let none = renderCPU(stroke(path, lineWidth: 4) {
            $0.strokeStart = 0.6
            $0.strokeEnd = 0.6
        }, width: 100, height: 40)
        XCTAssertEqual(none, Bitmap(width: 100, height: 40))
    }

    /// The fractions are of the whole path's length across subpaths: two 50-long subpaths,
    /// strokeEnd 0.75 draws all of the first and half of the second.
    func testStrokeEndSpansSubpaths() {
        let img = renderCPU(stroke("M 0 10 L 50 10 M 0 30 L 50 30", lineWidth: 4) { $0.strokeEnd = 0.75 }, width: 100, height: 40)
        XCTAssertEqual(img.rgba(45, 10)[3], 255)
        XCTAssertEqual(img.rgba(20, 30)[3], 255)
        XCTAssertEqual(img.rgba(30, 30)[3], 0)
    }

    /// An ellipse path starts at the top and runs clockwise on screen: strokeEnd 0.5 draws the
    /// right half, the left stays empty.
    func testStrokeEndOnEllipse() {
        let l = CAShapeLayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80))
        l.fillColor = nil
        l.strokeColor = rgb(255, 0, 0)
        l.lineWidth = 6
        l.strokeEnd = 0.5
        let img = renderCPU(l, width: 100, height: 100)
        XCTAssertEqual(img.rgba(89, 50)[3], 255)
        XCTAssertEqual(img.rgba(10, 50)[3], 0)
        XCTAssertEqual(img.rgba(55, 89)[3], 255)
    }

    // MARK: Scale

    /// At contentsScale 2 on a scale-2 canvas the edge at x = 10 pt falls between pixels 19
    /// and 20 and stays sharp; at contentsScale 1 the 1x image is magnified and pixel 19 is a
    /// quarter covered (its centre maps a quarter texel into the filled texel).
    func testContentsScaleKeepsEdgesCrisp() {
        func render(_ contentsScale: CGFloat) -> Bitmap {
            let l = shape("M 10 0 H 20 V 10 H 10 Z") {
                $0.fillColor = rgb(0, 0, 0)
                $0.contentsScale = contentsScale
            }
            return renderCPU(l, width: 100, height: 40, scale: 2)
        }
        let crisp = render(2), blurry = render(1)
        XCTAssertEqual(crisp.rgba(19, 10)[3], 0)
        XCTAssertEqual(crisp.rgba(20, 10)[3], 255)
        XCTAssertEqual(Double(blurry.rgba(19, 10)[3]), 64, accuracy: 1)
    }
}
