import Foundation
import LayerKitCore

/// Listing 6.13 as the book writes it: a `CAEmitterLayer` filling the page, emitting from its
/// centre one `CAEmitterCell` of soft sparks (150 a second, 5 s each, colour (1, 0.5, 0.1),
/// alpha −0.4 a second, speed 50 ± 25 in every direction), drawn additively. `a` switches
/// `renderMode` to unordered, figure 6.14's "a lot less pleasing" fire. The fire starts when
/// the page is first shown (at the frozen time under `--time`, it has run that long); the
/// caption counts the particles alive.
final class FirePage: Page {
    /// The listing's emitter.
    let emitter = CAEmitterLayer()
    private let label = Page.caption(canvasWidth: 400, y: 360)
    private var started = false

    /// Builds the listing's emitter with `spark.png` as the cell's contents.
    init(examples: Examples) throws {
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        emitter.name = "emitter"
        emitter.frame = CGRect(x: 0, y: 0, width: 400, height: 360)
        emitter.renderMode = .additive
        emitter.emitterPosition = CGPoint(x: emitter.frame.size.width / 2, y: emitter.frame.size.height / 2)
        let cell = CAEmitterCell()
        cell.contents = try examples.image("spark")
        cell.birthRate = 150
        cell.lifetime = 5
        cell.color = CGColor(red: 1, green: 0.5, blue: 0.1, alpha: 1)
        cell.alphaSpeed = -0.4
        cell.velocity = 50
        cell.velocityRange = 50
        cell.emissionRange = .pi * 2
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        label.foregroundColor = CGColor(gray: 0.85, alpha: 1)
        root.addSublayer(label)
        super.init(id: "6.13-fire", title: "6.13 CAEmitterLayer: fire, additive",
                   canvas: Canvas(width: 400, height: 400, background: .black), root: root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "a", action: "switch renderMode between additive and unordered (figure 6.14)")] }

    override func typed(_ c: Character) -> Bool {
        guard c == "a" else { return false }
        emitter.renderMode = emitter.renderMode == .additive ? .unordered : .additive
        return true
    }

    /// How many particles the emitter draws at media time `t`.
    func particleCount(atTime t: CFTimeInterval) -> Int {
        var style = emitter.style
        style.time = emitter.convertTime(t, from: nil)
        return style.particles().count
    }

    override func update(clock: DemoClock) -> Redraw {
        if !started {
            started = true
            if !clock.isFrozen { emitter.beginTime = clock.mediaTime }
        }
        label.string = "\(particleCount(atTime: clock.mediaTime)) particles, renderMode \(emitter.renderMode.rawValue) (a: switch)"
        return clock.isFrozen ? .onInput : .everyFrame
    }
}
