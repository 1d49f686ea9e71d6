import CHotLoops
import Foundation

/// An immutable bitmap image used as layer `contents`.
///
/// Pixels are decoded once into premultiplied RGBA8 (sRGB-encoded). The object's identity is
/// what renderers cache textures by, so share one `CGImage` among layers that show the same
/// picture (as the benchmark scenes do) and make a new one when the pixels change.
public final class CGImage: Sendable {
    /// The decoded pixels.
    public let bitmap: Bitmap
    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }
    /// Where the image came from (a file path, or a name), for errors and dumps.
    public let source: String
    /// The smallest rectangle of pixels (x0, y0, x1, y1; x1 and y1 exclusive) holding every
    /// pixel that is not transparent black (all four channels 0), or `nil` for an image with
    /// none. Pixels outside it add nothing to what they are drawn over, so renderers need not
    /// visit them: a leaf, a glyph run or an icon is often half empty margin.
    public let inkBounds: (x0: Int, y0: Int, x1: Int, y1: Int)?
    /// `.noneSkipLast` when every pixel is opaque (alpha 255), else `.premultipliedLast`:
    /// judged from the pixels, since every image is decoded to premultiplied RGBA, so that a
    /// PNG whose alpha is all opaque counts as opaque as a JPEG does (what the blended-layers
    /// debug overlay asks).
    public let alphaInfo: CGImageAlphaInfo

    /// An image over already premultiplied pixels.
    public init(bitmap: Bitmap, source: String = "bitmap") {
        self.bitmap = bitmap
        self.source = source
        inkBounds = CGImage.inkBounds(of: bitmap)
        alphaInfo = CGImage.isOpaque(bitmap) ? .noneSkipLast : .premultipliedLast
    }

    /// Decodes a PNG file (sRGB assumed, gamma and ICC chunks ignored), premultiplying on load.
    public convenience init(contentsOfPNGFile path: String) throws {
        self.init(bitmap: try Bitmap(contentsOfPNGFile: path), source: path)
    }

    /// Decodes a JPEG file through libjpeg-turbo, turned upright as its EXIF orientation says
    /// (as `UIImage` shows a photo); JPEG has no alpha, so the image is opaque.
    public convenience init(contentsOfJPEGFile path: String) throws {
        self.init(bitmap: try Bitmap(contentsOfJPEGFile: path), source: path)
    }

    /// Decodes a PNG or a JPEG file, told apart by signature (or a `.jpg` / `.jpeg` name), as
    /// scene files' image entries are read.
    public convenience init(contentsOfFile path: String) throws {
        self.init(bitmap: try Bitmap(contentsOfFile: path), source: path)
    }
}

extension CGImage {
    /// Whether every pixel's alpha is 255 (false for an empty image). Stops at the first
    /// translucent pixel, which an image with alpha usually has in its first row.
    private static func isOpaque(_ b: Bitmap) -> Bool {
        guard b.width > 0, b.height > 0 else { return false }
        return b.pixels.withUnsafeBytes { raw in
            var i = 3
            while i < raw.count {
                if raw[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    private static func inkBounds(of b: Bitmap) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var (x0, y0, x1, y1) = (b.width, b.height, 0, 0)
        b.pixels.withUnsafeBytes { raw in
            guard let words = raw.bindMemory(to: UInt32.self).baseAddress else { return }
            for y in 0..<b.height {
                var last = 0
                let first = lk_ink_span(words + y * b.width, b.width, &last)
                guard first < b.width else { continue }
                x0 = min(x0, first)
                x1 = max(x1, last + 1)
                y0 = min(y0, y)
                y1 = y + 1
            }
        }
        return x0 < x1 ? (x0, y0, x1, y1) : nil
    }
}

extension CGImage: Hashable {
    /// Images are equal when they are the same object: identity is what renderers cache by.
    public static func == (a: CGImage, b: CGImage) -> Bool { a === b }
    /// Hashes the object identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
