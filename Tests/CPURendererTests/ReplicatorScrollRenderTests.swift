import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Pixels of replicator and scroll layers drawn by the CPU reference, each worked out by hand
/// (docs/scene-format.md, "Replicator and scroll layers"). Tolerance: one level of 8 bits
/// where a product of fractions lands on a half level.
final class ReplicatorScrollRenderTests: XCTestCase {
    private func assertPixel(_ b: Bitmap, _ x: Int, _ y: Int, _ expected: [Int], tolerance: Int = 1,
                             file: StaticString = #filePath, line: UInt = #line) {
        let p = b.rgba(x, y).map(Int.init)
        XCTAssertTrue(zip(p, expected).allSatisfy { abs($0 - $1) <= tolerance }, "pixel (\(x), \(y)) is \(p), not \(expected)",
                      file: file, line: line)
    }

    /// Three copies of a 10-point red square, 20 points apart, alpha falling by 0.25 a copy, on
    /// white: copy 0 is red; copy 1 red at 0.75 over white, (255, 64, 64) (255 · 0.25 =
    /// 63.75); copy 2 at 0.5, (255, 128, 128) (127.5, either level); between them white.
    func testCopiesFadeOverTheBackground() {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 60, height: 10)
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        r.instanceAlphaOffset = -0.25
        r.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0)))
        let b = renderCPU(r, width: 60, height: 10, background: rgb(255, 255, 255))
        assertPixel(b, 5, 5, [255, 0, 0, 255], tolerance: 0)
        assertPixel(b, 25, 5, [255, 64, 64, 255])
        assertPixel(b, 45, 5, [255, 128, 128, 255])
        assertPixel(b, 15, 5, [255, 255, 255, 255], tolerance: 0)
    }

    /// A mirrored copy (listing 6.9's transform for a 20-point view, about its centre (10, 10)):
    /// rows 22…41 show the view upside down, so the blue bottom half comes first, at alpha 0.4
    /// on black: (0, 0, 102) (255 · 0.39999998 = 101.99999).
    func testMirroredReflection() {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        r.instanceCount = 2
        r.instanceTransform = CATransform3DScale(CATransform3DMakeTranslation(0, 22, 0), 1, -1, 0)
        r.instanceAlphaOffset = -0.6
        r.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 20, height: 10), rgb(255, 0, 0)))
        r.addSublayer(solidLayer(CGRect(x: 0, y: 10, width: 20, height: 10), rgb(0, 0, 255)))
        let b = renderCPU(r, width: 20, height: 44, background: rgb(0, 0, 0))
        assertPixel(b, 10, 5, [255, 0, 0, 255], tolerance: 0)
        assertPixel(b, 10, 21, [0, 0, 0, 255], tolerance: 0)
        assertPixel(b, 10, 25, [0, 0, 102, 255], tolerance: 0)
        assertPixel(b, 10, 38, [102, 0, 0, 255], tolerance: 0)
        assertPixel(b, 10, 43, [0, 0, 0, 255], tolerance: 0)
    }

    /// A 50 × 20 scroll layer with a blue background at the canvas origin, scrolled to (30, 0),
    /// holding a red sublayer at (60, 0, 40, 20): the sublayer shows at 30…70, clipped at 50 by
    /// the scroll layer's default masksToBounds; the background stays put.
    func testScrollLayerMovesItsSublayersAndClips() {
        let s = CAScrollLayer()
        s.frame = CGRect(x: 0, y: 0, width: 50, height: 20)
        s.backgroundColor = rgb(0, 0, 255)
        s.addSublayer(solidLayer(CGRect(x: 60, y: 0, width: 40, height: 20), rgb(255, 0, 0)))
        s.scroll(to: CGPoint(x: 30, y: 0))
        let b = renderCPU(s, width: 100, height: 20, background: rgb(255, 255, 255))
        assertPixel(b, 10, 10, [0, 0, 255, 255], tolerance: 0)
        assertPixel(b, 40, 10, [255, 0, 0, 255], tolerance: 0)
        assertPixel(b, 60, 10, [255, 255, 255, 255], tolerance: 0)
    }
}
