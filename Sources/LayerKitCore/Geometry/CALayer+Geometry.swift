import Foundation

extension CGRect {
    /// Core Graphics' `CGRectInfinite`: what `frame` and `convert` return once a corner passes
    /// behind the eye.
    public static let infiniteRect = CGRect(x: -Double.greatestFiniteMagnitude / 2, y: -Double.greatestFiniteMagnitude / 2,
                                            width: Double.greatestFiniteMagnitude, height: Double.greatestFiniteMagnitude)
}

extension CALayer {
    /// The bounding box of the layer's bounds in its superlayer's space, after `transform`
    /// (perspective divide included; infinite once a corner is at or behind the eye).
    ///
    /// Setting it sets `position` and `bounds.size` and keeps `bounds.origin`, as Core
    /// Animation's `setFrame:` does: the size is the frame's rectangle taken back through the
    /// inverse of the affine part of `transform`, as a rectangle (its bounding box), and the
    /// position puts the new frame's centre on the given one's (with no transform: `origin +
    /// anchorPoint · size`). Under scales, mirrors and quarter turns the frame then reads back as
    /// set; under other rotations, where Apple calls the result undefined, the layer keeps both
    /// sides (a 45° layer given a 100x100 frame gets bounds 141.4 a side, centred on the frame)
    /// instead of collapsing. A singular affine part, or a 3D transform, takes the size as given.
    public var frame: CGRect {
        get { Self.boundingBox(of: bounds, through: properties.localTransform) }
        set {
            guard newValue.isFiniteValue else { return }
            let r = newValue.standardized
            let affine = affineTransform()
            let linear = CGAffineTransform(a: affine.a, b: affine.b, c: affine.c, d: affine.d, tx: 0, ty: 0)
            bounds.size = linear.hasInverse ? CGRect(origin: .zero, size: r.size).applying(linear.inverted()).size : r.size
            // Where the frame falls with the position at zero, computed aside so that the
            // position changes once (one implicit animation, from the old position).
            var atOrigin = properties
            atOrigin.position = .zero
            let placed = Self.boundingBox(of: atOrigin.bounds, through: atOrigin.localTransform)
            position = CGPoint(x: r.midX - placed.midX, y: r.midY - placed.midY)
        }
    }

    /// The layer's transform as a 2D affine transform, or the identity when it is not affine
    /// (`affineTransform()`).
    public func affineTransform() -> CGAffineTransform {
        transform.isAffine ? CATransform3DGetAffineTransform(transform) : .identity
    }

    /// Sets `transform` to the given affine transform (`setAffineTransform(_:)`).
    public func setAffineTransform(_ m: CGAffineTransform) {
        transform = CATransform3DMakeAffineTransform(m)
    }

    /// Whether `p`, in the layer's bounds space, is inside the bounds (minimum edges inside,
    /// maximum edges outside).
    public func contains(_ p: CGPoint) -> Bool {
        let b = bounds.standardized
        return p.x >= b.minX && p.x < b.maxX && p.y >= b.minY && p.y < b.maxY
    }

    /// The map from this layer's plane to its root's superlayer plane: each superlayer's
    /// `childrenTransform` is applied, and each plain superlayer projects onto its own plane,
    /// as rendering does. Only x, y and w of the result are meaningful.
    public func transformToRootPlane() -> CATransform3D {
        var m = properties.localTransform
        var layer: CALayer = self
        while let p = layer.superlayer {
            // A mask sits in its host's bounds space, without the host's sublayerTransform.
            if !layer.isMask { m = m.concatenating(p.properties.childrenTransform) }
            if layer.isMask || !(p is CATransformLayer) { m = m.flattened }
            m = m.concatenating(p.properties.localTransform)
            layer = p
        }
        return m
    }

    /// Converts a point from `layer`'s bounds space to this layer's (`convert(_:from:)`);
    /// `nil` means the root's superlayer space. Through perspective this is the plane-to-plane
    /// homography; a point that lands behind the eye converts to infinity.
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        let source = layer.map { $0.planeMap() } ?? .identity
        let q = source.apply(x: p.x, y: p.y, z: 0)
        guard q.w > 1e-5 || layer == nil else { return CGPoint(x: CGFloat.infinity, y: CGFloat.infinity) }
        let screen = layer == nil ? p : CGPoint(x: q.x / q.w, y: q.y / q.w)
        return planeMap().unprojecting(screen) ?? CGPoint(x: CGFloat.infinity, y: CGFloat.infinity)
    }

    /// Converts a point from this layer's bounds space to `layer`'s (`convert(_:to:)`).
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else {
            return planeMap().projecting(p) ?? CGPoint(x: CGFloat.infinity, y: CGFloat.infinity)
        }
        return layer.convert(p, from: self)
    }

    /// Converts a rectangle from `layer`'s bounds space: the bounding box of its converted
    /// corners, infinite when one lands behind the eye.
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        Self.boundingBox(of: r) { self.convert($0, from: layer) }
    }

    /// Converts a rectangle from this layer's bounds space to `layer`'s.
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        Self.boundingBox(of: r) { self.convert($0, to: layer) }
    }

    /// The map from this layer's bounds plane to the root's superlayer plane.
    func planeMap() -> CATransform3D { transformToRootPlane().planeHomography }

    static func boundingBox(of r: CGRect, through m: CATransform3D) -> CGRect {
        boundingBox(of: r) { m.projecting($0) ?? CGPoint(x: CGFloat.infinity, y: CGFloat.infinity) }
    }

    static func boundingBox(of r: CGRect, mapping f: (CGPoint) -> CGPoint) -> CGRect {
        let r = r.standardized
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map(f)
        if corners.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { return .infiniteRect }
        return CGRect.boundingBox(of: corners)
    }
}
