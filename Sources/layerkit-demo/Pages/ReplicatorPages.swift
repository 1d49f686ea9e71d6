import Foundation
import LayerKitCore

/// Listing 6.8 from Swift: a `CAReplicatorLayer` turning copies of one white square about a
/// point 200 points below its centre, each less blue and green by 0.1. `+`/`-` change
/// `instanceCount` and keep the ring closed (a step of 360° / count; the listing's 10 copies
/// at 36°); `d` sets `instanceDelay` 0.1 s under a pulsing opacity animation on the square, so
/// the pulse runs round the ring, each copy a tenth of a second behind the one before. The
/// HUD counts the copies drawn (`instances`).
final class ReplicatorRingPage: Page {
    /// The listing's replicator.
    let replicator = CAReplicatorLayer()
    /// The square the replicator copies.
    let square = CALayer()
    private let label = Page.caption(canvasWidth: 500, y: 596)

    init() {
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 0, y: 0, width: 500, height: 640)
        root.backgroundColor = CGColor(gray: 0.2, alpha: 1)
        replicator.name = "ring"
        replicator.frame = CGRect(x: 100, y: 20, width: 300, height: 300)
        replicator.instanceBlueOffset = -0.1
        replicator.instanceGreenOffset = -0.1
        square.name = "square"
        square.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        square.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        replicator.addSublayer(square)
        root.addSublayer(replicator)
        label.foregroundColor = CGColor(gray: 0.85, alpha: 1)
        root.addSublayer(label)
        super.init(id: "6.8-replicator", title: "6.8 CAReplicatorLayer: a ring of copies",
                   canvas: Canvas(width: 500, height: 640, background: .white), root: root)
        setCount(10)
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "+ -", action: "one copy more or fewer (1…36), the ring kept closed"),
         KeyHelp(key: "d", action: "instanceDelay 0.1 s under a pulsing opacity: the pulse runs round the ring")]
    }

    /// The listing's transform with the step for `count` copies: about the point 200 points
    /// below the replicator's centre, as `CATransform3DTranslate` then `Rotate` then
    /// `Translate` build it.
    func setCount(_ count: Int) {
        replicator.instanceCount = count
        var transform = CATransform3DIdentity
        transform = CATransform3DTranslate(transform, 0, 200, 0)
        transform = CATransform3DRotate(transform, 2 * .pi / CGFloat(count), 0, 0, 1)
        transform = CATransform3DTranslate(transform, 0, -200, 0)
        replicator.instanceTransform = transform
        describe()
    }

    private func describe() {
        let pulse = replicator.instanceDelay > 0 ? "instanceDelay \(replicator.instanceDelay) s" : "no delay (d: pulse)"
        label.string = "instanceCount \(replicator.instanceCount), step \(360 / replicator.instanceCount)°, \(pulse)"
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "+", "=": setCount(min(replicator.instanceCount + 1, 36))
        case "-": setCount(max(replicator.instanceCount - 1, 1))
        case "d":
            if replicator.instanceDelay > 0 {
                replicator.instanceDelay = 0
                square.removeAnimation(forKey: "pulse")
            } else {
                replicator.instanceDelay = 0.1
                let pulse = CABasicAnimation(keyPath: "opacity")
                pulse.fromValue = 1.0
                pulse.toValue = 0.2
                pulse.duration = 0.5
                pulse.autoreverses = true
                pulse.repeatCount = .infinity
                square.add(pulse, forKey: "pulse")
            }
            describe()
        default: return false
        }
        return true
    }

    override func update(clock: DemoClock) -> Redraw {
        replicator.instanceDelay > 0 && !clock.isFrozen ? .everyFrame : .onInput
    }
}

/// Listing 6.9 from Swift: the book's `ReflectionView`, a `CAReplicatorLayer` of two copies
/// whose second is moved the view's height plus 2 down, mirrored and faded by
/// `instanceAlphaOffset` −0.6. `+`/`-` change the offset by 0.1 (the reflection's alpha is
/// 1 + offset, clamped to 0…1).
final class ReflectionPage: Page {
    /// The reflection view's layer.
    let reflection = CAReplicatorLayer()

    private let label = Page.caption(canvasWidth: 300, y: 436)

    /// Builds the reflection of `cat.png`, as the seed `6.9-replicator-reflection` does.
    init(examples: Examples) throws {
        let (canvas, root) = Page.whiteCanvas(300, 480)
        reflection.name = "reflectionView"
        reflection.frame = CGRect(x: 50, y: 20, width: 200, height: 200)
        let image = CALayer()
        image.name = "image"
        image.frame = reflection.bounds
        image.contents = try examples.image("cat")
        reflection.addSublayer(image)
        Self.setUp(reflection)
        root.addSublayer(reflection)
        root.addSublayer(label)
        super.init(id: "6.9-reflection", title: "6.9 CAReplicatorLayer: a reflection", canvas: canvas, root: root)
        describe()
    }

    /// The listing's `setUp`.
    static func setUp(_ layer: CAReplicatorLayer) {
        layer.instanceCount = 2
        var transform = CATransform3DIdentity
        let verticalOffset = layer.bounds.size.height + 2
        transform = CATransform3DTranslate(transform, 0, verticalOffset, 0)
        transform = CATransform3DScale(transform, 1, -1, 0)
        layer.instanceTransform = transform
        layer.instanceAlphaOffset = -0.6
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "+ -", action: "instanceAlphaOffset up or down by 0.1 (−1…0)")] }

    private func describe() {
        let offset = reflection.instanceAlphaOffset
        label.string = String(format: "instanceAlphaOffset %.1f: the reflection at alpha %.1f", offset, max(0, 1 + offset))
    }

    override func typed(_ c: Character) -> Bool {
        let step: Float
        switch c {
        case "+", "=": step = 0.1
        case "-": step = -0.1
        default: return false
        }
        reflection.instanceAlphaOffset = min(max(((reflection.instanceAlphaOffset + step) * 10).rounded() / 10, -1), 0)
        describe()
        return true
    }
}
