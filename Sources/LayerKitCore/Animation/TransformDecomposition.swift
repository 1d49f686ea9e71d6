import Foundation

/// A 3D transform split into parts the way the CSS Transforms Level 2 specification's
/// matrix3d interpolation does, so that two transforms interpolate part by part (rotation by
/// spherical interpolation of quaternions). Matrices use CATransform3D's row-vector
/// convention: the transform is scale · skew · rotation · translation · perspective, the
/// leftmost acting first.
struct DecomposedTransform: Equatable {
    var translation: [Double]
    var scale: [Double]
    /// xy, xz, yz.
    var skew: [Double]
    var perspective: [Double]
    /// x, y, z, w.
    var quaternion: [Double]

    /// The parts of `m`, or `nil` when it cannot be decomposed (m44 = 0 or a singular
    /// upper part, such as a scale of 0).
    init?(_ m: CATransform3D) {
        guard m.m44 != 0 else { return nil }
        let e = m.entries.map { Double($0) / Double(m.m44) }
        func at(_ r: Int, _ c: Int) -> Double { e[r * 4 + c] }
        var pm = CATransform3D(e.map { CGFloat($0) })
        pm.m14 = 0
        pm.m24 = 0
        pm.m34 = 0
        pm.m44 = 1
        guard pm.determinant != 0 else { return nil }
        if at(0, 3) != 0 || at(1, 3) != 0 || at(2, 3) != 0 {
            // Solve pm · p = column 4 (the right-hand side as a column).
            let inv = pm.inverted().entries.map(Double.init)
            let rhs = [at(0, 3), at(1, 3), at(2, 3), at(3, 3)]
            perspective = (0..<4).map { (i: Int) -> Double in (0..<4).reduce(0.0) { (sum: Double, j: Int) in sum + inv[i * 4 + j] * rhs[j] } }
        } else {
            perspective = [0, 0, 0, 1]
        }
        translation = [at(3, 0), at(3, 1), at(3, 2)]
        var row = (0..<3).map { r in (0..<3).map { at(r, $0) } }
        func len(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ s: Double) -> [Double] { (0..<3).map { a[$0] + s * b[$0] } }
        var sc = [0.0, 0, 0], sk = [0.0, 0, 0]
        sc[0] = len(row[0])
        row[0] = row[0].map { $0 / sc[0] }
        sk[0] = dot(row[0], row[1])
        row[1] = combine(row[1], row[0], -sk[0])
        sc[1] = len(row[1])
        row[1] = row[1].map { $0 / sc[1] }
        sk[0] /= sc[1]
        sk[1] = dot(row[0], row[2])
        row[2] = combine(row[2], row[0], -sk[1])
        sk[2] = dot(row[1], row[2])
        row[2] = combine(row[2], row[1], -sk[2])
        sc[2] = len(row[2])
        row[2] = row[2].map { $0 / sc[2] }
        sk[1] /= sc[2]
        sk[2] /= sc[2]
        let cross = [row[1][1] * row[2][2] - row[1][2] * row[2][1],
                     row[1][2] * row[2][0] - row[1][0] * row[2][2],
                     row[1][0] * row[2][1] - row[1][1] * row[2][0]]
        if dot(row[0], cross) < 0 {
            sc = sc.map { -$0 }
            row = row.map { $0.map { -$0 } }
        }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        scale = sc
        skew = sk
        quaternion = q
    }

    /// The matrix these parts describe.
    var matrix: CATransform3D {
        leading.concatenating(Self.rotation(quaternion[0], quaternion[1], quaternion[2], quaternion[3])).concatenating(trailing)
    }

    /// Scale then skew: what acts before the rotation.
    var leading: CATransform3D {
        var k = CATransform3D.identity
        k.m21 = CGFloat(skew[0])
        k.m31 = CGFloat(skew[1])
        k.m32 = CGFloat(skew[2])
        let s = CATransform3DMakeScale(CGFloat(scale[0]), CGFloat(scale[1]), CGFloat(scale[2]))
        return s.concatenating(k)
    }

    /// Translation then perspective: what acts after the rotation.
    var trailing: CATransform3D {
        var p = CATransform3D.identity
        p.m14 = CGFloat(perspective[0])
        p.m24 = CGFloat(perspective[1])
        p.m34 = CGFloat(perspective[2])
        p.m44 = CGFloat(perspective[3])
        let t = CATransform3DMakeTranslation(CGFloat(translation[0]), CGFloat(translation[1]), CGFloat(translation[2]))
        return t.concatenating(p)
    }

    /// The rotation of unit quaternion (x, y, z, w).
    static func rotation(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> CATransform3D {
        var r = CATransform3D.identity
        r.m11 = CGFloat(1 - 2 * (y * y + z * z))
        r.m12 = CGFloat(2 * (x * y + z * w))
        r.m13 = CGFloat(2 * (x * z - y * w))
        r.m21 = CGFloat(2 * (x * y - z * w))
        r.m22 = CGFloat(1 - 2 * (x * x + z * z))
        r.m23 = CGFloat(2 * (y * z + x * w))
        r.m31 = CGFloat(2 * (x * z + y * w))
        r.m32 = CGFloat(2 * (y * z - x * w))
        r.m33 = CGFloat(1 - 2 * (x * x + y * y))
        return r
    }

    /// Part by part from `a` (p = 0) to `b` (p = 1); the quaternions by slerp, not
    /// sign-flipped first (as the specification does).
    static func interpolate(_ a: Self, _ b: Self, _ p: Double) -> Self {
        func mix(_ x: [Double], _ y: [Double]) -> [Double] { zip(x, y).map { $0 + ($1 - $0) * p } }
        var r = a
        r.translation = mix(a.translation, b.translation)
        r.scale = mix(a.scale, b.scale)
        r.skew = mix(a.skew, b.skew)
        r.perspective = mix(a.perspective, b.perspective)
        let product = min(max(zip(a.quaternion, b.quaternion).reduce(0) { $0 + $1.0 * $1.1 }, -1), 1)
        if abs(product) < 1 {
            let theta = acos(product)
            let w = sin(p * theta) / (1 - product * product).squareRoot()
            let ca = cos(p * theta) - product * w
            r.quaternion = zip(a.quaternion, b.quaternion).map { $0 * ca + $1 * w }
        }
        return r
    }
}
