import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Fractions out of 0…1 are stored as given (Core Animation's setters) and clamped when drawn:
/// an opacity of 2 draws as 1, −1 as 0; a shadowOpacity of 3 as 1; strokeStart −1 and strokeEnd
/// 3 stroke the whole path. Pixels by hand: opaque red is (255, 0, 0, 255).
final class OutOfRangeFractionTests: XCTestCase {
    private let red = rgb(255, 0, 0)

    func testOpacityOverOneDrawsAsOneAndBelowZeroAsZero() {
        let l = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), red)
        l.opacity = 2
        XCTAssertEqual(renderCPU(l, width: 40, height: 40).rgba(20, 20), [255, 0, 0, 255])
        guard case .quads(let quads) = displayList(l, width: 40, height: 40).passes[0].content else { return XCTFail("quads") }
        XCTAssertEqual(quads.map(\.opacity), [1], "the quad carries the clamped opacity")
        l.opacity = -1
        XCTAssertEqual(renderCPU(l, width: 40, height: 40).rgba(20, 20), [0, 0, 0, 0])
        // Written to the properties directly, the same.
        l.properties.opacity = 3
        XCTAssertEqual(renderCPU(l, width: 40, height: 40).rgba(20, 20), [255, 0, 0, 255])
    }

    /// A layer with a sublayer and opacity 1.5 is opaque: no group pass, the quads at opacity 1.
    func testGroupOpacityOverOneIsNoGroup() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 40, height: 40), red)
        l.addSublayer(solidLayer(CGRect(x: 10, y: 10, width: 10, height: 10), rgb(0, 0, 255)))
        l.opacity = 1.5
        let list = displayList(l, width: 40, height: 40)
        XCTAssertEqual(list.passes.count, 1)
        guard case .quads(let quads) = list.passes[0].content else { return XCTFail("canvas has quads") }
        XCTAssertEqual(quads.map(\.opacity), [1, 1])
    }

    /// shadowOpacity 3 casts the shadow at full strength: the black shadow (radius 0, offset
    /// (0, 20)) shows below the 20x20 layer.
    func testShadowOpacityOverOneDrawsAsOne() {
        let l = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), red)
        l.shadowRadius = 0
        l.shadowOffset = CGSize(width: 0, height: 20)
        l.shadowOpacity = 3
        let image = renderCPU(l, width: 40, height: 60)
        XCTAssertEqual(image.rgba(20, 45), [0, 0, 0, 255])
        XCTAssertEqual(image.rgba(20, 20), [255, 0, 0, 255])
    }

    /// strokeStart −1 and strokeEnd 3 stroke what 0 and 1 stroke.
    func testStrokeRangeOutsideZeroToOneStrokesTheWholePath() {
        func stroked(_ start: CGFloat, _ end: CGFloat) -> Bitmap {
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            s.path = CGPath(rect: CGRect(x: 5, y: 5, width: 30, height: 30))
            s.fillColor = nil
            s.strokeColor = red
            s.lineWidth = 4
            s.strokeStart = start
            s.strokeEnd = end
            return renderCPU(s, width: 40, height: 40)
        }
        let whole = stroked(0, 1)
        XCTAssertEqual(whole.rgba(20, 5), [255, 0, 0, 255])
        XCTAssertEqual(whole.rgba(5, 20), [255, 0, 0, 255])
        XCTAssertEqual(stroked(-1, 3), whole)
        XCTAssertEqual(stroked(0, 0.5).rgba(5, 20), [0, 0, 0, 0], "half a path leaves the left side")
    }
}
