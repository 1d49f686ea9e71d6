import Foundation

/// Core Animation's 4x4 transform, with its field names and conventions.
///
/// Row-vector convention: a point is the row `[x y z 1]` multiplied on the left, so
/// `x' = x·m11 + y·m21 + z·m31 + m41` and `w' = x·m14 + y·m24 + z·m34 + m44`; translation lives
/// in `m41…m43` and perspective in `m34` (`-1/d` puts the eye at `z = d`). Memory order is
/// `m11, m12, …, m44`, which is what the GL backend uploads without a transpose.
/// `CATransform3DConcat(a, b)` applies `a` first; `CATransform3DRotate(t, …)` and friends
/// apply the new operation before `t`.
public struct CATransform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Row 1, column 1.
    public var m11: CGFloat
    /// Row 1, column 2.
    public var m12: CGFloat
    /// Row 1, column 3.
    public var m13: CGFloat
    /// Row 1, column 4.
    public var m14: CGFloat
    /// Row 2, column 1.
    public var m21: CGFloat
    /// Row 2, column 2.
    public var m22: CGFloat
    /// Row 2, column 3.
    public var m23: CGFloat
    /// Row 2, column 4.
    public var m24: CGFloat
    /// Row 3, column 1.
    public var m31: CGFloat
    /// Row 3, column 2.
    public var m32: CGFloat
    /// Row 3, column 3.
    public var m33: CGFloat
    /// Row 3, column 4: perspective (`-1/d` for an eye at distance `d`).
    public var m34: CGFloat
    /// Row 4, column 1: x translation.
    public var m41: CGFloat
    /// Row 4, column 2: y translation.
    public var m42: CGFloat
    /// Row 4, column 3: z translation.
    public var m43: CGFloat
    /// Row 4, column 4.
    public var m44: CGFloat

    /// A transform with all sixteen entries, in memory order.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// The identity transform.
    public init() {
        self.init(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// A transform from 16 numbers in memory order (`m11, m12, …, m44`), as scene files write it.
    public init(_ m: [CGFloat]) {
        precondition(m.count == 16, "CATransform3D needs 16 values")
        self.init(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                  m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }

    /// The identity transform (`CATransform3DIdentity`).
    public static let identity = CATransform3D()

    /// The sixteen entries in memory order.
    public var entries: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// `self · b`: `self` applies first (`CATransform3DConcat(self, b)`).
    public func concatenating(_ b: CATransform3D) -> CATransform3D {
        let a = self
        return CATransform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// The determinant.
    public var determinant: CGFloat {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }

    /// The inverse, or the receiver unchanged when it has none (`CATransform3DInvert`).
    ///
    /// Apple documents only that a matrix without an inverse comes back as it was; "without"
    /// is decided by `Singularity.isNegligible(determinant:dimension:rowScale:columnScale:)`, relative to
    /// the matrix's scale, so a uniform scale of 1e-4 (determinant 1e-12) inverts and an
    /// involution (its own inverse) is no special case.
    public func inverted() -> CATransform3D {
        let det = determinant
        let rowScale = Swift.max(Self.length(m11, m12, m13, m14), Self.length(m21, m22, m23, m24), Self.length(m31, m32, m33, m34))
        if Singularity.isNegligible(determinant: det, dimension: 4, rowScale: rowScale, columnScale: Self.length(m14, m24, m34, m44)) {
            return self
        }
        return inverse(determinant: det)
    }

    /// The inverse of `planeHomography` (pixels or points of the target back to the plane
    /// z = 0), or `nil` when the plane is seen edge-on: its 3x3 determinant is negligible
    /// relative to the 3x3 matrix's scale.
    package var planeHomographyInverse: CATransform3D? {
        let h = planeHomography
        let det = h.determinant
        return planeHomographyIsSingular(determinant: det) ? nil : h.inverse(determinant: det)
    }

    /// Whether `det`, the determinant of this transform's plane homography (rows and columns 1,
    /// 2 and 4), is negligible relative to that 3x3 matrix's scale: the plane is seen edge-on.
    package func planeHomographyIsSingular(determinant det: CGFloat) -> Bool {
        Singularity.isNegligible(determinant: det, dimension: 3, rowScale: Swift.max(Self.length(m11, m12, 0, m14), Self.length(m21, m22, 0, m24)),
                          columnScale: Self.length(m14, m24, 0, m44))
    }

    private static func length(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> CGFloat {
        (a * a + b * b + c * c + d * d).squareRoot()
    }

    /// The adjugate divided by `det`.
    private func inverse(determinant det: CGFloat) -> CATransform3D {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        let inv = 1 / det
        return CATransform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * inv,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * inv,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * inv,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * inv,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * inv,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * inv,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * inv,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * inv,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * inv,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * inv,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * inv,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * inv,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * inv,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * inv,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * inv,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * inv)
    }

    /// Whether the transform is the identity (`CATransform3DIsIdentity`).
    public var isIdentity: Bool { self == .identity }

    /// Whether the transform is a 2D affine one (`CATransform3DIsAffine`): no z coupling, no
    /// perspective, `m33 = m44 = 1`.
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m34 == 0 && m43 == 0
            && m33 == 1 && m44 == 1
    }

    /// The homogeneous image `[x y z 1] · self` of a point, before the divide by w.
    public func apply(x: CGFloat, y: CGFloat, z: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (x * m11 + y * m21 + z * m31 + m41,
         x * m12 + y * m22 + z * m32 + m42,
         x * m13 + y * m23 + z * m33 + m43,
         x * m14 + y * m24 + z * m34 + m44)
    }

    /// Readable rows, for logs, test failures and display-list dumps.
    public var description: String {
        func f(_ v: CGFloat) -> String { String(format: "%.6g", Double(v)) }
        return "[\(f(m11)) \(f(m12)) \(f(m13)) \(f(m14)); \(f(m21)) \(f(m22)) \(f(m23)) \(f(m24)); "
            + "\(f(m31)) \(f(m32)) \(f(m33)) \(f(m34)); \(f(m41)) \(f(m42)) \(f(m43)) \(f(m44))]"
    }
}

/// `CATransform3DIdentity`.
public let CATransform3DIdentity = CATransform3D.identity

/// `CATransform3DMakeTranslation`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3D.identity
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    return t
}

/// `CATransform3DMakeScale`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3D.identity
    (t.m11, t.m22, t.m33) = (sx, sy, sz)
    return t
}

