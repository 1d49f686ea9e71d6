// How far a subtree draws in its own bounds space (shadows, masks, shadowPath and sublayers
// included): what sizes every offscreen pass, so that a pass holds all it must and no more.
import Foundation
import LayerKitCore

extension Builder {
    /// The bounding box, in the layer's bounds space, of everything its subtree draws: nothing
    /// outside its mask (so nested masked layers keep their passes the mask's size, however
    /// far their sublayers' shadows reach), or `.null` when the mask leaves nothing.
    func subtreeExtent(_ l: LayerSnapshot) -> CGRect {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { subtreeExtent(l) } }
        let drawn = unmaskedExtent(l)
        guard let mask = maskExtent(l) else { return drawn }
        return drawn.intersection(mask)
    }

    /// Where `l`'s mask reaches in `l`'s bounds space; `nil` when it has none that bounds it.
    private func maskExtent(_ l: LayerSnapshot) -> CGRect? {
        guard let m = l.mask, !m.properties.isHidden, m.properties.hasFiniteValues else { return nil }
        return placedExtent(m, matrix: m.properties.localTransform)
    }

    /// The pass a masked layer with a shadow needs: what it draws and the shadow that casts
    /// (`blurMargin` wider), within the mask and what casts a shadow into the mask (the mask
    /// moved back by the shadow's offset, `blurMargin` wider), since the mask multiplies both.
    func maskedShadowExtent(_ l: LayerSnapshot, blurMargin: Double) -> CGRect {
        let offset = l.properties.shadowOffset
        let drawn = withShadowPath(l, unmaskedExtent(l), if: true)
        let cast = drawn.union(drawn.offsetBy(dx: offset.width, dy: offset.height)).insetBy(dx: -blurMargin, dy: -blurMargin)
        guard let mask = maskExtent(l) else { return cast }
        return cast.intersection(mask.union(mask.offsetBy(dx: -offset.width, dy: -offset.height)).insetBy(dx: -blurMargin, dy: -blurMargin))
    }

    /// `drawn` and, where `l` casts a shadow (`shadow`) from a `shadowPath`, the path, which
    /// may reach beyond what the layer draws: a pass holding the shadow's source must hold it.
    func withShadowPath(_ l: LayerSnapshot, _ drawn: CGRect, if shadow: Bool) -> CGRect {
        guard shadow, let path = l.properties.shadowPath else { return drawn }
        return drawn.union(path.boundingBoxOfPath)
    }

    /// Where `l`'s subtree, its shadow included, lands in the space `matrix` maps it to: the
    /// bounding box of the projected corners, `nil` when a corner is behind the eye (unbounded).
    func placedExtent(_ l: LayerSnapshot, matrix m: CATransform3D) -> CGRect? {
        var e = subtreeExtent(l)
        guard !e.isNull else { return e }
        if l.properties.drawnShadowOpacity > 0 {
            let margin = 3 * l.properties.drawnShadowRadius + 1
            let caster = l.properties.shadowPath?.boundingBoxOfPath ?? e
            e = e.union(caster.offsetBy(dx: l.properties.shadowOffset.width, dy: l.properties.shadowOffset.height))
                .insetBy(dx: -margin, dy: -margin)
        }
        var r = CGRect.null
        for (x, y) in [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)] {
            let h = m.apply(x: x, y: y, z: 0)
            guard h.w > frontClipW else { return nil }
            r = r.union(CGRect(x: h.x / h.w, y: h.y / h.w, width: 0, height: 0))
        }
        return r
    }

    /// `subtreeExtent` before the mask.
    func unmaskedExtent(_ l: LayerSnapshot) -> CGRect {
        let p = l.properties
        var r = p.bounds
        if p.masksToBounds { return r }
        if let image = p.contents, let (rect, _) = ContentsGeometry.imageFill(for: p, image: image, flippedY: false) {
            r = r.union(rect)
        }
        if let (_, rect, _) = Compositor.typedContent(l) {
            r = r.union(rect)   // shapes may overflow their bounds; the rasterization is cached
        }
        if case .emitter(let style) = l.kind {
            r = r.union(PlacedParticle.extent(of: PlacedParticle.particles(of: style, flipped: false)))
        }
        var layers: [(LayerSnapshot, Float)] = []
        var planes: [DepthSorter.Plane] = []
        collectPlanes(l.sublayers, prefix: p.childrenTransform, opacity: 1, flatCanvas: .identity, layers: &layers, planes: &planes)
        for (i, (child, _)) in layers.enumerated() {
            // A corner behind the eye: the projection is unbounded; the caller clamps.
            guard let e = placedExtent(child, matrix: planes[i].matrix) else { return r.insetBy(dx: -8192, dy: -8192) }
            if !e.isNull { r = r.union(e) }
        }
        return r
    }
}
