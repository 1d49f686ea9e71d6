import Foundation

/// A 2D affine transform with Core Graphics' fields and conventions.
///
/// A point is mapped as `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`: the matrix
/// `[a b 0; c d 0; tx ty 1]` multiplies the row vector `[x y 1]` on its left. With the y-down
/// coordinates of Core Animation a positive rotation turns clockwise on screen.
/// `rotated(by:)`, `scaledBy(x:y:)` and `translatedBy(x:y:)` apply the new operation *before*
/// the receiver (`op · t`), exactly like `CGAffineTransformRotate` and friends.
public struct CGAffineTransform: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The entry that scales x (row 1, column 1).
    public var a: CGFloat
    /// The entry that skews y by x (row 1, column 2).
    public var b: CGFloat
    /// The entry that skews x by y (row 2, column 1).
    public var c: CGFloat
    /// The entry that scales y (row 2, column 2).
    public var d: CGFloat
    /// The x translation (row 3, column 1).
    public var tx: CGFloat
    /// The y translation (row 3, column 2).
    public var ty: CGFloat

    /// A transform with the given entries (`CGAffineTransformMake`).
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// The identity transform (`CGAffineTransformIdentity`).
    public static let identity = CGAffineTransform()

    /// A rotation by `angle` radians (`CGAffineTransformMakeRotation`); positive is clockwise on
    /// a y-down screen.
    public init(rotationAngle angle: CGFloat) {
        let s = CGFloat(sin(Double(angle))), co = CGFloat(cos(Double(angle)))
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// A scale (`CGAffineTransformMakeScale`).
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// A translation (`CGAffineTransformMakeTranslation`).
    public init(translationX x: CGFloat, y: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }

    /// Whether this is the identity (`CGAffineTransformIsIdentity`).
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2` (`CGAffineTransformConcat(self, t2)` = `self · t2`).
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
                          c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                          tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// A rotation applied before this transform (`CGAffineTransformRotate`).
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// A scale applied before this transform (`CGAffineTransformScale`).
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// A translation applied before this transform (`CGAffineTransformTranslate`).
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// The inverse, or the receiver unchanged when it is singular (`CGAffineTransformInvert`):
    /// its determinant is negligible relative to its scale, as `CATransform3D.inverted()` decides.
    public func inverted() -> CGAffineTransform {
        guard hasInverse else { return self }
        let det = a * d - b * c
        return CGAffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                                 tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Whether the transform has an inverse: its determinant is not negligible relative to its
    /// scale (`Singularity.isNegligible(determinant:dimension:rowScale:columnScale:)`).
    package var hasInverse: Bool {
        let rowScale = max((a * a + b * b).squareRoot(), (c * c + d * d).squareRoot())
        return !Singularity.isNegligible(determinant: a * d - b * c, dimension: 3, rowScale: rowScale, columnScale: 1)
    }

    /// Readable entries, for logs and test failures.
    public var description: String { "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}

/// `CGAffineTransformIdentity`.
public let CGAffineTransformIdentity = CGAffineTransform.identity

/// `CGAffineTransformMake`: a transform with the given entries.
public func CGAffineTransformMake(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
    CGAffineTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
}

/// `CGAffineTransformMakeRotation`: positive angles turn clockwise on a y-down screen.
public func CGAffineTransformMakeRotation(_ angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle) }

/// `CGAffineTransformMakeScale`.
public func CGAffineTransformMakeScale(_ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: sx, y: sy) }

/// `CGAffineTransformMakeTranslation`.
public func CGAffineTransformMakeTranslation(_ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: tx, y: ty) }

/// `CGAffineTransformRotate`: the rotation applies before `t`.
public func CGAffineTransformRotate(_ t: CGAffineTransform, _ angle: CGFloat) -> CGAffineTransform { t.rotated(by: angle) }

/// `CGAffineTransformScale`: the scale applies before `t`.
public func CGAffineTransformScale(_ t: CGAffineTransform, _ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform { t.scaledBy(x: sx, y: sy) }

/// `CGAffineTransformTranslate`: the translation applies before `t`.
public func CGAffineTransformTranslate(_ t: CGAffineTransform, _ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform { t.translatedBy(x: tx, y: ty) }

/// `CGAffineTransformConcat(t1, t2)`: `t1` applies first.
public func CGAffineTransformConcat(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> CGAffineTransform { t1.concatenating(t2) }

/// `CGAffineTransformInvert`: the inverse, or `t` itself when it is singular.
public func CGAffineTransformInvert(_ t: CGAffineTransform) -> CGAffineTransform { t.inverted() }

/// `CGAffineTransformIsIdentity`.
public func CGAffineTransformIsIdentity(_ t: CGAffineTransform) -> Bool { t.isIdentity }

/// `CGAffineTransformEqualToTransform`.
public func CGAffineTransformEqualToTransform(_ t1: CGAffineTransform, _ t2: CGAffineTransform) -> Bool { t1 == t2 }

/// `CGPointApplyAffineTransform`.
public func CGPointApplyAffineTransform(_ p: CGPoint, _ t: CGAffineTransform) -> CGPoint { p.applying(t) }

/// `CGSizeApplyAffineTransform`: the size mapped as a vector (no translation).
public func CGSizeApplyAffineTransform(_ s: CGSize, _ t: CGAffineTransform) -> CGSize { s.applying(t) }

/// `CGRectApplyAffineTransform`: the bounding box of the transformed rectangle.
public func CGRectApplyAffineTransform(_ r: CGRect, _ t: CGAffineTransform) -> CGRect { r.applying(t) }

extension CGPoint {
    /// The point mapped by `t` (`CGPointApplyAffineTransform`).
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped by `t`'s linear part (`CGSizeApplyAffineTransform`); may be negative.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest rectangle that contains the four transformed corners
    /// (`CGRectApplyAffineTransform`); a null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let r = standardized
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { $0.applying(t) }
        return CGRect.boundingBox(of: corners)
    }

    /// The smallest rectangle containing all `points` (null when there are none).
    package static func boundingBox(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y)
            maxY = Swift.max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
