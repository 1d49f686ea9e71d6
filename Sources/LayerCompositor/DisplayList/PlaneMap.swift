// The map from pass pixels back to a layer's plane that quads and clips carry, so that
// coverage is decided in the layer's own coordinates, in perspective as well.
import Foundation
import LayerKitCore

/// A row-vector 3x3 projective map of the plane: `[x y 1] · M`, then divide by the third
/// component. Pass pixels → a layer's bounds plane.
public struct PlaneMap: Equatable, Sendable, CustomStringConvertible {
    /// Entries in row-major order: m11 m12 m13 / m21 m22 m23 / m31 m32 m33.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The map with these entries (row-major).
    public init(_ m11: Double, _ m12: Double, _ m13: Double, _ m21: Double, _ m22: Double, _ m23: Double,
                _ m31: Double, _ m32: Double, _ m33: Double) {
        m = (m11, m12, m13, m21, m22, m23, m31, m32, m33)
    }

    /// The inverse of `t`'s plane homography (rows/columns 1, 2, 4): pixels → the plane z = 0
    /// of the space `t` maps from. `nil` when the plane is seen edge-on.
    public init?(inverseOf t: CATransform3D) {
        let (a, b, c) = (Double(t.m11), Double(t.m12), Double(t.m14))
        let (d, e, f) = (Double(t.m21), Double(t.m22), Double(t.m24))
        let (g, h, i) = (Double(t.m41), Double(t.m42), Double(t.m44))
        let c0 = e * i - f * h, c1 = f * g - d * i, c2 = d * h - e * g
        let det = a * c0 + b * c1 + c * c2
        guard !t.planeHomographyIsSingular(determinant: det) else { return nil }
        let inv = 1 / det
        self.init(c0 * inv, (c * h - b * i) * inv, (b * f - c * e) * inv,
                  c1 * inv, (a * i - c * g) * inv, (c * d - a * f) * inv,
                  c2 * inv, (b * g - a * h) * inv, (a * e - b * d) * inv)
    }

    /// The half-plane `a·X + b·Y + c ≥ 0` of the plane this map maps to, as `A·x + B·y + C ≥ 0`
    /// in the coordinates it maps from (pass pixels), wherever the map's `w` is positive (the
    /// plane seen from the front): `a·X + b·Y + c·w` is linear in x and y.
    @inline(__always)
    package func pulledBack(_ h: (a: Double, b: Double, c: Double)) -> (a: Double, b: Double, c: Double) {
        (h.a * m.0 + h.b * m.1 + h.c * m.2, h.a * m.3 + h.b * m.4 + h.c * m.5, h.a * m.6 + h.b * m.7 + h.c * m.8)
    }

    /// Maps a point; the third component comes back as `w` (its sign tells front from back).
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double, w: Double) {
        (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
    }

    /// The nine entries, row-major.
    public var entries: [Double] { [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] }

    /// Equal entries.
    public static func == (a: PlaneMap, b: PlaneMap) -> Bool { a.entries == b.entries }

    /// Readable rows.
    public var description: String {
        let e = entries.map { String(format: "%.6g", $0) }
        return "[\(e[0]) \(e[1]) \(e[2]); \(e[3]) \(e[4]) \(e[5]); \(e[6]) \(e[7]) \(e[8])]"
    }
}
