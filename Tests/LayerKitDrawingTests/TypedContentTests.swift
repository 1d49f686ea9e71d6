@testable import LayerKitDrawing
import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// What all typed layers share: rasterizations are cached, and images stay within
/// `TypedContent.maxImageSide` however large the layer.
final class TypedContentTests: XCTestCase {
    func render(_ l: CALayer, scale: Double = 1) -> (image: CGImage, rect: CGRect)? {
        l.snapshotKind.drawing.flatMap { TypedContent.render($0, bounds: l.bounds, scale: scale) }
    }

    /// An unchanged layer is not rasterized again: the same image comes back (and backends
    /// keep their texture); a changed property gives a new one.
    func testRasterizationIsCached() throws {
        let l = CAShapeLayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 40)
        l.path = CGPath(rect: CGRect(x: 10, y: 10, width: 20, height: 20))
        let first = try XCTUnwrap(render(l))
        XCTAssertTrue(first.image === render(l)?.image)
        l.lineWidth = 5
        l.strokeColor = rgb(255, 0, 0)
        XCTAssertFalse(first.image === render(l)?.image)
        l.lineWidth = 1
        l.strokeColor = nil
        XCTAssertTrue(first.image === render(l)?.image)
    }

    /// A shape's image covers what it draws (a 20 pt square plus a pixel of margin), on whole
    /// pixels from the bounds' origin, wherever that is.
    func testShapeImageCoversTheShape() throws {
        let l = CAShapeLayer()
        l.bounds = CGRect(x: 5, y: 5, width: 10, height: 10)
        l.path = CGPath(rect: CGRect(x: 10, y: 10, width: 20, height: 20))
        let (image, rect) = try XCTUnwrap(render(l, scale: 2))
        XCTAssertEqual(rect, CGRect(x: 9.5, y: 9.5, width: 21, height: 21))
        XCTAssertEqual(image.width, 42)
    }

    /// Layers far larger than any texture are drawn at a lower scale, not allocated unbounded.
    func testHugeLayersStayWithinTheImageLimit() throws {
        let limit = Int(TypedContent.maxImageSide) + 3
        let shape = CAShapeLayer()
        shape.path = try CGPath(svgPathData: "M 0 0 L 1000000 0")
        shape.strokeColor = rgb(0, 0, 0)
        shape.lineWidth = 100
        let s = try XCTUnwrap(render(shape))
        XCTAssertLessThanOrEqual(max(s.image.width, s.image.height), limit)
        XCTAssertGreaterThanOrEqual(s.rect.width, 1e6)

        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 0, y: 0, width: 1e6, height: 10)
        gradient.colors = [rgb(0, 0, 0), rgb(255, 255, 255)]
        let g = try XCTUnwrap(render(gradient, scale: 2))
        XCTAssertLessThanOrEqual(max(g.image.width, g.image.height), limit)
        XCTAssertEqual(g.rect, gradient.bounds)

        let text = CATextLayer()
        text.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        text.string = "Huge"
        text.fontSize = 1e6
        let t = try XCTUnwrap(render(text))
        XCTAssertLessThanOrEqual(max(t.image.width, t.image.height), limit)
    }
}
