import Foundation

/// Which of a layer's corners `cornerRadius` rounds (`CALayer.maskedCorners`). Each name says
/// which bounds edges meet at the corner; on LayerKit's y-down canvas, as on iOS, minimum y is
/// the top, so `.layerMinXMinYCorner` is the top-left corner (on an unflipped macOS view, the
/// bottom-left).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    /// The mask's bits, as Core Animation numbers them.
    public let rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The corner at the bounds' minimum x and minimum y (top left in a layer's y-down space).
    public static let layerMinXMinYCorner = Self(rawValue: 1 << 0)
    /// The corner at maximum x, minimum y (top right).
    public static let layerMaxXMinYCorner = Self(rawValue: 1 << 1)
    /// The corner at minimum x, maximum y (bottom left).
    public static let layerMinXMaxYCorner = Self(rawValue: 1 << 2)
    /// The corner at maximum x, maximum y (bottom right).
    public static let layerMaxXMaxYCorner = Self(rawValue: 1 << 3)
    /// All four corners: `maskedCorners`' default.
    package static let all: Self = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// The curve of a layer's rounded corners (`CALayer.cornerCurve`).
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A quarter circle of `cornerRadius` (the default).
    public static let circular = Self(rawValue: "circular")
    /// Apple's continuous corner: it starts about 1.53 × `cornerRadius` from the corner and
    /// bends gradually, with no jump in curvature where it meets the straight edges (see
    /// docs/layers.md, "Continuous corners", for the curve LayerKit draws).
    public static let continuous = Self(rawValue: "continuous")
    /// Every curve Core Animation defines.
    public static let allCases: [Self] = [.circular, .continuous]
}

/// The curve LayerKit draws for a `.continuous` corner (Core Animation does not publish its
/// own): one quadrant of a superellipse `|u|^n + |v|^n = a^n` about a point `a` in from both
/// edges. For a corner whose radius is small beside the layer, `a` is `extent` × the radius,
/// where Apple's continuous corner is widely measured to start, and `n` (about 3.12) puts the
/// curve's 45° point where that measured curve has it (0.3044 × the radius in from the
/// corner); the curve meets the edges with zero curvature, as Apple's does. When the layer is
/// too small for that, `a` stops at half the shorter side and `n` moves towards 2 (a quarter
/// circle), reaching it when the radius is half the shorter side: a capsule, as `.circular`.
package enum ContinuousCorner {
    /// How far along each edge, in multiples of the radius, the continuous corner begins.
    package static let extent = 1.52866483
    /// How far in from the corner, along the diagonal, the continuous curve passes, per unit
    /// of radius (the 45° point of the measured curve).
    package static let diagonalInset = 0.30441544

    /// The superellipse's half-axis `a` along each edge for a corner of `radius` (already at
    /// most `halfSide`) in a rectangle whose shorter side is 2 × `halfSide`.
    package static func halfAxis(radius r: Double, halfSide s: Double) -> Double {
        min(extent * r, s)
    }

    /// The superellipse's exponent `n` for a corner of `radius` (> 0) whose half-axis is `a`
    /// (`halfAxis`): between the circle (a = r, n = 2) and the unconstrained curve
    /// (a = `extent` · r), the 45° point moves linearly from the circle's inset to the measured
    /// one, and n is what puts the curve through it. Per pixel only in the corners: it costs
    /// two logarithms.
    package static func exponent(radius r: Double, halfAxis a: Double) -> Double {
        let circleInset = 1 - 0.5.squareRoot()
        let t = (a / r - 1) / (extent - 1)
        let d = r * (circleInset + t * (diagonalInset - circleInset))
        return log(2) / -log(1 - d / a)
    }
}
