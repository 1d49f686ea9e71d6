import Foundation
import LayerKitCore

/// The only thing a backend sees: what to draw, in which order, into which surfaces.
///
/// A display list is an ordered list of render passes. Every pass but the last is an offscreen
/// surface that a later pass samples (group opacity, masks, shadows, `shouldRasterize`); the
/// last pass is the canvas. A pass is either a list of quads drawn in painter's order with
/// premultiplied source-over blending, or a one-dimensional Gaussian blur of an earlier pass.
///
/// Every quad carries the full 4x4 from its layer's bounds space to its pass's pixels (y down,
/// origin top-left) and the inverse plane homography from pass pixels back to that space, so a
/// backend evaluates the same per-pixel function everywhere: map the pixel centre to local
/// coordinates, decide coverage there (shape, corner radius, clips), sample the fill, blend.
public struct DisplayList: Equatable, Sendable {
    /// The passes, each before the passes that sample it; the last is the canvas.
    public var passes: [RenderPass] { didSet { lineage = nil } }
    /// The canvas pass's size in pixels.
    public var width: Int
    /// The canvas pass's size in pixels.
    public var height: Int
    /// What the canvas is cleared to.
    public var background: PremultipliedColor

    /// Set by `FrameCompositor` on the lists it builds: which list this is, and which canvas
    /// quads may differ from the list it built before. Any edit of `passes` drops it, so that
    /// it never speaks for quads it did not see; it takes no part in `==`.
    package private(set) var lineage: Lineage?

    /// A list's place in `FrameCompositor`'s sequence of lists.
    package struct Lineage: Sendable {
        /// This list, by identity (`DisplayList` is a value, so it is given one).
        let token: Token
        /// The list built before this one, and the canvas quad indices, ascending and disjoint,
        /// whose quads may differ from that list's at the same index; at every other index the
        /// two canvases hold equal quads, and they hold as many. `nil` when unknown (either
        /// list has offscreen passes, or the canvases hold different numbers of quads).
        let changes: (base: Token, ranges: [Range<Int>])?
    }

    /// An identity for a list, held by it so that it is not reused while the list lives.
    package final class Token: Sendable {
        package init() {}
    }

    /// Marks this list as following `base` with canvas quads differing from it at most in
    /// `ranges` (see `Lineage`; `nil` ranges: unknown).
    package mutating func follow(_ base: DisplayList?, ranges: [Range<Int>]?) {
        var changes: (base: Token, ranges: [Range<Int>])?
        if let token = base?.lineage?.token, let ranges { changes = (token, ranges) }
        lineage = Lineage(token: Token(), changes: changes)
    }

    /// The canvas quad indices whose quads may differ from `earlier`'s at the same index, as
    /// ascending disjoint ranges, where the lineage says (the two canvases then hold as many
    /// quads; an empty array when this is `earlier` itself); `nil` when it does not, and the
    /// quads must be compared. What both backends' damage and the GL records follow.
    package func canvasChanges(since earlier: DisplayList) -> [Range<Int>]? {
        guard let mine = lineage, let theirs = earlier.lineage?.token else { return nil }
        if mine.token === theirs { return [] }
        guard let c = mine.changes, c.base === theirs else { return nil }
        return c.ranges
    }

    /// The same passes, size and background; the lineage is not compared.
    public static func == (a: DisplayList, b: DisplayList) -> Bool {
        a.passes == b.passes && a.width == b.width && a.height == b.height && a.background == b.background
    }

    /// The canvas pass.
    public var canvas: RenderPass { passes[passes.count - 1] }

    /// Quads in all passes.
    public var quadCount: Int { passes.reduce(0) { $0 + $1.quads.count } }

    /// The lifetime of every offscreen pass: the index of the last pass that reads it, or `nil`
    /// for one that nothing reads (the canvas). A backend makes a pass's target just before the
    /// pass draws and frees it (or returns it to a pool) as soon as its last reader has drawn,
    /// so a frame holds only the targets still to be read, not every target it drew.
    public var lastReaders: [Int?] {
        var last = [Int?](repeating: nil, count: passes.count)
        // A pass reads only earlier passes: a lone canvas reads none (and its quads, 10,000 of
        // them in a big scene, need not be looked at every frame).
        guard passes.count > 1 else { return last }
        for pass in passes {
            for s in pass.sources where s >= 0 && s < pass.index { last[s] = max(last[s] ?? s, pass.index) }
        }
        return last
    }

