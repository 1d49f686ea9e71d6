import QuartzCore
import XCTest

/// The "progress ring" pattern of iOS tutorials, as written there (without `@NSManaged`, which
/// needs Objective-C): a property stored by key-value coding, redrawn when it changes, animated
/// with `CABasicAnimation(keyPath: "progress")`.
final class ProgressLayer: CALayer {
    /// How many times any progress layer drew (presentation copies included).
    nonisolated(unsafe) static var draws = 0
    /// A field of the subclass itself, copied by `init(layer:)` as iOS code copies it.
    var barColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressLayer { barColor = other.barColor }
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
    }

    /// Fills the left `progress` of the width with `barColor`.
    override func draw(in ctx: CGContext) {
        ProgressLayer.draws += 1
        ctx.setFillColor(barColor)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
    }
}

/// The tutorial's implicit animation of the custom property: `action(forKey:)` returns one.
final class AnimatedProgressLayer: CALayer {
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }

    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        guard event == "progress" else { return super.action(forKey: event) }
        let animation = CABasicAnimation(keyPath: "progress")
        animation.fromValue = presentation()?.progress ?? progress
        animation.duration = 2
        return animation
    }
}

final class CustomPropertyTests: XCTestCase {
    /// A 100 × 10 progress layer whose time is paused at `time` (Apple's way of scrubbing an
    /// animation: `speed` 0, and `timeOffset` is then the layer's time).
    private func pausedLayer(at time: CFTimeInterval) -> ProgressLayer {
        let layer = ProgressLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        layer.position = CGPoint(x: 50, y: 5)
        layer.speed = 0
        layer.timeOffset = time
        return layer
    }

    /// How many of the 100 pixel columns of row 5 of `layer` rendered are red.
    private func redColumns(_ layer: CALayer) -> Int {
        let ctx = CGContext(data: nil, width: 100, height: 10, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: ctx)
        let image = ctx.makeImage()!
        return (0..<100).filter { image.bitmap[$0, 5].r > 128 && image.bitmap[$0, 5].a > 128 }.count
    }

    func testAnimatedCustomPropertyIsInterpolatedInThePresentationCopyAndDrawn() throws {
        // Layer time 10.3: 0.3 s into a 1 s linear animation from 0.2 to 0.8 begun at 10,
        // so progress = 0.2 + 0.3 · 0.6 = 0.38, and the bar is 38 of 100 points wide.
        let layer = pausedLayer(at: 10.3)
        layer.barColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.progress = 0.8
        let animation = CABasicAnimation(keyPath: "progress")
        animation.fromValue = 0.2
        animation.toValue = 0.8
        animation.duration = 1
        animation.beginTime = 10
        layer.add(animation, forKey: "progress")

        let presentation = try XCTUnwrap(layer.presentation())
        XCTAssertTrue(type(of: presentation) == ProgressLayer.self, "the presentation copy is of the subclass")
        XCTAssertEqual(presentation.progress, 0.38, accuracy: 1e-9)
        XCTAssertEqual(layer.progress, 0.8, "the model keeps its value")
        XCTAssertTrue(presentation.model() === layer)
        XCTAssertEqual(redColumns(presentation), 38)
        XCTAssertEqual(redColumns(layer), 80, "the model draws its own value")
    }

