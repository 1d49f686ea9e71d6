// The regions that limit a quad (masksToBounds, and the half-planes left by 3D splitting),
// each evaluated in the plane of the layer that set it, not in the quad's own.
import Foundation
import LayerKitCore

/// A region that limits a quad, evaluated per pixel in the plane of the layer that set it.
public struct Clip: Equatable, Sendable, CustomStringConvertible {
    /// What the region is.
    public enum Shape: Equatable, Sendable {
        /// Inside a rectangle with corners rounded by a radius (`masksToBounds`); straight
        /// edges follow `antialiased`, curves are always antialiased.
        case roundedRect(CGRect, corners: Corners, antialiased: Bool)
        /// Where `a·x + b·y + c ≥ 0` (one side of a plane that split this layer in 3D sorting).
        case halfPlane(a: Double, b: Double, c: Double)
    }
    /// Pass pixels → the clipping layer's bounds plane.
    public var map: PlaneMap
    /// The region in that plane.
    public var shape: Shape

    /// Creates a clip.
    public init(map: PlaneMap, shape: Shape) {
        self.map = map
        self.shape = shape
    }

    /// For dumps.
    public var description: String {
        switch shape {
        case let .roundedRect(r, corners, aa):
            return "clip rect(\(r.minX), \(r.minY), \(r.width), \(r.height)) \(corners.describe { "\($0)" })\(aa ? " aa" : "") via \(map)"
        case let .halfPlane(a, b, c):
            return "clip half-plane \(a)·x + \(b)·y + \(c) ≥ 0 via \(map)"
        }
    }
}

/// The part of convex polygon `poly` where `a·x + b·y + c ≥ 0` (one step of Sutherland–Hodgman):
/// the CPU renderer cuts quads' outlines to their clips with it, the debug overlay's pixel count
/// cuts them to the pass.
package func clipPolygon(_ poly: [SIMD2<Double>], _ h: (a: Double, b: Double, c: Double)) -> [SIMD2<Double>] {
    // A convex polygon gains at most one vertex a cut: one allocation, not one a doubling.
    var out: [SIMD2<Double>] = []
    out.reserveCapacity(poly.count + 1)
    for i in poly.indices {
        let p = poly[i], q = poly[(i + 1) % poly.count]
        let dp = h.a * p.x + h.b * p.y + h.c, dq = h.a * q.x + h.b * q.y + h.c
        if dp >= 0 { out.append(p) }
        if (dp >= 0) != (dq >= 0) { out.append(p + (q - p) * (dp / (dp - dq))) }
    }
    return out
}
