import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `maskedCorners` and `cornerCurve` in the GL shader (its `LK_CONTINUOUS` variant and the
/// corner code of quad and clip records), at the pixels `CornerTests` computes by hand for the
/// CPU reference, and against the reference pixel for pixel.
final class GLCornerTests: XCTestCase {
    /// 200 pt, radius 30, continuous: pixel (26, 0) is 0.512 pt outside the curve (0), (30, 0)
    /// has coverage 0.511 (130), (22, 1) 0.143 (36.5); the circular corner has 202, 255, 255
    /// (see `CornerTests.testContinuousAgainstCircular` for the arithmetic). Tolerance ±2 of
    /// 255 for 32-bit floats against the reference's doubles.
    func testContinuousCornerAtHandComputedPixels() throws {
        let h = try GLHarness()
        for (curve, expected) in [(CALayerCornerCurve.continuous, [0.0, 130, 36.5]), (.circular, [202, 255, 255])] {
            let l = solidLayer(CGRect(x: 0, y: 0, width: 200, height: 200), rgb(255, 255, 255))
            l.cornerRadius = 30
            l.cornerCurve = curve
            let img = try h.renderer.render(displayList(l, width: 200, height: 200))
            for ((x, y), alpha) in zip([(26, 0), (30, 0), (22, 1)], expected) {
                XCTAssertEqual(Double(img.rgba(x, y)[3]), alpha, accuracy: 2, "\(curve.rawValue) at (\(x), \(y))")
                XCTAssertEqual(Double(img.rgba(199 - x, 199 - y)[3]), alpha, accuracy: 2, "\(curve.rawValue) mirrored")
            }
        }
    }

    /// Masked corners of a `masksToBounds` clip under a rotation (a clip record's code) and of a
    /// border, continuous and circular, match the reference.
    func testMaskedClipsAndBordersMatchTheReference() throws {
        let h = try GLHarness()
        for curve in CALayerCornerCurve.allCases {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            let clip = solidLayer(CGRect(x: 40, y: 40, width: 120, height: 120), rgb(255, 255, 255))
            clip.cornerRadius = 36
            clip.cornerCurve = curve
            clip.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
            clip.masksToBounds = true
            clip.borderWidth = 5
            clip.borderColor = rgb(20, 60, 200)
            clip.setAffineTransform(CGAffineTransform(rotationAngle: 0.3))
            clip.addSublayer(solidLayer(CGRect(x: -10, y: -10, width: 140, height: 70), rgb(230, 40, 30)))
            root.addSublayer(clip)
            let list = displayList(root, width: 200, height: 200)
            let (d, cpu, _) = try compareBackends(list, gl: h.renderer, name: "corners-\(curve.rawValue)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(curve.rawValue): \(d)")
            XCTAssertNotEqual(cpu, Bitmap(width: 200, height: 200), "something is drawn")
        }
    }
}
