import Foundation

/// Core Foundation's array, as Core Graphics' C-based calls take it: Apple code writes
/// `[red, blue] as CFArray`, which compiles here unchanged. There is no Core Foundation on this
/// side, so it is a Swift array of anything.
public typealias CFArray = [Any]

/// A colour ramp for `CGContext.drawLinearGradient` and `drawRadialGradient` (`CGGradient`):
/// colours at locations 0…1, interpolated premultiplied in sRGB, as `CAGradientLayer`
/// interpolates (the same code).
public final class CGGradient: Sendable {
    /// The colours, in order.
    public let colors: [CGColor]
    /// Where each colour sits, 0…1; `nil` spaces them evenly from 0 to 1.
    public let locations: [CGFloat]?

    /// A gradient of `colors` at `locations` (`CGGradient(colorsSpace:colors:locations:)`);
    /// `nil` without colours, or when `locations` is given with a different count or a
    /// non-finite value. The colour space is sRGB whatever is passed.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty else { return nil }
        if let l = locations, l.count != colors.count || !l.allSatisfy(\.isFinite) { return nil }
        self.colors = colors
        self.locations = locations
    }

    /// The same gradient from Core Graphics' array form (`[red, blue] as CFArray`); `nil` also
    /// when an element is not a `CGColor`.
    public convenience init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: [CGFloat]?) {
        let cgColors = colors.compactMap { $0 as? CGColor }
        guard cgColors.count == colors.count else { return nil }
        self.init(colorsSpace: space, colors: cgColors, locations: locations)
    }
}

/// Whether a gradient also paints beyond its ends (`CGGradientDrawingOptions`).
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: UInt32
    /// Options from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Extends the first colour before the start point.
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    /// Extends the last colour after the end point.
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}