    /// The most bytes of offscreen targets (RGBA8) held at once when every target lives from
    /// its pass to its last reader (`lastReaders`): what the compositor bounds with
    /// `Compositor.offscreenMemoryBudget`.
    public var peakOffscreenBytes: Int {
        let last = lastReaders
        var freedAfter = [Int](repeating: 0, count: passes.count)
        for (i, reader) in last.enumerated() where i < passes.count - 1 { freedAfter[reader ?? i] += passes[i].bytes }
        var live = 0, peak = 0
        for pass in passes.dropLast() {
            live += pass.bytes
            peak = max(peak, live)
            live -= freedAfter[pass.index]
        }
        return peak
    }

    /// Creates a display list.
    public init(passes: [RenderPass], width: Int, height: Int, background: PremultipliedColor) {
        self.passes = passes
        self.width = width
        self.height = height
        self.background = background
    }
}

/// One surface and what is drawn into it.
public struct RenderPass: Equatable, Sendable {
    /// Why an offscreen pass exists (or that it is the canvas), for dumps and counters.
    public enum Purpose: String, Sendable {
        /// The output.
        case canvas
        /// A subtree composited before its opacity is applied.
        case groupOpacity
        /// A subtree that a mask multiplies.
        case maskedContent
        /// The rendering of a mask layer (only its alpha is used).
        case mask
        /// A subtree whose alpha casts a shadow.
        case shadowSource
        /// One direction of a shadow's blur.
        case shadowBlur
        /// A shadow's source reduced for a wide blur.
        case shadowDownsample
        /// A subtree rendered once at `rasterizationScale` (`shouldRasterize`).
        case rasterized
        /// A layer's subtree as last drawn before a `CATransition` was added (the old rendering).
        case transitionFrom
        /// A layer's subtree as it is now, during a transition (the new rendering).
        case transitionTo
        /// The two renderings of a moving transition composed (drawn back with the layer's
        /// opacity).
        case transition
    }

    /// What fills the pass.
    public enum Content: Equatable, Sendable {
        /// Quads drawn in order over transparent black.
        case quads([DrawQuad])
        /// A Gaussian blur of pass `source` (same size) along x or y; `weights[0]` is the
        /// centre tap and `weights[i]` the taps at ±i pixels. Pixels outside the source are
        /// transparent.
        case blur(source: Int, horizontal: Bool, weights: [Float])
        /// Pass `source` reduced `factor` times along each axis: pixel (x, y) is the mean of the
        /// source's `factor` x `factor` block from (`factor`·x, `factor`·y), where pixels outside
        /// the source are transparent (so the pass is ⌈source size / factor⌉). A wide blur runs
        /// on such a pass, as Skia and Chromium do, so that its cost does not grow with sigma.
        case downsample(source: Int, factor: Int)
    }

    /// Index of this pass in `DisplayList.passes`.
    public var index: Int
    /// Why it exists.
    public var purpose: Purpose
    /// Size in pixels.
    public var width: Int
    /// Size in pixels.
    public var height: Int
    /// What it draws.
    public var content: Content
    /// The layer it belongs to, for dumps.
    public var label: String

    /// The quads, or none for a blur or downsample pass.
    public var quads: [DrawQuad] {
        if case .quads(let q) = content { return q }
        return []
    }

    /// The earlier passes this pass reads: those its quads fill from or are masked by, or the
    /// one it blurs or downsamples.
    public var sources: [Int] {
        switch content {
        case .quads(let quads):
            return quads.flatMap { q -> [Int] in
                guard case .pass(let f) = q.fill else { return [] }
                return [f.pass] + (f.mask.map { [$0] } ?? []) + (f.crossfade.map { [$0.pass] } ?? [])
            }
        case .blur(let source, _, _), .downsample(let source, _):
            return [source]
        }
    }

    /// Bytes of the pass's target: RGBA, 8 bits a channel.
    public var bytes: Int { width * height * 4 }

    /// Creates a pass.
    public init(index: Int, purpose: Purpose, width: Int, height: Int, content: Content, label: String) {
        self.index = index
        self.purpose = purpose
        self.width = width
        self.height = height
        self.content = content
        self.label = label
    }
}

