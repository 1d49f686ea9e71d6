import Foundation

/// A Quartz 2D drawing destination (`CGContext`): here, a bitmap context over RGBA8 pixels.
///
/// As on Apple platforms, user space starts with its origin at the bottom left and y up (the
/// `ctm` starts as the identity; the context flips onto its top-down rows itself). Paths are
/// built in user space and transformed by the CTM as each element is added, so changing the
/// CTM later does not move them. Fills and strokes go through LayerKit's one rasterizer
/// (`PathRasterizer`, with strokes outlined by `PathStroker` under the CTM at stroke time),
/// antialiased, clipped by the clip of the graphics state and blended by the blend mode.
/// Non-finite numbers (NaN or infinite coordinates, transforms, widths) are ignored.
open class CGContext {
    /// The pixels, top row first, premultiplied RGBA: where drawing happens. When there is
    /// `memory`, the bitmap is a working copy kept in step with it before and after each
    /// drawing call; without it (a premultiplied RGBA context that made its own memory and has
    /// not been asked for `data`) the bitmap is the only copy, drawn into directly, and
    /// `makeImage()` shares it (copied only if the context draws again).
    var bitmap: Bitmap
    /// The caller's memory, or memory the context made for `data`; `nil` while the bitmap is
    /// the only copy.
    var memory: UnsafeMutableRawPointer?
    private var ownsMemory = false
    let layout: PixelLayout

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the next in `data`.
    public let bytesPerRow: Int
    /// Bits per colour component: 8.
    public let bitsPerComponent: Int = 8
    /// Bits per pixel: 32.
    public let bitsPerPixel: Int = 32
    /// The colour space the context was made with.
    public let colorSpace: CGColorSpace?
    /// The pixel layout the context was made with.
    public let bitmapInfo: CGBitmapInfo
    /// The alpha info part of `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo { layout.alphaInfo }
    /// The pixel memory: the caller's, or memory the context owns for its lifetime (made, with
    /// the pixels drawn so far, when first asked for; from then on kept in step with drawing).
    public var data: UnsafeMutableRawPointer? {
        if let memory { return memory }
        let made = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: 16)
        memory = made
        ownsMemory = true
        store(everyPixel)
        return made
    }

    struct GState {
        var ctm = CGAffineTransform.identity
        var fill = PremultipliedColor(r: 0, g: 0, b: 0, a: 1)
        var stroke = PremultipliedColor(r: 0, g: 0, b: 0, a: 1)
        var alpha: Float = 1
        var lineWidth: Double = 1
        var lineCap = CGLineCap.butt
        var lineJoin = CGLineJoin.miter
        var miterLimit: Double = 10
        var dashes: [Double]? = nil
        var dashPhase: Double = 0
        var blendMode = CGBlendMode.normal
        var antialias = true
        var interpolationQuality = CGInterpolationQuality.default
        /// Coverage 0…255 per pixel that drawing is limited to; `nil` for no clip.
        var clip: [UInt8]? = nil
        var shadow: Shadow? = nil
    }

    /// A shadow in base space: whole pixels of offset (y up, as the context's device space),
    /// the Gaussian's sigma in pixels and the premultiplied colour.
    struct Shadow {
        let dx: Int, dy: Int
        let sigma: Double
        let color: PremultipliedColor
    }
    var state = GState()
    var stack: [GState] = []
    /// The current path, in device space (y up, in pixels).
    var devicePath = CGMutablePath()

    /// Base space to device space (its linear part counts): the space that shadow offsets and
    /// blurs are given in, whatever the CTM. The identity for a bitmap context made with
    /// `CGContext(data:…)` (base space is its pixels, y up); a layer's `draw(in:)` context makes
    /// it the layer's points, y down, at `contentsScale` pixels each, as a layer's context on iOS
    /// has it (a positive height moves the shadow down there).
    package var baseTransform = CGAffineTransform.identity

    /// Where the next text is drawn, in user space, through `textMatrix` (`textPosition`); the
    /// pen moves along as text is drawn. Not part of the graphics state, as in Core Graphics.
    public var textPosition = CGPoint.zero

    /// The transform from text space (glyph outlines in units of the font size, y up) to user
    /// space, before `textPosition` (`textMatrix`): the identity draws text upright in a y-up
    /// context; code written for a flipped (y-down) context sets it to
    /// `CGAffineTransform(scaleX: 1, y: -1)`, as it does on Apple platforms. Not part of the
    /// graphics state, as in Core Graphics.
    public var textMatrix = CGAffineTransform.identity

    /// A bitmap context over `data` (or over memory it allocates when `data` is `nil`), as
    /// `CGBitmapContextCreate`. Supported: 8 bits per component in an RGB space, with alpha info
    /// `premultipliedLast`, `premultipliedFirst`, `noneSkipLast` or `noneSkipFirst`, in the
    /// default/32-bit big or 32-bit little byte order. Anything else, an empty or over-large
    /// size (more than `CanvasSizeError.maximumSide` a side), or a `bytesPerRow` below
    /// `4 × width` gives `nil`. With `data == nil` a `bytesPerRow` of 0 means `4 × width`.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: UInt32) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard bitsPerComponent == 8, space.numberOfComponents == 3,
              width > 0, height > 0, width <= CanvasSizeError.maximumSide, height <= CanvasSizeError.maximumSide,
              let layout = PixelLayout(info) else { return nil }
        let rowBytes = data == nil && bytesPerRow == 0 ? width * 4 : bytesPerRow
        guard rowBytes >= width * 4, rowBytes <= Int(Int32.max) / height else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.colorSpace = space
        self.bitmapInfo = info
        self.layout = layout
        bitmap = Bitmap(width: width, height: height)
        // Premultiplied RGBA memory of its own: the bitmap is that memory until `data` is asked for.
        if data == nil && isRGBA && rowBytes == width * 4 { return }
        if let data {
            memory = data
        } else {
            // Another layout: zeroed memory of its own, read as a caller's is (skipped alpha
            // reads as opaque).
            let made = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 16)
            made.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            memory = made
            ownsMemory = true
        }
        load(everyPixel)
    }

    deinit { if ownsMemory { memory?.deallocate() } }
}
