import Foundation

extension CALayer {
    /// The farthest descendant of this layer (or the layer itself) that contains `p`, given in
    /// the superlayer's bounds space; `nil` when none does (`hitTest(_:)`).
    ///
    /// Core Animation's order, not drawing order: sublayers are tried from last to first in
    /// `sublayers` (zPosition does not matter); hidden layers and their subtrees are skipped;
    /// `masksToBounds` limits the subtree to the rectangular bounds; a `CATransformLayer` is
    /// never returned but passes the test to its sublayers; back faces are hit like front faces;
    /// a point whose preimage is behind the eye hits nothing. Points travel through the same
    /// matrices the renderers use, so what is hit is what is seen there.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        hitTest(p, parentToReference: .identity)
    }

    /// `parentToReference` maps the superlayer's bounds space into the plane where `p` lives
    /// (the nearest flattening ancestor's), unflattened across transform layers.
    private func hitTest(_ p: CGPoint, parentToReference: CATransform3D) -> CALayer? {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { hitTest(p, parentToReference: parentToReference) } }
        if isHidden { return nil }
        let toReference = properties.localTransform.concatenating(parentToReference)
        let local = toReference.unprojecting(p)
        let isTransformLayer = self is CATransformLayer
        if masksToBounds && !isTransformLayer {
            guard let local, contains(local) else { return nil }
        }
        if isTransformLayer {
            // Sublayers share the reference plane's 3D space: keep composing in 3D.
            let childToReference = properties.childrenTransform.concatenating(toReference)
            for sub in sublayerListStorage.reversed() {
                if let hit = sub.hitTest(p, parentToReference: childToReference) { return hit }
            }
            return nil
        }
        // A plain layer projects its sublayers onto its own plane; continue in that plane.
        guard let local else { return nil }
        for sub in sublayerListStorage.reversed() {
            if let hit = sub.hitTest(local, parentToReference: properties.childrenTransform) { return hit }
        }
        return contains(local) ? self : nil
    }
}
