import CHotLoops

/// A premultiplied RGBA8 pixel buffer, rows top to bottom: the currency of images in LayerKit.
///
/// Layer contents (`CGImage`) are decoded into bitmaps, both renderers produce them, and the
/// tests compare them. Channels are 8-bit sRGB-encoded values with colour premultiplied by alpha,
/// the format Core Animation composites in.
public struct Bitmap: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, premultiplied, rows top to bottom.
    public var pixels: [UInt8]

    /// A bitmap of the given size filled with transparent black.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// A bitmap over existing premultiplied pixels; `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "Bitmap pixel count does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The premultiplied RGBA of the pixel at column `x`, row `y` (top-left origin).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

extension Bitmap {
    /// Source-over of `color` (premultiplied) at `coverage`/255 onto pixel `i`, through
    /// `lk_blend_run`, the one definition of the blend that the CPU renderer uses too, so drawn
    /// contents round exactly as rendered layers do.
    package mutating func blend(_ color: PremultipliedColor, coverage: UInt8, pixel i: Int) {
        blend(color, coverage: coverage, pixels: i..<(i + 1))
    }

    /// Source-over of `color` at `coverage`/255 onto the pixels `range` (indices along rows),
    /// in one call.
    package mutating func blend(_ color: PremultipliedColor, coverage: UInt8, pixels range: Range<Int>) {
        pixels.withUnsafeMutableBufferPointer { p in Self.blend(color, coverage: coverage, count: range.count, at: p.baseAddress! + range.lowerBound * 4) }
    }

    /// Source-over of `color` at `coverage`/255 onto `count` pixels at `pixels`, for callers
    /// that blend many runs of one bitmap while holding its memory.
    package static func blend(_ color: PremultipliedColor, coverage: UInt8, count: Int, at pixels: UnsafeMutablePointer<UInt8>) {
        let k = Float(coverage) / 255
        lk_blend_run(pixels, count, color.r * k * 255, color.g * k * 255, color.b * k * 255, color.a * k * 255, 1 - color.a * k)
    }
}
