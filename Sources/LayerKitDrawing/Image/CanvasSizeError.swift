import Foundation

/// A canvas larger than LayerKit draws: more than `maximumSide` pixels a side. Both renderers
/// throw it before allocating anything for the canvas (16384² RGBA is already 1 GiB), so a
/// program that asks for a 400 pt canvas at scale 100 gets this error, not a 6.4 GB bitmap.
public struct CanvasSizeError: Error, Equatable, CustomStringConvertible {
    /// The longest canvas side, in pixels, that LayerKit renders.
    public static let maximumSide = 16384

    /// The canvas width asked for, in pixels.
    public var width: Double
    /// The canvas height asked for, in pixels.
    public var height: Double
    /// The pixels per point that made that size, when known.
    public var scale: Double?

    /// The error for a canvas of `width` x `height` pixels (made at `scale`, when known).
    public init(width: Double, height: Double, scale: Double? = nil) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// `canvas of 32000x20000 px at scale 100.0 is over the limit of 16384 px a side`.
    public var description: String {
        let size = String(format: "%.0fx%.0f", width, height)
        return "canvas of \(size) px\(scale.map { " at scale \($0)" } ?? "") is over the limit of \(Self.maximumSide) px a side"
    }

    /// Throws unless a canvas of `width` x `height` points at `scale` pixels per point (each
    /// side rounded) is within `maximumSide`; with no scale, the sizes are pixels already.
    public static func check(width: Double, height: Double, scale: Double? = nil) throws {
        let w = (width * (scale ?? 1)).rounded(), h = (height * (scale ?? 1)).rounded()
        let limit = Double(maximumSide)
        guard w <= limit, h <= limit else { throw CanvasSizeError(width: w, height: h, scale: scale) }
    }

    /// `points` × `scale` rounded to whole pixels, at least 1, saturating instead of trapping
    /// where the product is not a representable pixel count (the renderers then refuse it).
    public static func pixels(_ points: Double, scale: Double) -> Int {
        let v = (points * scale).rounded()
        return v >= 1 ? Int(min(v, Double(Int32.max))) : 1
    }
}