/// `CATransform3DMakeRotation`: `angle` radians about the axis `(x, y, z)`, which is normalised;
/// a zero (or non-finite) axis gives the identity. About z, positive angles turn clockwise on a
/// y-down screen.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    guard len > 0, len.isFinite else { return .identity }
    let (x, y, z) = (x / len, y / len, z / len)
    let s = CGFloat(sin(Double(angle))), c = CGFloat(cos(Double(angle))), t = 1 - c
    return CATransform3D(
        m11: c + t * x * x, m12: t * x * y + s * z, m13: t * x * z - s * y, m14: 0,
        m21: t * x * y - s * z, m22: c + t * y * y, m23: t * y * z + s * x, m24: 0,
        m31: t * x * z + s * y, m32: t * y * z - s * x, m33: c + t * z * z, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `CATransform3DTranslate`: the translation applies before `t`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `CATransform3DScale`: the scale applies before `t`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `CATransform3DRotate`: the rotation applies before `t`, so it equals
/// `CATransform3DConcat(CATransform3DMakeRotation(…), t)`.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `CATransform3DConcat(a, b) = a · b`: `a` applies first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }

/// `CATransform3DInvert`: the inverse, or `t` unchanged when it has none.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted() }

/// `CATransform3DIsIdentity`.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }

/// `CATransform3DIsAffine`.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }

/// `CATransform3DEqualToTransform`.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// `CATransform3DMakeAffineTransform`: a→m11, b→m12, c→m21, d→m22, tx→m41, ty→m42.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    var t = CATransform3D.identity
    (t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) = (m.a, m.b, m.c, m.d, m.tx, m.ty)
    return t
}

/// `CATransform3DGetAffineTransform`: reads the affine entries back (whatever the others hold).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

extension CATransform3D {
    /// The projection onto the z = 0 plane that a plain (flattening) layer applies to what it
    /// passes to its sublayers: m13, m23, m43, m31, m32, m34 become 0 and m33 becomes 1, so child
    /// z no longer affects x, y or w while perspective (m14, m24, m44) is kept.
    public var flattened: CATransform3D {
        var t = self
        (t.m13, t.m23, t.m43, t.m31, t.m32, t.m34, t.m33) = (0, 0, 0, 0, 0, 0, 1)
        return t
    }

    /// The 3x3 homography (rows/columns 1, 2, 4) that maps the layer's z = 0 plane through this
    /// transform onto the screen plane, as a transform with z untouched.
    public var planeHomography: CATransform3D {
        CATransform3D(m11: m11, m12: m12, m13: 0, m14: m14, m21: m21, m22: m22, m23: 0, m24: m24,
                      m31: 0, m32: 0, m33: 1, m34: 0, m41: m41, m42: m42, m43: 0, m44: m44)
    }

    /// True when the plane z = 0 mapped by this transform faces away from the viewer: the
    /// inverse-transpose of the transform turns the normal (0, 0, 1) to negative z
    /// (`cofactor33 / det < 0`). A mirror image in x or y alone is not a back face.
    public var isBackFacing: Bool {
        let cof33 = m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
        let det = determinant
        if det == 0 { return cof33 < 0 }
        return cof33 / det < 0
    }
}
