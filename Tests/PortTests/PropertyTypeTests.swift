import QuartzCore
import XCTest

/// Typed layers' list properties with Apple's types, assigned as iOS code assigns them.
final class PropertyTypeTests: XCTestCase {
    func testGradientAndDashListsTakeApplesLiterals() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let gradient = CAGradientLayer()
        gradient.colors = [red, blue]
        gradient.locations = [0, 0.5, 1]
        XCTAssertEqual(gradient.colors as? [CGColor], [red, blue])
        XCTAssertEqual(gradient.locations, [0, 0.5, 1])
        XCTAssertEqual(gradient.locations?.map(\.doubleValue), [0, 0.5, 1])
        let shape = CAShapeLayer()
        shape.lineDashPattern = [4, 2]
        XCTAssertEqual(shape.lineDashPattern?.map(\.doubleValue), [4, 2])
        shape.lineDashPattern = nil
        XCTAssertNil(shape.lineDashPattern)
    }

    func testAGradientColourThatIsNotACGColorIsRefused() {
        var errors: [CAValueTypeError] = []
        let saved = valueTypeErrorHandler
        valueTypeErrorHandler = { errors.append($0) }
        defer { valueTypeErrorHandler = saved }
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let gradient = CAGradientLayer()
        gradient.colors = [red, red]
        gradient.colors = [red, "blue"]
        XCTAssertEqual(gradient.colors as? [CGColor], [red, red], "unchanged")
        XCTAssertEqual(errors.map(\.description),
                       ["CAGradientLayer.colors for key path \"colors\" is an array with String, but it takes an array of CGColor; refused"])
    }

    /// The gradient drawn from Apple's types: red at the left, blue at the right of a 2 × 1
    /// layer (locations 0 and 1: the column centres at 1/4 and 3/4 mix 75 % and 25 %).
    func testGradientDrawsFromApplesTypes() {
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 0, y: 0, width: 2, height: 1)
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.locations = [0, 1]
        let ctx = CGContext(data: nil, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        gradient.render(in: ctx)
        let image = ctx.makeImage()!
        let left = image.bitmap[0, 0], right = image.bitmap[1, 0]
        XCTAssertEqual(Double(left.r), 0.75 * 255, accuracy: 3)
        XCTAssertEqual(Double(left.b), 0.25 * 255, accuracy: 3)
        XCTAssertEqual(Double(right.r), 0.25 * 255, accuracy: 3)
        XCTAssertEqual(Double(right.b), 0.75 * 255, accuracy: 3)
    }
}
