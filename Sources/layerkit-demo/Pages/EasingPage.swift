import Foundation
import LayerKitCore

/// Listing 10.4's graph of a `CAMediaTimingFunction`, as an explorer: the curve from (0, 0) to
/// (1, 1) drawn from `getControlPoint(at:values:)` with its two control points and their
/// handles, a dot that travels along the curve (x linear in time, y eased) and a square that
/// rises with the eased value, both replayed every 2 s. Keys 1–6 pick the named functions and
/// listing 10.5's springy (1, 0, 0.75, 1); `c` makes the pointer move control point 1, then 2,
/// then neither.
final class EasingPage: AnimationPage {
    /// The graph's unit square on the canvas: x right, y up.
    static let graph = CGRect(x: 50, y: 60, width: 200, height: 200)
    /// The functions keys 1–6 pick.
    static let presets: [(name: String, function: CAMediaTimingFunction)] = [
        ("linear", CAMediaTimingFunction(name: .linear)), ("easeIn", CAMediaTimingFunction(name: .easeIn)),
        ("easeOut", CAMediaTimingFunction(name: .easeOut)), ("easeInEaseOut", CAMediaTimingFunction(name: .easeInEaseOut)),
        ("default", CAMediaTimingFunction(name: .default)), ("springy", CAMediaTimingFunction(controlPoints: 1, 0, 0.75, 1)),
    ]

    /// The curve.
    let curve = CAShapeLayer()
    private let handles = CAShapeLayer()
    private let knobs = [disc(diameter: 10, color: CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1), name: "c1"),
                         disc(diameter: 10, color: CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1), name: "c2")]
    /// The dot travelling along the curve and the square rising with the eased value.
    let dot = disc(diameter: 12, color: CGColor(gray: 0.1, alpha: 1), name: "dot")
    let square = CALayer()
    private let label = Page.caption(canvasWidth: 400, y: 300)
    /// The function shown, its name, and which control point (1 or 2) follows the pointer.
    private(set) var function = presets[1].function
    private var name = presets[1].name
    private var editing: Int?

    init() {
        let (canvas, root) = Page.whiteCanvas(400, 360)
        let frame = CALayer()
        frame.name = "graph"
        frame.frame = Self.graph
        frame.borderWidth = 1
        frame.borderColor = CGColor(gray: 0.75, alpha: 1)
        root.addSublayer(frame)
        for (layer, color) in [(handles, CGColor(gray: 0.55, alpha: 1)), (curve, CGColor(gray: 0.1, alpha: 1))] {
            layer.frame = root.bounds
            layer.fillColor = nil
            layer.strokeColor = color
            layer.lineWidth = layer === curve ? 2.5 : 1
            root.addSublayer(layer)
        }
        curve.name = "curve"
        handles.name = "handles"
        for k in knobs { root.addSublayer(k) }
        dot.position = Self.point(CGPoint(x: 1, y: 1))
        root.addSublayer(dot)
        square.name = "square"
        square.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
        square.backgroundColor = CGColor(red: 0.2, green: 0.65, blue: 0.35, alpha: 1)
        square.position = CGPoint(x: 320, y: Self.graph.minY)
        root.addSublayer(square)
        root.addSublayer(label)
        super.init(id: "10.4-easing", title: "10.4 easing curves: CAMediaTimingFunction drawn and played", canvas: canvas, root: root)
        drawCurve()
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "1–6", action: "linear, easeIn, easeOut, easeInEaseOut, default, springy (1, 0, 0.75, 1)"),
         KeyHelp(key: "c", action: "the pointer moves control point 1, then 2, then neither")]
    }

    /// A point of the unit square in canvas points (y up).
    static func point(_ p: CGPoint) -> CGPoint {
        CGPoint(x: graph.minX + p.x * graph.width, y: graph.maxY - p.y * graph.height)
    }

    /// Control point `index` (0…3) of `f`, as `getControlPoint(at:values:)` reads it.
    static func controlPoint(_ f: CAMediaTimingFunction, _ index: Int) -> CGPoint {
        var xy: [Float] = [0, 0]
        f.getControlPoint(at: index, values: &xy)
        return CGPoint(x: CGFloat(xy[0]), y: CGFloat(xy[1]))
    }

    /// Draws the curve, handles and knobs of `function` and says what it is.
    private func drawCurve() {
        let p = (0...3).map { Self.point(Self.controlPoint(function, $0)) }
        let path = CGMutablePath()
        path.move(to: p[0])
        path.addCurve(to: p[3], control1: p[1], control2: p[2])
        curve.path = path
        let lines = CGMutablePath()
        lines.move(to: p[0])
        lines.addLine(to: p[1])
        lines.move(to: p[3])
        lines.addLine(to: p[2])
        handles.path = lines
        knobs[0].position = p[1]
        knobs[1].position = p[2]
        let c = (1...2).map { Self.controlPoint(function, $0) }
        label.string = String(format: "%@: (%.2f, %.2f) (%.2f, %.2f)", name, c[0].x, c[0].y, c[1].x, c[1].y)
            + (editing.map { " · the pointer moves point \($0)" } ?? "")
    }

    override func start(at t: CFTimeInterval) { play(at: t) }

    /// Plays the dot and the square with `function` from media time `t`, every 2 s.
    private func play(at t: CFTimeInterval) {
        let x = CABasicAnimation(keyPath: "position.x")
        x.fromValue = Self.graph.minX
        x.toValue = Self.graph.maxX
        let y = CABasicAnimation(keyPath: "position.y")
        y.fromValue = Self.graph.maxY
        y.toValue = Self.graph.minY
        y.timingFunction = function
        let travel = CAAnimationGroup()
        travel.animations = [x, y]
        travel.duration = 2
        travel.repeatCount = .infinity
        add(travel, to: dot, forKey: "travel", at: t)
        let rise = y.copy() as! CABasicAnimation
        rise.duration = 2
        rise.repeatCount = .infinity
        add(rise, to: square, forKey: "rise", at: t)
    }

    override func typed(_ c: Character) -> Bool {
        if c == "c" {
            editing = editing == nil ? 1 : editing == 1 ? 2 : nil
            drawCurve()
            return true
        }
        guard let n = c.wholeNumberValue, (1...Self.presets.count).contains(n) else { return false }
        (name, function) = Self.presets[n - 1]
        drawCurve()
        play(at: mediaTime)
        return true
    }

    override func pointerMoved(to p: CGPoint) -> Bool {
        guard let editing else { return false }
        // x stays in 0…1 (Core Animation clamps it); y may leave the square (overshoot).
        let x = Float(min(max((p.x - Self.graph.minX) / Self.graph.width, 0), 1))
        let y = Float((Self.graph.maxY - p.y) / Self.graph.height)
        let c = (1...2).map { Self.controlPoint(function, $0) }.map { (Float($0.x), Float($0.y)) }
        function = editing == 1 ? CAMediaTimingFunction(controlPoints: x, y, c[1].0, c[1].1)
                                : CAMediaTimingFunction(controlPoints: c[0].0, c[0].1, x, y)
        name = "custom"
        drawCurve()
        play(at: mediaTime)
        return true
    }
}
