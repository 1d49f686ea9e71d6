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
