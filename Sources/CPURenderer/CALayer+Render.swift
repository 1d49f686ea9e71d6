import Foundation
import LayerCompositor
import LayerKitCore

extension CALayer {
    /// Renders the layer and its sublayers into `ctx` (`render(in:)`): their model values,
    /// "ignoring any animations" as Apple's page says (`presentation()?.render(in:)` renders
    /// what is on screen). It draws in the layer's own
    /// coordinate space: the context's user space is taken as the layer's bounds space, y down
    /// (as in a context from `display()`), and the layer's own position and transform are not
    /// applied. The tree is composited by the CPU reference renderer at the CTM's scale and
    /// drawn in as an image, so the context's clip, alpha and blend mode apply; what lies
    /// outside the bounds is not drawn.
    ///
    /// It lives here, not in LayerKit, because LayerKit lies below the compositor and the
    /// renderers: a program that renders already imports `CPURenderer`.
    public func render(in ctx: CGContext) {
        let snap = snapshot()
        var props = snap.properties
        let b = props.bounds
        guard b.width > 0, b.height > 0 else { return }
        props.position = CGPoint(x: props.anchorPoint.x * b.width, y: props.anchorPoint.y * b.height)
        props.transform = CATransform3DIdentity
        props.zPosition = 0
        let root = LayerSnapshot(properties: props, kind: snap.kind, sublayers: snap.sublayers, mask: snap.mask)
        let t = ctx.ctm
        let scale = max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
        guard scale.isFinite, scale > 0 else { return }
        let list = Compositor.displayList(root: root, width: Double(b.width), height: Double(b.height),
                                          scale: Double(scale), background: nil)
        guard let bitmap = try? CPURenderer().render(list) else { return }
        ctx.saveGState()
        // Images draw upright in y-up space; the bounds space is y down, so flip about the bounds.
        ctx.translateBy(x: 0, y: b.minY + b.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(CGImage(bitmap: bitmap, source: "render(in:)"), in: b)
        ctx.restoreGState()
    }
}
