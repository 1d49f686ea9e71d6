// What a quad draws where it covers: a colour, an image mapped per axis onto its texels
// (contentsRect, gravity and nine-slice in one form), or another pass (masks, shadows,
// transitions). Kept together because a backend's sampling code reads them as one family.
import Foundation
import LayerKitCore

/// How a quad is filled where it covers.
public enum Fill: Equatable, Sendable {
    /// A solid colour.
    case color(PremultipliedColor)
    /// An image sampled through per-axis maps, with the layer's filters.
    case image(ImageFill)
    /// Another pass's pixels: `rect` of the quad maps onto the whole pass at `scale` pixels per
    /// unit; optionally multiplied by a mask pass's alpha (same size), cross-faded with another
    /// pass (same size, a transition), or reduced to alpha tinted with `tint` (shadows).
    case pass(PassFill)
}

/// An image fill: `contents` fitted by gravity, `contentsRect` and `contentsCenter`.
public struct ImageFill: Equatable, Sendable {
    /// The image.
    public var image: CGImage
    /// Local x → texel x.
    public var x: AxisMap
    /// Local y → texel y.
    public var y: AxisMap
    /// Filter when a texel covers less than a pixel.
    public var minification: CALayerContentsFilter
    /// Filter when a texel covers more than a pixel.
    public var magnification: CALayerContentsFilter
    /// Multiplies every sampled (premultiplied) pixel channel by channel: a particle's colour
    /// (`EmitterParticle`), premultiplied; opaque white, which changes nothing, for contents.
    public var modulation: PremultipliedColor

    /// Opaque white: no modulation.
    public static let unmodulated = PremultipliedColor(r: 1, g: 1, b: 1, a: 1)

    /// Creates an image fill.
    public init(image: CGImage, x: AxisMap, y: AxisMap, minification: CALayerContentsFilter, magnification: CALayerContentsFilter,
                modulation: PremultipliedColor = unmodulated) {
        self.image = image
        self.x = x
        self.y = y
        self.minification = minification
        self.magnification = magnification
        self.modulation = modulation
    }
}

/// One axis of the map from a layer's bounds space to image texels: piecewise linear through
/// `stops` (local coordinates, increasing) onto `texels` (pixel edges of the image), with one
/// segment for plain contents and three for a nine-slice `contentsCenter`.
public struct AxisMap: Equatable, Sendable {
    /// Local coordinates where segments start and end.
    public var stops: [Double]
    /// The texel coordinate at each stop.
    public var texels: [Double]

    /// Creates a map; `stops` and `texels` have the same count, at least 2.
    public init(stops: [Double], texels: [Double]) {
        self.stops = stops
        self.texels = texels
    }

    /// The texel coordinate of local coordinate `v` (extended linearly beyond the ends).
    @inline(__always)
    public func texel(_ v: Double) -> Double {
        var i = 0
        while i < stops.count - 2 && v >= stops[i + 1] { i += 1 }
        let d = stops[i + 1] - stops[i]
        if d == 0 { return texels[i] }
        return texels[i] + (v - stops[i]) * (texels[i + 1] - texels[i]) / d
    }

    /// The smallest local interval outside which every texel coordinate falls outside
    /// `lo...hi` (the map is extended linearly beyond its ends, as `texel` is), or `nil` when no
    /// local coordinate maps into it.
    public func preimage(_ lo: Double, _ hi: Double) -> (lo: Double, hi: Double)? {
        var out: (lo: Double, hi: Double)?
        for i in 0..<(stops.count - 1) {
            let d = stops[i + 1] - stops[i]
            if d == 0 { continue }
            let k = (texels[i + 1] - texels[i]) / d
            let from = i == 0 ? -Double.infinity : stops[i], to = i == stops.count - 2 ? Double.infinity : stops[i + 1]
            var a = from, b = to
            if k == 0 {
                guard texels[i] >= lo && texels[i] <= hi else { continue }
            } else {
                let va = stops[i] + (lo - texels[i]) / k, vb = stops[i] + (hi - texels[i]) / k
                a = max(a, min(va, vb))
                b = min(b, max(va, vb))
                guard a <= b else { continue }
            }
            out = out.map { (min($0.lo, a), max($0.hi, b)) } ?? (a, b)
        }
        return out
    }

    /// Texels per local unit in the segment containing `v`.
    @inline(__always)
    public func slope(_ v: Double) -> Double {
        var i = 0
        while i < stops.count - 2 && v >= stops[i + 1] { i += 1 }
        let d = stops[i + 1] - stops[i]
        return d == 0 ? 0 : (texels[i + 1] - texels[i]) / d
    }
}

/// A fill from an offscreen pass.
public struct PassFill: Equatable, Sendable {
    /// The pass sampled.
    public var pass: Int
    /// Pass pixels per local unit (the quad's rect origin is the pass's top-left).
    public var scale: Double
    /// A pass whose alpha multiplies the result (a mask), or `nil`.
    public var mask: Int?
    /// When set, the result is this colour times the sampled alpha (a shadow).
    public var tint: PremultipliedColor?
    /// When set, another pass (same size) the sampled colour is cross-faded with; a fill has a
    /// mask or a cross-fade, not both (the backends sample both from one texture unit).
    public var crossfade: PassCrossfade?

    /// Creates a pass fill.
    public init(pass: Int, scale: Double, mask: Int? = nil, tint: PremultipliedColor? = nil, crossfade: PassCrossfade? = nil) {
        precondition(mask == nil || crossfade == nil, "a pass fill has a mask or a cross-fade")
        self.pass = pass
        self.scale = scale
        self.mask = mask
        self.tint = tint
        self.crossfade = crossfade
    }
}

/// A cross-fade of a pass fill into another pass (a `CATransition` of type `.fade`): the colour
/// is `source × (1 − fraction) + other × fraction`, premultiplied, sampled at the same point.
public struct PassCrossfade: Equatable, Sendable {
    /// The pass faded to.
    public var pass: Int
    /// How far, 0 (the fill's own pass) to 1 (`pass`).
    public var fraction: Float

    /// Creates a cross-fade.
    public init(pass: Int, fraction: Float) {
        self.pass = pass
        self.fraction = fraction
    }
}