/// A row-vector 3x3 projective map of the plane: `[x y 1] · M`, then divide by the third
/// component. Pass pixels → a layer's bounds plane.
public struct PlaneMap: Equatable, Sendable, CustomStringConvertible {
    /// Entries in row-major order: m11 m12 m13 / m21 m22 m23 / m31 m32 m33.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The map with these entries (row-major).
    public init(_ m11: Double, _ m12: Double, _ m13: Double, _ m21: Double, _ m22: Double, _ m23: Double,
                _ m31: Double, _ m32: Double, _ m33: Double) {
        m = (m11, m12, m13, m21, m22, m23, m31, m32, m33)
    }

    /// The inverse of `t`'s plane homography (rows/columns 1, 2, 4): pixels → the plane z = 0
    /// of the space `t` maps from. `nil` when the plane is seen edge-on.
    public init?(inverseOf t: CATransform3D) {
        let (a, b, c) = (Double(t.m11), Double(t.m12), Double(t.m14))
        let (d, e, f) = (Double(t.m21), Double(t.m22), Double(t.m24))
        let (g, h, i) = (Double(t.m41), Double(t.m42), Double(t.m44))
        let c0 = e * i - f * h, c1 = f * g - d * i, c2 = d * h - e * g
        let det = a * c0 + b * c1 + c * c2
        guard !t.planeHomographyIsSingular(determinant: det) else { return nil }
        let inv = 1 / det
        self.init(c0 * inv, (c * h - b * i) * inv, (b * f - c * e) * inv,
                  c1 * inv, (a * i - c * g) * inv, (c * d - a * f) * inv,
                  c2 * inv, (b * g - a * h) * inv, (a * e - b * d) * inv)
    }

    /// Maps a point; the third component comes back as `w` (its sign tells front from back).
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double, w: Double) {
        (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
    }

    /// The nine entries, row-major.
    public var entries: [Double] { [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] }

    /// Equal entries.
    public static func == (a: PlaneMap, b: PlaneMap) -> Bool { a.entries == b.entries }

    /// Readable rows.
    public var description: String {
        let e = entries.map { String(format: "%.6g", $0) }
        return "[\(e[0]) \(e[1]) \(e[2]); \(e[3]) \(e[4]) \(e[5]); \(e[6]) \(e[7]) \(e[8])]"
    }
}

/// How a rectangle's corners are rounded: a layer's `cornerRadius`, `maskedCorners` and
/// `cornerCurve`.
public struct Corners: Equatable, Sendable {
    /// The corner radius (clamped to half the shorter side where it is drawn).
    public var radius: Double
    /// The corners that are rounded; the others are square.
    public var mask: CACornerMask
    /// Whether the corners follow `ContinuousCorner`'s curve instead of a quarter circle.
    public var continuous: Bool

    /// Square corners.
    public static let square = Corners(radius: 0)

    /// Corners of `radius`, on the corners of `mask`, with `curve`.
    package init(radius: Double, mask: CACornerMask = .all, curve: CALayerCornerCurve = .circular) {
        self.radius = radius
        self.mask = mask
        continuous = curve == .continuous
    }

    /// A layer's corners.
    public init(_ p: LayerProperties) {
        self.init(radius: Double(max(p.cornerRadius, 0)), mask: p.maskedCorners, curve: p.cornerCurve)
    }

    /// The same corners with the radius reduced by `inset` (a border's inner edge).
    public func inset(by inset: Double) -> Corners {
        var c = self
        c.radius = max(radius - inset, 0)
        return c
    }

    /// Whether no corner is rounded.
    public var isSquare: Bool { !(radius > 0) || mask.isEmpty }

    /// Whether some corner is rounded with the continuous curve.
    public var isContinuous: Bool { continuous && !isSquare }

    /// How far along each edge the rounding of a rectangle of half-sides `hw`, `hh` reaches at
    /// most (0 when square).
    public func extent(hw: Double, hh: Double) -> Double {
        guard !isSquare else { return 0 }
        let s = min(hw, hh), r = min(radius, s)
        return continuous ? ContinuousCorner.halfAxis(radius: r, halfSide: s) : r
    }