    func testPointsColoursRectsAndTransformsOfCustomKeysInterpolate() throws {
        // Halfway (layer time 10.5 of a 1 s animation begun at 10): a point from (0, 0) to
        // (10, 20) is at (5, 10); a colour from red to blue is (0.5, 0, 0.5, 1).
        let layer = pausedLayer(at: 10.5)
        let move = CABasicAnimation(keyPath: "center")
        move.fromValue = NSValue(cgPoint: .zero)
        move.toValue = NSValue(cgPoint: CGPoint(x: 10, y: 20))
        let tint = CABasicAnimation(keyPath: "tint")
        tint.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        tint.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let area = CABasicAnimation(keyPath: "area")
        area.fromValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 10))
        area.toValue = NSValue(cgRect: CGRect(x: 10, y: 20, width: 30, height: 40))
        let spin = CABasicAnimation(keyPath: "spin")
        spin.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        spin.toValue = NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))
        let group = CAAnimationGroup()
        group.animations = [move, tint, area, spin]
        group.duration = 1
        group.beginTime = 10
        layer.add(group, forKey: nil)
        let presentation = try XCTUnwrap(layer.presentation())
        let center = try XCTUnwrap(presentation.value(forKey: "center") as? NSValue).cgPointValue
        XCTAssertEqual(center.x, 5, accuracy: 1e-6)
        XCTAssertEqual(center.y, 10, accuracy: 1e-6)
        let tintValue = presentation.value(forKey: "tint") as! CGColor
        XCTAssertEqual(tintValue.components.map { Double($0) }, [0.5, 0, 0.5, 1], "straight RGBA, mixed halfway")
        XCTAssertEqual(presentation.value(forKey: "area") as? CGRect, CGRect(x: 5, y: 10, width: 20, height: 25))
        let spinValue = try XCTUnwrap(presentation.value(forKey: "spin") as? CATransform3D)
        XCTAssertEqual(spinValue.m11, 2, accuracy: 1e-12, "the scale, decomposed, goes 1 → 3")
    }

    func testPresentationCopiesGetTheSubclassFieldsAndArbitraryKeys() throws {
        let layer = pausedLayer(at: 0)
        layer.barColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        layer.setValue("ring", forKey: "style")
        layer.setValue(3, forKey: "segments")
        let presentation = try XCTUnwrap(layer.presentation())
        XCTAssertEqual(presentation.barColor, CGColor(red: 0, green: 1, blue: 0, alpha: 1), "copied by init(layer:)")
        XCTAssertEqual(presentation.value(forKey: "style") as? String, "ring")
        XCTAssertEqual(presentation.value(forKey: "segments") as? Int, 3)
        XCTAssertNil(presentation.value(forKey: "never set"))
        XCTAssertEqual(presentation.progress, 0, "defaultValue(forKey:) for a key never set")
        XCTAssertEqual(CALayer(layer: layer).value(forKey: "style") as? String, "ring", "init(layer:) copies stored keys")
    }

    func testAStaticChangeOfAKeyThatNeedsDisplayMarksTheLayer() {
        let layer = ProgressLayer()
        XCTAssertFalse(layer.needsDisplay(), "a new layer is not marked")
        layer.progress = 0.5
        XCTAssertTrue(layer.needsDisplay())
        layer.displayIfNeeded()
        layer.setValue(1, forKey: "unrelated")
        XCTAssertFalse(layer.needsDisplay(), "a key needsDisplay(forKey:) does not name")
    }

    func testAChangeOfABuiltInKeyThatNeedsDisplayMarksTheLayer() {
        final class CornerLayer: CALayer {
            override class func needsDisplay(forKey key: String) -> Bool {
                key == "cornerRadius" || super.needsDisplay(forKey: key)
            }
        }
        let layer = CornerLayer()
        layer.opacity = 0.5
        XCTAssertFalse(layer.needsDisplay(), "opacity is not named")
        layer.cornerRadius = 4
        XCTAssertTrue(layer.needsDisplay(), "the setter marks it")
        layer.displayIfNeeded()
        layer.setValue(8, forKey: "cornerRadius")
        XCTAssertTrue(layer.needsDisplay(), "and so does key-value coding")
        layer.displayIfNeeded()
        layer.cornerRadius = 8
        XCTAssertFalse(layer.needsDisplay(), "an unchanged value marks nothing")
    }

    /// Core Animation runs the action search for a key set by key-value coding: the tutorial's
    /// `action(forKey:)` animates the custom property from the value on screen.
    func testActionForACustomKeyAnimatesIt() throws {
        let layer = AnimatedProgressLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        layer.progress = 0.25
        _ = layer.snapshot() // drawn once: only a drawn layer runs actions
        layer.progress = 0.75
        let animation = try XCTUnwrap(layer.animation(forKey: "progress") as? CABasicAnimation)
        XCTAssertEqual(animation.fromValue as? CGFloat, 0.25, "from the value on screen before the change")
        XCTAssertNil(animation.toValue)
        // 0.5 s into the 2 s linear animation: 0.25 + 0.25 · 0.5 = 0.375.
        layer.speed = 0
        layer.timeOffset = animation.beginTime + 0.5
        let presentation = try XCTUnwrap(layer.presentation())
        XCTAssertEqual(presentation.progress, 0.375, accuracy: 1e-9)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.removeAllAnimations()
        layer.progress = 0.5
        CATransaction.commit()
        XCTAssertNil(layer.animation(forKey: "progress"), "disabled actions add none")
    }
}
