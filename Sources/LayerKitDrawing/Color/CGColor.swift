import Foundation

/// A colour in the sRGB space, with straight (not premultiplied) components in 0…1.
///
/// Core Graphics' `CGColor` is a reference type; here it is a small value, since a colour never
/// changes after it is made. Renderers premultiply when they draw.
public struct CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…1, sRGB-encoded.
    public let red: CGFloat
    /// Green, 0…1, sRGB-encoded.
    public let green: CGFloat
    /// Blue, 0…1, sRGB-encoded.
    public let blue: CGFloat
    /// Alpha (opacity), 0…1.
    public let alpha: CGFloat

    /// A colour from sRGB components; values are clamped to 0…1 and NaN becomes 0, so a colour
    /// is always drawable.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// A grey (`CGColor(gray:alpha:)`).
    public init(gray: CGFloat, alpha: CGFloat) { self.init(red: gray, green: gray, blue: gray, alpha: alpha) }

    /// The components as Core Graphics lists them: red, green, blue, alpha.
    public var components: [CGFloat] { [red, green, blue, alpha] }

    /// Opaque black (`CGColor.black`), the default border and shadow colour.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// `#RRGGBBAA`, the scene-file spelling.
    public var description: String {
        func hex(_ v: CGFloat) -> String { String(format: "%02X", Int((v * 255).rounded())) }
        return "#" + hex(red) + hex(green) + hex(blue) + hex(alpha)
    }
}
