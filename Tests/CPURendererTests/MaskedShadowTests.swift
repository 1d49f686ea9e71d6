import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A mask masks everything its layer draws, the shadow included, and the shadow is cast by
/// what the layer draws before the mask (Core Animation: the "shadow on one side" and "inner
/// shadow" tricks depend on both). Pixels by hand: opaque red (255, 0, 0, 255), shadow black.
final class MaskedShadowTests: XCTestCase {
    private func maskLayer(_ frame: CGRect) -> CALayer { solidLayer(frame, rgb(0, 0, 0)) }

    /// 100x100 red, shadow 20 pt down with no blur, mask on the top half: the top half is red,
    /// and below the mask nothing at all (no black band from y = 100 to 120).
    func testMaskClipsTheLayersOwnShadow() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), rgb(255, 0, 0))
        l.shadowOffset = CGSize(width: 0, height: 20)
        l.shadowRadius = 0
        l.shadowOpacity = 1
        l.mask = maskLayer(CGRect(x: 0, y: 0, width: 100, height: 50))
        let image = renderCPU(l, width: 100, height: 140)
        for y in [0, 25, 49] { XCTAssertEqual(image.rgba(50, y), [255, 0, 0, 255], "y \(y)") }
        for y in [50, 60, 99, 100, 110, 119, 130] { XCTAssertEqual(image.rgba(50, y), [0, 0, 0, 0], "y \(y)") }
    }

    /// The shadow comes from the unmasked drawing: a red square on the left casts its shadow
    /// 50 pt right; a mask on the right half hides the square and shows its shadow.
    func testShadowIsCastByTheUnmaskedLayer() {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 50, height: 50), rgb(255, 0, 0)))
        l.shadowOffset = CGSize(width: 50, height: 0)
        l.shadowRadius = 0
        l.shadowOpacity = 1
        l.mask = maskLayer(CGRect(x: 50, y: 0, width: 50, height: 100))
        let image = renderCPU(l, width: 100, height: 100)
        XCTAssertEqual(image.rgba(25, 25), [0, 0, 0, 0], "the square is masked away")
        XCTAssertEqual(image.rgba(75, 25), [0, 0, 0, 255], "its shadow shows through the mask")
        XCTAssertEqual(image.rgba(75, 75), [0, 0, 0, 0])
    }

    /// Half a mask's alpha halves shadow and layer alike: over the shadow alone, black at
    /// alpha 128 (0.5 · 255 rounded to nearest).
    func testTranslucentMaskScalesTheShadow() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), rgb(255, 0, 0))
        l.shadowOffset = CGSize(width: 0, height: 20)
        l.shadowRadius = 0
        l.shadowOpacity = 1
        l.mask = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 140), rgb(0, 0, 0, 0.5))
        let image = renderCPU(l, width: 100, height: 140)
        XCTAssertEqual(image.rgba(50, 110), [0, 0, 0, 128])
        XCTAssertEqual(image.rgba(50, 50), [128, 0, 0, 128])
    }

    /// A shadowPath larger than the layer casts its whole shadow (Core Animation draws the
    /// path's shadow wherever it reaches): a red 40x30 layer with the path (0, 0, 100, 100), no
    /// blur, no offset: black at (20, 50) and (99, 99), below and right of the layer, and
    /// nothing past the path.
    func testAShadowPathBeyondTheLayerIsDrawnWhole() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 40, height: 30), rgb(255, 0, 0))
        l.shadowOffset = .zero
        l.shadowRadius = 0
        l.shadowOpacity = 1
        l.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        let image = renderCPU(l, width: 120, height: 120)
        XCTAssertEqual(image.rgba(20, 15), [255, 0, 0, 255])
        for (x, y) in [(20, 50), (60, 10), (99, 99)] { XCTAssertEqual(image.rgba(x, y), [0, 0, 0, 255], "(\(x), \(y))") }
        XCTAssertEqual(image.rgba(100, 50), [0, 0, 0, 0])
    }
}
