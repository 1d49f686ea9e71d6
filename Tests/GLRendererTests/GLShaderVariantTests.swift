@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Which shader variant a quad asks for, from what it needs alone.
final class GLShaderVariantTests: XCTestCase {
    /// A layer turned about z (or only moved) has an affine plane map, w exactly 1: no
    /// `.perspective`, so its draw skips the per-pixel divide; a layer turned about y under a
    /// perspective has a projective one and asks for it. The define follows the feature.
    func testOnlyProjectiveMapsAskForThePerspectiveDivide() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        func leaf(_ x: Double, _ transform: CATransform3D) {
            let l = CALayer()
            l.frame = CGRect(x: x, y: 20, width: 40, height: 40)
            l.backgroundColor = rgb(255, 0, 0)
            l.transform = transform
            root.addSublayer(l)
        }
        leaf(10, CATransform3DIdentity)
        leaf(70, CATransform3DMakeRotation(0.5, 0, 0, 1))
        var tilted = CATransform3DIdentity
        tilted.m34 = -1.0 / 500
        leaf(130, CATransform3DRotate(tilted, 0.6, 0, 1, 0))
        let list = displayList(root, width: 200, height: 100)
        let features = GLRenderer.frameData(list, canvas: (200, 100), es: false) { _ in (1, 1) }.features
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[0], [.color])
        XCTAssertEqual(features[1].map { $0.contains(.perspective) }, false)
        XCTAssertEqual(features[2].map { $0.contains(.perspective) }, true)
        XCTAssertFalse(ShaderFeatures([.color]).defines(es: false).contains("LK_PERSPECTIVE"))
        XCTAssertTrue(ShaderFeatures([.color, .perspective]).defines(es: false).contains("#define LK_PERSPECTIVE 1\n"))
    }
}
