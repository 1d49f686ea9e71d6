import QuartzCore
import XCTest

/// `render(in:)` as iOS code uses it: the model layer renders its model values ("ignoring any
/// animations"), its `presentation()` what is on screen.
final class PortRenderInContextTests: XCTestCase {
    func testPresentationRendersTheAnimatedTree() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 4)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        square.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(square)
        // Ended 9 s ago and held: on screen the square is at x 4…8.
        let move = CABasicAnimation(keyPath: "position.x")
        move.toValue = 6
        move.duration = 1
        move.beginTime = CACurrentMediaTime() - 10
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        square.add(move, forKey: "move")
        func row(_ layer: CALayer?) -> [UInt8] {
            let context = CGContext(data: nil, width: 8, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                                    space: CGColorSpaceCreateDeviceRGB(),
                                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            layer?.render(in: context)
            let image = context.makeImage()!
            return (0..<8).map { image.bitmap[$0, 1].a }
        }
        XCTAssertEqual(row(root), [255, 255, 255, 255, 0, 0, 0, 0])
        XCTAssertEqual(row(root.presentation()), [0, 0, 0, 0, 255, 255, 255, 255])
    }
}
