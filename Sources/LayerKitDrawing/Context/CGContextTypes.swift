import Foundation

/// A colour space for bitmap contexts and images (`CGColorSpace`). LayerKit draws in sRGB only,
/// so every RGB space is the same sRGB space; the name is kept for callers that ask.
public final class CGColorSpace: Sendable {
    /// The space's name (`CGColorSpace.sRGB` for the one LayerKit draws in).
    public let name: String?

    /// The name of the standard sRGB space (`kCGColorSpaceSRGB`).
    public static let sRGB = "kCGColorSpaceSRGB"
    /// The name of the generic RGB space, treated as sRGB.
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"

    /// The named space, or `nil` for a name LayerKit does not draw in (only sRGB is known).
    public init?(name: String) {
        guard name == CGColorSpace.sRGB else { return nil }
        self.name = name
    }

    private init(deviceRGB: ()) { name = nil }

    /// The device RGB space, which is sRGB here.
    static let deviceRGB = CGColorSpace(deviceRGB: ())

    /// Colour components per pixel, alpha not counted (`numberOfComponents`): 3.
    public var numberOfComponents: Int { 3 }
}

/// The device-dependent RGB colour space (`CGColorSpaceCreateDeviceRGB`): sRGB in LayerKit.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.deviceRGB }

/// Where a bitmap's alpha channel is and whether colour is premultiplied by it
/// (`CGImageAlphaInfo`), with Core Graphics' raw values.
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha.
    case none = 0
    /// Alpha last (RGBA), colour premultiplied.
    case premultipliedLast = 1
    /// Alpha first (ARGB), colour premultiplied.
    case premultipliedFirst = 2
    /// Alpha last, colour not premultiplied.
    case last = 3
    /// Alpha first, colour not premultiplied.
    case first = 4
    /// No alpha; the last byte of each pixel is ignored (RGBX).
    case noneSkipLast = 5
    /// No alpha; the first byte of each pixel is ignored (XRGB).
    case noneSkipFirst = 6
    /// Alpha only.
    case alphaOnly = 7
}

/// A bitmap's layout: an alpha info in the low bits plus a byte order (`CGBitmapInfo`).
public struct CGBitmapInfo: OptionSet, Sendable {
    /// The raw bits, as Core Graphics packs them.
    public let rawValue: UInt32
    /// Bitmap info from its raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Bitmap info holding only an alpha info.
    public init(alphaInfo: CGImageAlphaInfo) { rawValue = alphaInfo.rawValue }

    /// The bits that hold the `CGImageAlphaInfo`.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// Components are floats (not supported by LayerKit's contexts).
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The default byte order: components in the order the alpha info names them.
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 16-bit little-endian words.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian pixels: an RGBA pixel is stored A, B, G, R.
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian words.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian pixels: the same as the default order.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// The ends of stroked open subpaths and dashes (`CGLineCap`).
public enum CGLineCap: Int32, Sendable {
    /// Flat at the end point (the default).
    case butt
    /// A half disc around the end point.
    case round
    /// A half square beyond the end point.
    case square
}

/// The corners of stroked paths (`CGLineJoin`).
public enum CGLineJoin: Int32, Sendable {
    /// A sharp corner, bevelled past the miter limit (the default).
    case miter
    /// A rounded corner.
    case round
    /// A cut corner.
    case bevel
}

extension CAShapeLayerLineCap {
    init(_ cap: CGLineCap) {
        switch cap {
            case .butt: self = .butt
                case .round: self = .round
                    case .square: self = .square
        }
    }
}

extension CAShapeLayerLineJoin {
    init(_ join: CGLineJoin) {
        switch join {
            case .miter: self = .miter
                case .round: self = .round
                    case .bevel: self = .bevel
        }
    }
}

/// Which points a fill or clip counts as inside (`CGPathFillRule`).
public enum CGPathFillRule: Int, Sendable {
    /// Inside where the winding number is not zero (the default).
    case winding
    /// Inside where the winding number is odd.
    case evenOdd
}

/// What `drawPath(using:)` paints (`CGPathDrawingMode`).
public enum CGPathDrawingMode: Int32, Sendable {
    /// Fill with the nonzero winding rule.
    case fill
    /// Fill with the even-odd rule.
    case eoFill
    /// Stroke.
    case stroke
    /// Fill (nonzero), then stroke.
    case fillStroke
    /// Fill (even-odd), then stroke.
    case eoFillStroke
}

/// How drawn colour combines with the pixels beneath (`CGBlendMode`), with Core Graphics' raw
/// values. LayerKit implements the modes listed here; the separable ones follow the PDF
/// blending formulas on premultiplied colour.
public enum CGBlendMode: Int32, Sendable {
    /// Source over (the default).
    case normal = 0
    /// Source × destination: never lighter.
    case multiply = 1
    /// 1 − (1 − source)(1 − destination): never darker.
    case screen = 2
    /// The darker of source and destination, per channel.
    case darken = 4
    /// The lighter of source and destination, per channel.
    case lighten = 5
    /// Clears the pixels drawn over (to transparent black).
    case clear = 16
    /// Replaces the pixels drawn over with the source.
    case copy = 17
    /// Source + destination, clamped.
    case plusLighter = 27
}

/// How images are resampled when drawn (`CGInterpolationQuality`).
public enum CGInterpolationQuality: Int32, Sendable {
    /// The context's default: bilinear.
    case `default` = 0
    /// Nearest pixel.
    case none = 1
    /// Bilinear.
    case low = 2
    /// Bilinear.
    case high = 3
    /// Bilinear.
    case medium = 4
}
