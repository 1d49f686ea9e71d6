// A layer's corner rounding (cornerRadius, maskedCorners, cornerCurve) as one value, so that
// quads, clips, dumps and the GL records read the three properties the same way.
import Foundation
import LayerKitCore

/// How a rectangle's corners are rounded: a layer's `cornerRadius`, `maskedCorners` and
/// `cornerCurve`.
public struct Corners: Equatable, Sendable {
    /// The corner radius (clamped to half the shorter side where it is drawn).
    public var radius: Double
    /// The corners that are rounded; the others are square.
    public var mask: CACornerMask
    /// Whether the corners follow `ContinuousCorner`'s curve instead of a quarter circle.
    public var continuous: Bool

    /// Square corners.
    public static let square = Corners(radius: 0)

    /// Corners of `radius`, on the corners of `mask`, with `curve`.
    package init(radius: Double, mask: CACornerMask = .all, curve: CALayerCornerCurve = .circular) {
        self.radius = radius
        self.mask = mask
        continuous = curve == .continuous
    }

    /// A layer's corners.
    public init(_ p: LayerProperties) {
        self.init(radius: Double(max(p.cornerRadius, 0)), mask: p.maskedCorners, curve: p.cornerCurve)
    }

    /// The same corners with the radius reduced by `inset` (a border's inner edge).
    public func inset(by inset: Double) -> Corners {
        var c = self
        c.radius = max(radius - inset, 0)
        return c
    }

    /// Whether no corner is rounded.
    public var isSquare: Bool { !(radius > 0) || mask.isEmpty }

    /// Whether some corner is rounded with the continuous curve.
    public var isContinuous: Bool { continuous && !isSquare }

    /// How far along each edge the rounding of a rectangle of half-sides `hw`, `hh` reaches at
    /// most (0 when square).
    public func extent(hw: Double, hh: Double) -> Double {
        guard !isSquare else { return 0 }
        let s = min(hw, hh), r = min(radius, s)
        return continuous ? ContinuousCorner.halfAxis(radius: r, halfSide: s) : r
    }

    /// `radius R`, then which corners when not all four, then `continuous` when so, each number
    /// written by `format` (for dumps).
    public func describe(_ format: (Double) -> String) -> String {
        let names: [(CACornerMask, String)] = [(.layerMinXMinYCorner, "minXminY"), (.layerMaxXMinYCorner, "maxXminY"),
                                               (.layerMinXMaxYCorner, "minXmaxY"), (.layerMaxXMaxYCorner, "maxXmaxY")]
        let which = mask == .all ? "" : " corners [" + names.filter { mask.contains($0.0) }.map(\.1).joined(separator: " ") + "]"
        return "radius \(format(radius))" + which + (continuous ? " continuous" : "")
    }

    /// The bits of the corners left square, plus 16 for the continuous curve: what the GL
    /// records carry (0 is Core Animation's default, all four round and circular).
    package var code: Int { Int(CACornerMask.all.subtracting(mask).rawValue) + (continuous ? 16 : 0) }
}
