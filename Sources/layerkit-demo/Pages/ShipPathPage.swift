import Foundation
import LayerKitCore

/// Listings 8.6–8.7: a ship flies along a cubic Bézier (drawn by a `CAShapeLayer`) in 4 s with
/// a `CAKeyframeAnimation` whose `path` is the curve and whose `rotationMode` is `.rotateAuto`,
/// so it turns to the curve's tangent. `r` switches the rotation off and on, `p` the
/// `paced` calculation mode (constant speed along the curve).
final class ShipPathPage: AnimationPage {
    /// Listing 8.6's curve, moved 50 points right and down to sit in the middle of the canvas.
    static let path: CGPath = {
        var p = CGMutablePath()
        p.move(to: CGPoint(x: 50, y: 200))
        p.addCurve(to: CGPoint(x: 350, y: 200), control1: CGPoint(x: 125, y: 50), control2: CGPoint(x: 275, y: 350))
        return p
    }()

    /// The flying layer.
    let ship = CAShapeLayer()
    private var rotates = true
    private var paced = false
    private var begin: CFTimeInterval = 0

    init() {
        let (canvas, root) = Page.whiteCanvas(400, 400)
        let curve = CAShapeLayer()
        curve.name = "path"
        curve.frame = root.bounds
        curve.path = Self.path
        curve.fillColor = nil
        curve.strokeColor = CGColor(red: 0.85, green: 0.2, blue: 0.2, alpha: 1)
        curve.lineWidth = 3
        root.addSublayer(curve)
        // A ship pointing along +x, the direction of travel at angle 0.
        ship.name = "ship"
        ship.bounds = CGRect(x: 0, y: 0, width: 48, height: 28)
        let hull = CGMutablePath()
        hull.move(to: CGPoint(x: 0, y: 0))
        hull.addLine(to: CGPoint(x: 48, y: 14))
        hull.addLine(to: CGPoint(x: 0, y: 28))
        hull.addLine(to: CGPoint(x: 10, y: 14))
        hull.closeSubpath()
        ship.path = hull
        ship.fillColor = CGColor(red: 0.15, green: 0.35, blue: 0.8, alpha: 1)
        ship.position = CGPoint(x: 350, y: 200)  // where the flight ends: the model after it
        root.addSublayer(ship)
        super.init(id: "8.7-ship-path", title: "8.6–8.7 ship along a Bézier: CAKeyframeAnimation path, rotationMode",
                   canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "r", action: "rotationMode .rotateAuto on/off"), KeyHelp(key: "p", action: "calculationMode paced on/off")]
    }

    override func start(at t: CFTimeInterval) {
        begin = t
        fly()
    }

    /// (Re)adds the flight with the current modes, keeping its begin time so that the ship
    /// goes on from where it is.
    private func fly() {
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = Self.path
        a.duration = 4
        a.repeatCount = .infinity
        a.rotationMode = rotates ? .rotateAuto : nil
        a.calculationMode = paced ? .paced : .linear
        add(a, to: ship, forKey: "flight", at: begin)
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "r": rotates.toggle()
        case "p": paced.toggle()
        default: return false
        }
        fly()
        return true
    }
}
