// A layer during a CATransition: both renderings go offscreen so that the transition's type
// can cross-fade or move them as wholes.
import Foundation
import LayerKitCore

extension Builder {
    /// A layer during a `CATransition`: its old and new renderings (each with opacity 1) in
    /// offscreen passes of one extent in the layer's plane, composed by the transition's type:
    /// a fade is one quad cross-fading the two; a moving type draws each moved by its offset
    /// into a third pass the size of the bounds, which clips them. The result takes the layer's opacity.
    func emitTransition(_ l: LayerSnapshot, _ t: LayerTransition, placement: Placement, inverse inv: PlaneMap,
                                opacity o: Float, clips: [Clip], into quads: inout [DrawQuad]) {
        let p = l.properties
        guard p.drawnOpacity > 0 else { return }
        offscreenDepth += 1
        defer { offscreenDepth -= 1 }
        func whole(_ s: LayerSnapshot) -> LayerSnapshot {
            var q = s.properties
            q.opacity = 1
            return LayerSnapshot(properties: q, kind: s.kind, sublayers: s.sublayers, mask: s.mask)
        }
        let (old, new) = (whole(t.before), whole(l))
        let unbounded = p.bounds.insetBy(dx: -8192, dy: -8192)
        let offsets = t.offsets(size: p.bounds.size)
        // A moving transition shows only what falls within the bounds.
        var extent = offsets != nil ? p.bounds
            : (placedExtent(old, matrix: .identity) ?? unbounded).union(placedExtent(new, matrix: .identity) ?? unbounded)
        extent = extent.integral.intersection(unbounded)
        guard !extent.isNull, extent.width > 0, extent.height > 0 else { return }
        let passScale = fittedScale(extent, offscreenScale * scale)
        guard let (pw, ph, toPass, passInverse) = passFrame(extent, passScale) else { return }
        let inner = Placement(toTarget: toPass, toCanvas: placement.toCanvas, flipped: placement.flipped)
        let label = name(l)
        var (oldQuads, newQuads): ([DrawQuad], [DrawQuad]) = ([], [])
        emitLayer(old, placement: inner, opacity: 1, clips: [], into: &oldQuads)
        emitLayer(new, placement: inner, opacity: 1, clips: [], into: &newQuads)
        let from = addPass(.transitionFrom, pw, ph, .quads(oldQuads), label + " transition from")
        let to = addPass(.transitionTo, pw, ph, .quads(newQuads), label + " transition to")
        let opacity = o * p.drawnOpacity
        guard let offsets else {
            let fade = PassFill(pass: from, scale: passScale, crossfade: PassCrossfade(pass: to, fraction: Float(t.progress)))
            quads.append(passQuad(fade, extent: extent, shift: .identity, opacity: opacity, clips: clips,
                                  into: placement.toTarget, inverse: inv, label: label))
            return
        }
        // The composed pass is the bounds' size: it clips what moves out.
        func moved(_ pass: Int, _ by: CGPoint) -> DrawQuad {
            passQuad(PassFill(pass: pass, scale: passScale), extent: extent, shift: CATransform3DMakeTranslation(by.x, by.y, 0),
                     opacity: 1, clips: [], into: toPass, inverse: passInverse, label: label)
        }
        // Reveal uncovers the new rendering from under the old; the others bring it over.
        let composed = t.type == .reveal ? [moved(to, offsets.new), moved(from, offsets.old)]
            : [moved(from, offsets.old), moved(to, offsets.new)]
        let both = addPass(.transition, pw, ph, .quads(composed), label + " transition")
        quads.append(passQuad(PassFill(pass: both, scale: passScale), extent: extent, shift: .identity, opacity: opacity, clips: clips,
                              into: placement.toTarget, inverse: inv, label: label))
    }
}
