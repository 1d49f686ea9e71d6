import Foundation

/// The matrices of Core Animation's layer geometry, shared by hit testing, `frame`,
/// `convert` and the compositor so that all of them agree to the last bit.
///
/// With `A = (bounds.x + anchorPoint.x·bounds.w, bounds.y + anchorPoint.y·bounds.h, anchorPointZ)`:
/// `local = T(-A) · transform · T(position.x, position.y, zPosition)` maps the layer's bounds
/// space into its superlayer's, and `childrenTransform = G · T(-A) · sublayerTransform · T(A)`
/// is what the layer applies to its sublayers' placement, where `G` mirrors y about the bounds'
/// mid-line when `isGeometryFlipped`.
extension LayerProperties {
    /// The anchor point in bounds space, with `anchorPointZ`.
    public var anchorInBounds: (x: CGFloat, y: CGFloat, z: CGFloat) {
        (bounds.origin.x + anchorPoint.x * bounds.size.width,
         bounds.origin.y + anchorPoint.y * bounds.size.height, anchorPointZ)
    }

    /// `T(-A) · transform · T(position, zPosition)`: bounds space → superlayer bounds space.
    public var localTransform: CATransform3D {
        let a = anchorInBounds
        return CATransform3DMakeTranslation(-a.x, -a.y, -a.z)
            .concatenating(transform)
            .concatenating(CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// `G · T(-A) · sublayerTransform · T(A)`: what places the sublayers in this layer's
    /// bounds space (the sublayerTransform about the anchor point, after the geometry flip).
    public var childrenTransform: CATransform3D {
        var m = CATransform3D.identity
        if isGeometryFlipped {
            m = CATransform3DMakeScale(1, -1, 1)
                .concatenating(CATransform3DMakeTranslation(0, bounds.minY + bounds.maxY, 0))
        }
        if sublayerTransform.isIdentity { return m }
        let a = anchorInBounds
        return m.concatenating(CATransform3DMakeTranslation(-a.x, -a.y, -a.z))
            .concatenating(sublayerTransform)
            .concatenating(CATransform3DMakeTranslation(a.x, a.y, a.z))
    }
}

extension CATransform3D {
    /// The point `(p.x, p.y, 0)` mapped and divided by w, or `nil` when it lands at or behind
    /// the eye (w ≤ 1e-5, the clipping plane the renderers use).
    public func projecting(_ p: CGPoint) -> CGPoint? {
        let h = apply(x: p.x, y: p.y, z: 0)
        guard h.w > 1e-5 else { return nil }
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }

    /// The point of the plane z = 0 that this transform maps onto screen point `q` (the inverse
    /// of the plane homography), or `nil` when that point is at or behind the eye or the plane
    /// is seen edge-on.
    public func unprojecting(_ q: CGPoint) -> CGPoint? {
        guard let inv = planeHomographyInverse, let p = inv.projectingAllowingNegativeW(q) else { return nil }
        guard apply(x: p.x, y: p.y, z: 0).w > 1e-5 else { return nil }
        return p
    }

    private func projectingAllowingNegativeW(_ p: CGPoint) -> CGPoint? {
        let h = apply(x: p.x, y: p.y, z: 0)
        guard h.w != 0, h.w.isFinite else { return nil }
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }
}
