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

    /// An image over already premultiplied pixels.
    public init(bitmap: Bitmap, source: String = "bitmap") {
        self.bitmap = bitmap
        self.source = source
    }

    /// Decodes a PNG file (sRGB assumed, gamma and ICC chunks ignored), premultiplying on load.
    public convenience init(contentsOfPNGFile path: String) throws {
        self.init(bitmap: try Bitmap(contentsOfPNGFile: path), source: path)
    }
}

extension CGImage: Hashable {
    /// Images are equal when they are the same object: identity is what renderers cache by.
    public static func == (a: CGImage, b: CGImage) -> Bool { a === b }
    /// Hashes the object identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
