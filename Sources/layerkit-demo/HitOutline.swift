import Foundation
import LayerKitCore

/// Shows which layer a click's `hitTest` returned: a shape layer tracing the hit layer's bounds
/// as they land on screen (a quadrilateral under 3D transforms), recomputed every frame so it
/// follows the layer as it moves.
final class HitOutline {
    /// The outline, in the stage root's space.
    let layer = CAShapeLayer()
    /// The layer outlined; `nil` hides the outline.
    weak var target: CALayer?

    /// Builds the (empty) outline.
    init() {
        layer.name = "hit outline"
        // Traced, not filled: a tint would hide what the hit layer itself shows (the cube
        // button turning blue when it is hit).
        layer.fillColor = nil
        layer.strokeColor = CGColor(red: 1, green: 0, blue: 0.8, alpha: 1)
        layer.lineWidth = 2
        layer.lineJoin = .round
    }

    /// Traces `target`'s bounds through `convert(_:to: nil)` into the space of the tree's top
    /// layer, whose bounds are at `stageBounds`; hidden when there is no target, it left the
    /// tree under `container`, or a corner lands behind the eye.
    func update(stageBounds: CGRect, container: CALayer) {
        layer.frame = stageBounds
        guard let t = target, t.isDescendant(of: container) else {
            layer.isHidden = true
            return
        }
        let b = t.bounds
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                       CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)].map { t.convert($0, to: nil) }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            layer.isHidden = true
            return
        }
        let path = CGMutablePath()
        path.addLines(between: corners)
        path.closeSubpath()
        layer.path = path
        layer.isHidden = false
    }

    /// How the HUD names `layer`: its name, else its place under `root`
    /// (`root.sublayers[2].mask`), as scene files' JSON paths spell it.
    static func describe(_ layer: CALayer?, under root: CALayer) -> String {
        guard let layer else { return "none" }
        if let name = layer.name { return name }
        var parts: [String] = []
        var l = layer
        while l !== root, let parent = l.superlayer {
            if parent.mask === l {
                parts.append(".mask")
            } else {
                parts.append(".sublayers[\(parent.sublayers?.firstIndex { $0 === l } ?? 0)]")
            }
            l = parent
        }
        return "root" + parts.reversed().joined()
    }
}
