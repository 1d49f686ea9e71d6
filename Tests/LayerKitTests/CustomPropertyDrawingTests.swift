import XCTest
@testable import LayerKitCore

/// How an animated custom key that needs display is drawn into the presentation tree: by a
/// presentation copy of the layer's class, only on frames where the key's value changed.
final class CustomPropertyDrawingTests: XCTestCase {
    final class BarLayer: CALayer {
        nonisolated(unsafe) static var draws: [CGFloat] = []
        override class func needsDisplay(forKey key: String) -> Bool { key == "progress" }
        override func draw(in ctx: CGContext) {
            let progress = value(forKey: "progress") as? CGFloat ?? 0
            BarLayer.draws.append(progress)
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
        }
    }

    override func setUp() {
        super.setUp()
        BarLayer.draws = []
    }

    /// A 10 × 1 bar animating "progress" 0 → 1 linearly over media time 10…11, filled forwards.
    private func animatedBar(keyPath: String = "progress") -> BarLayer {
        let layer = BarLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 1)
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = 0
        animation.toValue = 1
        animation.duration = 1
        animation.beginTime = 10
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: nil)
        return layer
    }

    /// Red columns of the single row of `image`.
    private func redColumns(_ image: CGImage?) -> Int {
        guard let image else { return 0 }
        return (0..<image.width).filter { image.bitmap[$0, 0].r > 128 }.count
    }

    func testRedrawnOnlyWhenTheValueChanges() {
        let layer = animatedBar()
        let half = layer.snapshot(atTime: 10.5)
        XCTAssertEqual(BarLayer.draws, [0.5])
        XCTAssertEqual(redColumns(half.properties.contents), 5, "the presentation tree draws the animated value")
        XCTAssertNil(layer.contents, "the model's own contents are untouched")
        _ = layer.snapshot(atTime: 10.5)
        XCTAssertEqual(BarLayer.draws, [0.5], "same value: the last drawing is reused")
        let late = layer.snapshot(atTime: 10.8)
        XCTAssertEqual(BarLayer.draws.count, 2)
        XCTAssertEqual(BarLayer.draws[1], 0.8, accuracy: 1e-12)
        XCTAssertEqual(redColumns(late.properties.contents), 8)
        _ = layer.snapshot(atTime: 12)
        _ = layer.snapshot(atTime: 13)
        XCTAssertEqual(BarLayer.draws.count, 3, "filled at 1 after the end: drawn once, then reused")
        XCTAssertEqual(BarLayer.draws.last, 1)
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 1)
        _ = layer.snapshot(atTime: 13)
        XCTAssertEqual(BarLayer.draws.count, 4, "a new size is drawn again")
    }

    func testAKeyThatDoesNotNeedDisplayDrawsNothing() {
        let layer = animatedBar(keyPath: "tint")
        _ = layer.snapshot(atTime: 10.5)
        _ = layer.snapshot(atTime: 10.7)
        XCTAssertEqual(BarLayer.draws, [])
        XCTAssertEqual(layer.presentation(atTime: 10.5).value(forKey: "tint") as? CGFloat, 0.5)
    }
}
