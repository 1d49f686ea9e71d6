import QuartzCore
import XCTest

/// A file as an iOS project has it: `import QuartzCore` alone reaches the layer model, Core
/// Graphics' types and `render(in:)`.
final class ImportTests: XCTestCase {
    func testQuartzCoreAloneRendersALayerIntoAContext() {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let context = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: context)
        let image = context.makeImage()!
        XCTAssertEqual(image.width, 4)
        let p = image.bitmap[2, 2]
        XCTAssertEqual([p.r, p.g, p.b, p.a], [255, 0, 0, 255])
    }
}
