import CPURenderer
import Foundation
import LayerKitCore
import XCTest

/// `render(in:)` draws the model tree, "ignoring any animations" (Apple); the presentation
/// layer's `render(in:)` draws the tree as it is on screen at that time.
final class RenderModelTreeTests: XCTestCase {
    /// An 8 x 4 root with a 4 x 4 red sublayer at x 0…4 whose position.x animates 2 → 10
    /// (linear, 1 s from layer time 10): at 10.5 it is at 6, x 4…8.
    private func movingSquare() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 4)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(square)
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 2
        a.toValue = 10
        a.duration = 1
        a.beginTime = 10
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        square.add(a, forKey: "move")
        return root
    }

    private func pixels(_ layer: CALayer) -> [[UInt8]] {
        let ctx = CGContext(data: nil, width: 8, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: ctx)
        let image = ctx.makeImage()!
        return (0..<8).map { x in
            let p = image.bitmap[x, 2]
            return [p.r, p.g, p.b, p.a]
        }
    }

    func testModelTreeIgnoresAnimations() {
        let red: [UInt8] = [255, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
        let root = movingSquare()
        XCTAssertEqual(pixels(root), [red, red, red, red, clear, clear, clear, clear])
        XCTAssertEqual(pixels(root.presentation(atTime: 10.5)), [clear, clear, clear, clear, red, red, red, red])
        // Before the animation begins (no fill backwards) the presentation is the model.
        XCTAssertEqual(pixels(root.presentation(atTime: 9)), [red, red, red, red, clear, clear, clear, clear])
    }
}