    /// `radius R`, then which corners when not all four, then `continuous` when so, each number
    /// written by `format` (for dumps).
    public func describe(_ format: (Double) -> String) -> String {
        let names: [(CACornerMask, String)] = [(.layerMinXMinYCorner, "minXminY"), (.layerMaxXMinYCorner, "maxXminY"),
                                               (.layerMinXMaxYCorner, "minXmaxY"), (.layerMaxXMaxYCorner, "maxXmaxY")]
        let which = mask == .all ? "" : " corners [" + names.filter { mask.contains($0.0) }.map(\.1).joined(separator: " ") + "]"
        return "radius \(format(radius))" + which + (continuous ? " continuous" : "")
    }

    /// The bits of the corners left square, plus 16 for the continuous curve: what the GL
    /// records carry (0 is Core Animation's default, all four round and circular).
    package var code: Int { Int(CACornerMask.all.subtracting(mask).rawValue) + (continuous ? 16 : 0) }
}

/// A region that limits a quad, evaluated per pixel in the plane of the layer that set it.
public struct Clip: Equatable, Sendable, CustomStringConvertible {
    /// What the region is.
    public enum Shape: Equatable, Sendable {
        /// Inside a rectangle with corners rounded by a radius (`masksToBounds`); straight
        /// edges follow `antialiased`, curves are always antialiased.
        case roundedRect(CGRect, corners: Corners, antialiased: Bool)
        /// Where `a·x + b·y + c ≥ 0` (one side of a plane that split this layer in 3D sorting).
        case halfPlane(a: Double, b: Double, c: Double)
    }
    /// Pass pixels → the clipping layer's bounds plane.
    public var map: PlaneMap
    /// The region in that plane.
    public var shape: Shape

    /// Creates a clip.
    public init(map: PlaneMap, shape: Shape) {
        self.map = map
        self.shape = shape
    }

    /// For dumps.
    public var description: String {
        switch shape {
        case let .roundedRect(r, corners, aa):
            return "clip rect(\(r.minX), \(r.minY), \(r.width), \(r.height)) \(corners.describe { "\($0)" })\(aa ? " aa" : "") via \(map)"
        case let .halfPlane(a, b, c):
            return "clip half-plane \(a)·x + \(b)·y + \(c) ≥ 0 via \(map)"
        }
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

    /// Creates an image fill.
    public init(image: CGImage, x: AxisMap, y: AxisMap, minification: CALayerContentsFilter, magnification: CALayerContentsFilter) {
        self.image = image
        self.x = x
        self.y = y
        self.minification = minification
        self.magnification = magnification
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

/// One textured quad: a rectangle in a layer's bounds space, its transform to pass pixels, its
/// coverage rule, fill, opacity and clips.
public struct DrawQuad: Equatable, Sendable {
    /// Which part of coverage the quad's rect takes.
    public enum Shape: Equatable, Sendable {
        /// The rectangle with its corners rounded as `corners` say.
        case rect(corners: Corners)
        /// A ring inside the rectangle of `width`, following `corners` on the outside and the
        /// same corners with the radius less `width` (not below 0) on the inside (a border).
        case border(width: Double, corners: Corners)
    }

    /// Local (bounds space) → pass pixels; backends upload it as is.
    public var transform: CATransform3D
    /// Pass pixels → the local plane (inverse of `transform`'s plane homography).
    public var inverse: PlaneMap
    /// The quad's extent in local coordinates.
    public var rect: CGRect
    /// Coverage within `rect`.
    public var shape: Shape
    /// What is drawn.
    public var fill: Fill
    /// Multiplies the fill.
    public var opacity: Float
    /// Whether the straight edges of `rect` are antialiased (curves always are).
    public var antialiased: Bool
    /// Regions outside which nothing is drawn.
    public var clips: [Clip]
    /// The layer, for dumps and profiles.
    public var label: String

    /// Whether the quad's own coverage (clips aside) is only ever 0 or 1: straight edges aliased
    /// and corners square, so a pixel counts exactly when its centre is inside.
    public var hasBinaryCoverage: Bool {
        switch shape {
        case .rect(let corners), .border(_, let corners): return !antialiased && corners.isSquare
        }
    }

    /// Creates a quad.
    public init(transform: CATransform3D, inverse: PlaneMap, rect: CGRect, shape: Shape, fill: Fill,
                opacity: Float, antialiased: Bool, clips: [Clip], label: String) {
        self.transform = transform
        self.inverse = inverse
        self.rect = rect
        self.shape = shape
        self.fill = fill
        self.opacity = opacity
        self.antialiased = antialiased
        self.clips = clips
        self.label = label
    }
}
