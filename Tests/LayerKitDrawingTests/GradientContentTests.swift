import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// CAGradientLayer drawing through the whole pipeline, against the gradient formulas evaluated
/// by hand at pixel centres. The layer fills a 100 x 100 canvas at scale 1.
final class GradientContentTests: XCTestCase {
    func gradient(_ colors: [CGColor], type: CAGradientLayerType = .axial, locations: [CGFloat]? = nil,
                  start: CGPoint = CGPoint(x: 0.5, y: 0), end: CGPoint = CGPoint(x: 0.5, y: 1),
                  width: CGFloat = 100, height: CGFloat = 100) -> Bitmap {
        let l = CAGradientLayer()
        l.frame = CGRect(x: 0, y: 0, width: width, height: height)
        l.type = type
        l.colors = colors
        l.locations = locations?.map { NSNumber(value: Double($0)) }
        l.startPoint = start
        l.endPoint = end
        return renderCPU(l, width: Double(width), height: Double(height))
    }

    /// 8 bits of a 0…1 value, rounded.
    func byte(_ v: Double) -> Int { Int((v * 255).rounded()) }

    func assertClose(_ px: [UInt8], _ expected: [Int], tolerance: Int = 1, _ message: String = "", line: UInt = #line) {
        for i in 0..<4 {
            XCTAssertLessThanOrEqual(abs(Int(px[i]) - expected[i]), tolerance, "\(message) \(px) vs \(expected)", line: line)
        }
    }

    /// The default axial gradient runs down the layer: row j's centre is t = (j + 0.5) / 100.
    func testAxialDefaultRunsTopToBottom() {
        let img = gradient([rgb(255, 0, 0), rgb(0, 0, 255)])
        for j in [0, 25, 49, 50, 99] {
            let t = (Double(j) + 0.5) / 100
            assertClose(img.rgba(37, j), [byte(1 - t), 0, byte(t), 255], "row \(j)")
        }
        // Constant across.
        XCTAssertEqual(img.rgba(0, 40), img.rgba(99, 40))
    }

    /// Locations move the stops: with [0, 0.8] everything past 80 % is the last colour, and
    /// before that t is divided by 0.8. Beyond the end points colours are clamped.
    func testAxialLocationsAndClamping() {
        let img = gradient([rgb(0, 0, 0), rgb(255, 255, 255)], locations: [0, 0.8],
                           start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5))
        XCTAssertEqual(img.rgba(85, 10), [255, 255, 255, 255])
        let t = 40.5 / 100 / 0.8
        assertClose(img.rgba(40, 10), [byte(t), byte(t), byte(t), 255])
        let clamped = gradient([rgb(255, 0, 0), rgb(0, 0, 255)], start: CGPoint(x: 0.5, y: 0.25), end: CGPoint(x: 0.5, y: 0.75))
        XCTAssertEqual(clamped.rgba(50, 10), [255, 0, 0, 255])
        XCTAssertEqual(clamped.rgba(50, 90), [0, 0, 255, 255])
        // Three colours without locations sit at 0, 0.5 and 1.
        let three = gradient([rgb(255, 0, 0), rgb(0, 255, 0), rgb(0, 0, 255)])
        assertClose(three.rgba(50, 49), [byte(0.01), byte(0.99), 0, 255])
    }

    /// Start and end points are unit coordinates mapped onto the bounds: on a 200 x 100 layer
    /// the diagonal (0, 0) → (1, 1) is the vector (200, 100), and t at (x, y) is
    /// (200x + 100y) / 50 000.
    func testAxialPointsAreInBoundsSpace() {
        let img = gradient([rgb(0, 0, 0), rgb(255, 255, 255)], start: .zero, end: CGPoint(x: 1, y: 1), width: 200, height: 100)
        for (x, y) in [(150, 10), (20, 80), (100, 50)] {
            let t = (200 * (Double(x) + 0.5) + 100 * (Double(y) + 0.5)) / 50_000
            assertClose(img.rgba(x, y), [byte(t), byte(t), byte(t), 255], "(\(x), \(y))")
        }
    }

    /// Colours are interpolated premultiplied: half way from transparent red to opaque blue is
    /// half-transparent blue with no red at all.
    func testInterpolationIsPremultiplied() {
        let img = gradient([CGColor(red: 1, green: 0, blue: 0, alpha: 0), rgb(0, 0, 255)])
        let t = 49.5 / 100
        assertClose(img.rgba(50, 49), [0, 0, byte(t), byte(t)])
    }

    /// Radial: centre at the start point, radii (end − start) in x and y; t is the elliptical
    /// distance. Centre 50, 50, radii 50 and 25.
    func testRadial() {
        let img = gradient([rgb(255, 255, 255), rgb(0, 0, 0)], type: .radial, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.75))
        for (x, y) in [(50, 50), (90, 50), (50, 60), (70, 40)] {
            let dx = (Double(x) + 0.5 - 50) / 50, dy = (Double(y) + 0.5 - 50) / 25
            let t = min((dx * dx + dy * dy).squareRoot(), 1)
            assertClose(img.rgba(x, y), [byte(1 - t), byte(1 - t), byte(1 - t), 255], "(\(x), \(y))")
        }
        XCTAssertEqual(img.rgba(50, 80), [0, 0, 0, 255])   // outside the ellipse: the last colour
        XCTAssertEqual(img.rgba(0, 0), [0, 0, 0, 255])
    }

    /// Conic: the angle about the start point from the direction of the end point, growing
    /// clockwise on screen. Towards the right: just below the ray t is near 0, just above near
    /// 1; straight down is a quarter turn, straight left a half.
    func testConicStartsTowardsEndPointClockwise() {
        let img = gradient([rgb(0, 0, 0), rgb(255, 255, 255)], type: .conic, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.5))
        func expected(_ x: Int, _ y: Int) -> Int {
            var a = atan2(Double(y) + 0.5 - 50, Double(x) + 0.5 - 50)
            if a < 0 { a += 2 * .pi }
            return byte(a / (2 * .pi))
        }
        for (x, y) in [(90, 52), (90, 47), (50, 90), (10, 50), (50, 10), (20, 20)] {
            let e = expected(x, y)
            assertClose(img.rgba(x, y), [e, e, e, 255], "(\(x), \(y))")
        }
        XCTAssertLessThan(img.rgba(90, 52)[0], 20)
        XCTAssertGreaterThan(img.rgba(90, 47)[0], 235)
        // Starting towards the top instead moves the dark side to just right of straight up.
        let up = gradient([rgb(0, 0, 0), rgb(255, 255, 255)], type: .conic, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 0.5, y: 0))
        XCTAssertLessThan(up.rgba(52, 10)[0], 20)
        XCTAssertGreaterThan(up.rgba(47, 10)[0], 235)
    }

    /// Without colours a gradient layer draws nothing; one colour fills the bounds.
    func testNoColoursAndOneColour() {
        XCTAssertEqual(gradient([]), Bitmap(width: 100, height: 100))
        let one = gradient([rgb(10, 20, 30)])
        XCTAssertEqual(one.rgba(3, 97), [10, 20, 30, 255])
    }
}
