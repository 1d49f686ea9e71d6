import Foundation

/// A colour with components premultiplied by alpha, 0…1, sRGB-encoded.
public struct PremultipliedColor: Equatable, Sendable, CustomStringConvertible {
    /// Red × alpha.
    public var r: Float
    /// Green × alpha.
    public var g: Float
    /// Blue × alpha.
    public var b: Float
    /// Alpha.
    public var a: Float

    /// A colour from premultiplied components.
    public init(r: Float, g: Float, b: Float, a: Float) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }

    /// Premultiplies a straight `CGColor`, scaled by `opacity`.
    public init(_ c: CGColor, opacity: Float = 1) {
        let a = Float(c.alpha) * opacity
        self.init(r: Float(c.red) * a, g: Float(c.green) * a, b: Float(c.blue) * a, a: a)
    }

    /// Transparent black.
    public static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    /// `rgba(r, g, b, a)` with three decimals.
    public var description: String { String(format: "rgba(%.3f, %.3f, %.3f, %.3f)", r, g, b, a) }
}
