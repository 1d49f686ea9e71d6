import Foundation
import LayerKitCore

/// Flattening (listings 5.7 and 5.8), animated: an outer layer turns by θ and its inner layer by
/// −θ. About z (top row) the turns cancel either way. About y under perspective (bottom row) a
/// plain `CALayer` outer flattens its inner layer into its own plane, so the inner never turns
/// back to face the viewer; built with a `CATransformLayer` outer (right column) the two turns
/// share one 3D space and cancel, so the inner stays square to the screen.
final class FlatteningPage: Page {
    /// One cell of the grid: the pair of layers whose turns are animated, and about which axis.
    private struct Pair {
        let outer: CALayer
        let inner: CALayer
        let axis: (x: CGFloat, y: CGFloat, z: CGFloat)
    }

    private var pairs: [Pair] = []
    private var motion = PausableTime()

    /// Builds the four cells: rows z and y, columns CALayer and CATransformLayer.
    init(examples: Examples) throws {
        let (canvas, root) = Page.whiteCanvas(480, 560)
        super.init(id: "flattening", title: "5.7 / 5.8 flattening: CALayer vs CATransformLayer", canvas: canvas, root: root)
        let cat = try examples.image("cat")
        for (column, heading) in ["outer: CALayer (flattens)", "outer: CATransformLayer (3D)"].enumerated() {
            let label = Page.caption(heading, canvasWidth: 240, y: 8)
            label.frame.origin.x = CGFloat(column) * 240 + 10
            label.alignmentMode = .center
            root.addSublayer(label)
            for (row, axis) in [(CGFloat(0), CGFloat(0), CGFloat(1)), (0, 1, 0)].enumerated() {
                let cell = CGRect(x: CGFloat(column) * 240, y: 40 + CGFloat(row) * 240, width: 240, height: 240)
                pairs.append(Self.makePair(in: cell, transformLayer: column == 1, axis: axis, image: cat, into: root))
            }
        }
        root.addSublayer(Page.caption("top: 5.7, turns about z; bottom: 5.8, turns about y with m34 = -1/500. "
                                      + "The outer turns by θ, the inner by −θ.", canvasWidth: 480, y: 520))
    }

    /// A cell: a container with perspective, the outer layer (a plain one with a background, or
    /// a transform layer holding a plain "outer face" to show its plane) and the inner cat.
    private static func makePair(in cell: CGRect, transformLayer: Bool, axis: (x: CGFloat, y: CGFloat, z: CGFloat),
                                 image: CGImage, into root: CALayer) -> Pair {
        let container = CALayer()
        container.name = "container"
        container.frame = cell
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        root.addSublayer(container)

        let outer = transformLayer ? CATransformLayer() : CALayer()
        outer.name = "outer"
        outer.frame = CGRect(x: 40, y: 40, width: 160, height: 160)
        let face = transformLayer ? CALayer() : outer
        if transformLayer {
            face.name = "outer face"
            face.frame = outer.bounds
            outer.addSublayer(face)
        }
        face.backgroundColor = CGColor(red: 0.55, green: 0.75, blue: 1, alpha: 0.8)
        container.addSublayer(outer)

        let inner = CALayer()
        inner.name = "inner"
        inner.frame = CGRect(x: 30, y: 30, width: 100, height: 100)
        inner.contents = image
        outer.addSublayer(inner)
        return Pair(outer: outer, inner: inner, axis: axis)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "space", action: "pause / resume")] }

    override func update(clock: DemoClock) -> Redraw {
        let theta = radians(60) * CGFloat(sin(motion.time(at: clock.now) * 0.8))
        for p in pairs {
            p.outer.transform = CATransform3DMakeRotation(theta, p.axis.x, p.axis.y, p.axis.z)
            p.inner.transform = CATransform3DMakeRotation(-theta, p.axis.x, p.axis.y, p.axis.z)
        }
        return motion.redraw(clock)
    }

    override func typed(_ c: Character) -> Bool {
        guard c == " " else { return false }
        motion.toggle()
        return true
    }
}
