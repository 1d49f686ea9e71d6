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
    private var bitmap: Bitmap
    /// The caller's memory, or memory the context made for `data`; `nil` while the bitmap is
    /// the only copy.
    private var memory: UnsafeMutableRawPointer?
    private var ownsMemory = false
    private let layout: PixelLayout

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

    private struct GState {
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
    private struct Shadow {
        let dx: Int, dy: Int
        let sigma: Double
        let color: PremultipliedColor
    }
    private var state = GState()
    private var stack: [GState] = []
    /// The current path, in device space (y up, in pixels).
    private var devicePath = CGMutablePath()

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

    // MARK: Pixel memory

    /// Where R, G, B and A lie within a pixel's four bytes (A `nil` when skipped: opaque).
    private struct PixelLayout {
        let alphaInfo: CGImageAlphaInfo
        let r: Int, g: Int, b: Int, a: Int?
        /// The byte that is skipped, written as 255.
        let skip: Int?

        init?(_ info: CGBitmapInfo) {
            guard let alpha = CGImageAlphaInfo(rawValue: info.intersection(.alphaInfoMask).rawValue),
                  !info.contains(.floatComponents) else { return nil }
            let order = info.intersection(.byteOrderMask)
            guard order == .byteOrderDefault || order == .byteOrder32Big || order == .byteOrder32Little else { return nil }
            // Big-endian order of the 32-bit pixel, then reversed for little-endian memory.
            var slots: [Character]
            switch alpha {
            case .premultipliedLast: slots = ["r", "g", "b", "a"]
            case .premultipliedFirst: slots = ["a", "r", "g", "b"]
            case .noneSkipLast: slots = ["r", "g", "b", "x"]
            case .noneSkipFirst: slots = ["x", "r", "g", "b"]
            default: return nil
            }
            if order == .byteOrder32Little { slots.reverse() }
            alphaInfo = alpha
            r = slots.firstIndex(of: "r")!
            g = slots.firstIndex(of: "g")!
            b = slots.firstIndex(of: "b")!
            a = slots.firstIndex(of: "a")
            skip = slots.firstIndex(of: "x")
        }
    }

    /// Stretches of pixels along rows (top down): `count` pixels from column `x` of row `y`.
    private typealias PixelRuns = [Coverage.Run]

    /// Calls `body` with each pixel's byte offset in the caller's memory and in the bitmap.
    private func forEachPixel(in runs: PixelRuns, _ body: (_ memory: Int, _ bitmap: Int) -> Void) {
        for r in runs { for x in r.x..<(r.x + r.count) { body(r.y * bytesPerRow + x * 4, (r.y * width + x) * 4) } }
    }

    /// All the context's pixels.
    private var everyPixel: PixelRuns { (0..<height).map { Coverage.Run(y: $0, x: 0, start: 0, count: width) } }

    /// Whether the caller's pixels are laid out as the bitmap's (premultiplied RGBA), so rows
    /// copy as they are.
    private var isRGBA: Bool { layout.r == 0 && layout.g == 1 && layout.b == 2 && layout.a == 3 }

    /// Copies `runs` between the caller's memory and the bitmap, whose layouts are the same
    /// (`isRGBA`): a byte copy a run instead of a shuffle a pixel.
    private func copyRows(_ runs: PixelRuns, memory: UnsafeMutableRawPointer, toBitmap: Bool) {
        bitmap.pixels.withUnsafeMutableBytes { pixels in
            for r in runs {
                let caller = memory + r.y * bytesPerRow + r.x * 4, own = pixels.baseAddress! + (r.y * width + r.x) * 4
                if toBitmap { own.copyMemory(from: caller, byteCount: r.count * 4) } else { caller.copyMemory(from: own, byteCount: r.count * 4) }
            }
        }
    }

    /// Reads the caller's memory in `runs` into the working bitmap (a caller may write pixels
    /// between calls).
    private func load(_ runs: PixelRuns) {
        guard let memory else { return }
        if isRGBA { return copyRows(runs, memory: memory, toBitmap: true) }
        let src = memory.assumingMemoryBound(to: UInt8.self)
        let layout = layout
        bitmap.pixels.withUnsafeMutableBufferPointer { dst in
            forEachPixel(in: runs) { s, d in
                dst[d] = src[s + layout.r]
                dst[d + 1] = src[s + layout.g]
                dst[d + 2] = src[s + layout.b]
                dst[d + 3] = layout.a.map { src[s + $0] } ?? 255
            }
        }
    }

    /// Writes the working bitmap in `runs` back to the caller's memory.
    private func store(_ runs: PixelRuns) {
        guard let memory else { return }
        if isRGBA { return copyRows(runs, memory: memory, toBitmap: false) }
        let dst = memory.assumingMemoryBound(to: UInt8.self)
        let layout = layout
        bitmap.pixels.withUnsafeBufferPointer { src in
            forEachPixel(in: runs) { d, s in
                dst[d + layout.r] = src[s]
                dst[d + layout.g] = src[s + 1]
                dst[d + layout.b] = src[s + 2]
                if let a = layout.a { dst[d + a] = src[s + 3] }
                if let x = layout.skip { dst[d + x] = 255 }
            }
        }
    }

    /// Runs one drawing operation that reads and writes only the pixels in `runs` on the
    /// bitmap, in step with the memory if there is one: a thin line copies few pixels.
    private func paint(_ runs: PixelRuns, _ body: () -> Void) {
        load(runs)
        body()
        store(runs)
    }

    /// An image of the context's current pixels (`makeImage()`), premultiplied RGBA.
    public func makeImage() -> CGImage? {
        load(everyPixel)
        return CGImage(bitmap: bitmap, source: "CGContext")
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (CTM, colours, line style, blend mode, clip).
    public func saveGState() { stack.append(state) }

    /// Pops the graphics state saved last; a restore with none saved is ignored.
    public func restoreGState() { if let s = stack.popLast() { state = s } }

    /// The current transformation matrix: user space to the context's y-up device space.
    public var ctm: CGAffineTransform { state.ctm }

    private func setCTM(_ t: CGAffineTransform) {
        guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite) else { return }
        state.ctm = t
    }

    /// Moves user space's origin by (`tx`, `ty`) user units.
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { setCTM(state.ctm.translatedBy(x: tx, y: ty)) }
    /// Scales user space.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { setCTM(state.ctm.scaledBy(x: sx, y: sy)) }
    /// Rotates user space by `angle` radians (counterclockwise in y-up space).
    public func rotate(by angle: CGFloat) { setCTM(state.ctm.rotated(by: angle)) }
    /// Applies `transform` to user space before the current CTM.
    public func concatenate(_ transform: CGAffineTransform) { setCTM(transform.concatenating(state.ctm)) }

    /// Sets the fill colour.
    public func setFillColor(_ color: CGColor) { state.fill = PremultipliedColor(color) }
    /// Sets the fill colour from sRGB components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// Sets the fill colour to a grey level (0 black, 1 white).
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the stroke colour.
    public func setStrokeColor(_ color: CGColor) { state.stroke = PremultipliedColor(color) }
    /// Sets the stroke colour from sRGB components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// Sets the stroke colour to a grey level (0 black, 1 white).
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the opacity everything drawn is multiplied by (clamped to 0…1).
    public func setAlpha(_ alpha: CGFloat) { if alpha.isFinite { state.alpha = Float(min(max(alpha, 0), 1)) } }
    /// Sets the stroke width in user units (negative or non-finite widths are ignored).
    public func setLineWidth(_ width: CGFloat) { if width.isFinite, width >= 0 { state.lineWidth = Double(width) } }
    /// Sets the ends of stroked open subpaths and dashes.
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    /// Sets the corners of strokes.
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    /// Sets the longest miter, as a multiple of the line width.
    public func setMiterLimit(_ limit: CGFloat) { if limit.isFinite { state.miterLimit = Double(limit) } }
    /// Sets the dash pattern (alternating painted and unpainted lengths in user units) and how
    /// far into it each subpath starts; empty `lengths` draws solid lines.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        guard phase.isFinite, lengths.allSatisfy(\.isFinite) else { return }
        state.dashes = lengths.isEmpty ? nil : lengths.map { Double($0) }
        state.dashPhase = Double(phase)
    }
    /// Sets how drawing combines with the pixels beneath.
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }
    /// Turns antialiasing on or off; off, a pixel is painted when at least half of it is covered.
    public func setShouldAntialias(_ antialias: Bool) { state.antialias = antialias }
    /// Base space to device space (its linear part counts): the space that shadow offsets and
    /// blurs are given in, whatever the CTM. The identity for a bitmap context made with
    /// `CGContext(data:…)` (base space is its pixels, y up); a layer's `draw(in:)` context makes
    /// it the layer's points, y down, at `contentsScale` pixels each, as a layer's context on iOS
    /// has it (a positive height moves the shadow down there).
    package var baseTransform = CGAffineTransform.identity

    /// Makes everything drawn after it cast a shadow (`setShadow(offset:blur:color:)`), drawn
    /// beneath it: the drawing's alpha, blurred, moved by `offset` and painted in `color`, then
    /// clipped, faded by the alpha and blended as the drawing is. As in Core Graphics the
    /// offset and blur are in base space (in a bitmap context, its pixels with y up), whatever
    /// the CTM, and a `nil` or transparent colour turns shadows off. Core Graphics does not
    /// state how its blur maps to a Gaussian; LayerKit uses sigma = blur / 2 (at most
    /// `GaussianBlur.maxSigma`, 64 pixels), and rounds the offset to whole pixels. The shadow is
    /// cast by what lands inside the context; `clear(_:)` casts none. Part of the graphics state.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        let b = baseTransform
        let dx = Double(offset.width * b.a + offset.height * b.c), dy = Double(offset.width * b.b + offset.height * b.d)
        let sigma = Double(max(blur, 0)) / 2 * abs(Double(b.a * b.d - b.b * b.c)).squareRoot()
        guard let color, color.alpha > 0, dx.isFinite, dy.isFinite, sigma.isFinite else {
            state.shadow = nil
            return
        }
        let limit = Double(CanvasSizeError.maximumSide)
        func pixels(_ v: Double) -> Int { Int(min(max(v, -limit), limit).rounded()) }
        state.shadow = Shadow(dx: pixels(dx), dy: pixels(dy), sigma: min(sigma, GaussianBlur.maxSigma),
                              color: PremultipliedColor(color))
    }

    /// Shadows in Core Graphics' default colour, black at 1/3 alpha (`setShadow(offset:blur:)`).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// How images are resampled by `draw(_:in:)`.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    // MARK: Path

    private var hasCurrentPoint: Bool { !devicePath.isEmpty }

    private func device(_ p: CGPoint) -> CGPoint? {
        let q = p.applying(state.ctm)
        return q.x.isFinite && q.y.isFinite ? q : nil
    }

    /// Empties the current path.
    public func beginPath() { devicePath = CGMutablePath() }
    /// A copy of the current path in user space (under the current CTM), or `nil` when it is
    /// empty.
    public var path: CGPath? {
        guard !devicePath.isEmpty, state.ctm.hasInverse else { return nil }
        var toUser = state.ctm.inverted()
        return devicePath.copy(using: &toUser)
    }
    /// Whether the current path has no elements.
    public var isPathEmpty: Bool { devicePath.isEmpty }
    /// The current point in user space (`.zero` for an empty path).
    public var currentPointOfPath: CGPoint { devicePath.currentPoint.applying(state.ctm.inverted()) }
    /// The bounding box of the current path, control points included, in user space; null
    /// for an empty path.
    public var boundingBoxOfPath: CGRect {
        devicePath.isEmpty ? .null : devicePath.boundingBox.applying(state.ctm.inverted())
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { if let p = device(point) { devicePath.move(to: p) } }
    /// Adds a line from the current point (or starts a subpath when there is none).
    public func addLine(to point: CGPoint) {
        guard let p = device(point) else { return }
        hasCurrentPoint ? devicePath.addLine(to: p) : devicePath.move(to: p)
    }
    /// Adds a cubic Bézier from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard let p = device(end), let c1 = device(control1), let c2 = device(control2) else { return }
        hasCurrentPoint ? devicePath.addCurve(to: p, control1: c1, control2: c2) : devicePath.move(to: p)
    }
    /// Adds a quadratic Bézier from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        guard let p = device(end), let c = device(control) else { return }
        hasCurrentPoint ? devicePath.addQuadCurve(to: p, control: c) : devicePath.move(to: p)
    }
    /// Closes the current subpath.
    public func closePath() { if hasCurrentPoint { devicePath.closeSubpath() } }

    /// Adds a closed rectangle.
    public func addRect(_ rect: CGRect) { addPath(CGPath(rect: rect)) }
    /// Adds closed rectangles.
    public func addRects(_ rects: [CGRect]) { rects.forEach(addRect) }
    /// Adds a closed ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { addPath(CGPath(ellipseIn: rect)) }
    /// Adds line segments joining `points` in order.
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        points.dropFirst().forEach(addLine)
    }

    /// Adds a circular arc of `radius` about `center` from `startAngle` to `endAngle` (radians,
    /// counterclockwise from +x in user space), turning clockwise (decreasing angles) or not;
    /// a line joins the current point to the arc's start. A sweep is at most a full circle.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        guard [center.x, center.y, radius, startAngle, endAngle].allSatisfy(\.isFinite) else { return }
        let sweep = CGPath.arcSweep(from: Double(startAngle), to: Double(endAngle), clockwise: clockwise)
        let arc = CGPath.arc(center: center, radius: abs(radius), startAngle: Double(startAngle), sweep: sweep)
        addLine(to: arc.start)
        for c in arc.curves { addCurve(to: c.end, control1: c.control1, control2: c.control2) }
    }

    /// Adds the arc of `radius` tangent to the line from the current point to `tangent1End`
    /// and to the line from `tangent1End` to `tangent2End`, after a line from the current point
    /// to the first tangent point (`CGContextAddArcToPoint`); where no such arc exists (zero
    /// radius, or the three points on one line) a line to `tangent1End`. The arc is made in
    /// user space, so a CTM that stretches it makes it elliptical. Without a current point
    /// nothing is added.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        guard device(tangent1End) != nil, device(tangent2End) != nil else { return }
        devicePath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: state.ctm)
    }

    /// Adds `path` (in user space) to the current path.
    public func addPath(_ path: CGPath) {
        for e in path.elements {
            switch e {
            case .moveTo(let p): move(to: p)
            case .lineTo(let p): addLine(to: p)
            case .quadCurveTo(let p, let c): addQuadCurve(to: p, control: c)
            case .curveTo(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closePath()
            }
        }
    }

    // MARK: Painting

    /// Device space (y up) to bitmap pixels (rows top down).
    private var deviceToPixels: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// The bitmap row position of a device (y-up) point.
    private func pixel(_ p: CGPoint) -> PathRasterizer.Point {
        PathRasterizer.Point(Double(p.x), Double(height) - Double(p.y))
    }

    /// Coverage of `polygons` (in pixels, top-down) under `rule`, within the context, with the
    /// box of pixels it was computed for; `nil` when nothing is inside the context.
    private func coverage(_ polygons: [[PathRasterizer.Point]], rule: CGPathFillRule)
        -> Coverage? {
        var lo = PathRasterizer.Point(repeating: .infinity), hi = -lo
        for poly in polygons { for p in poly {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        } }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // Clamped to the context on both sides before the conversion: a path far off one side
        // (or an enormous pen) reaches beyond Int's range.
        func column(_ v: Double) -> Int { Int(min(max(v, 0), Double(width))) }
        func row(_ v: Double) -> Int { Int(min(max(v, 0), Double(height))) }
        let x0 = column(lo.x.rounded(.down)), y0 = row(lo.y.rounded(.down))
        let x1 = column(hi.x.rounded(.up)), y1 = row(hi.y.rounded(.up))
        guard x0 < x1, y0 < y1 else { return nil }
        let shift = PathRasterizer.Point(Double(x0), Double(y0))
        var cover = PathRasterizer.coverage(of: polygons.map { $0.map { $0 - shift } },
                                            rule: rule == .evenOdd ? .evenOdd : .nonZero, width: x1 - x0, height: y1 - y0)
            .offsetBy(dx: x0, dy: y0)
        if !state.antialias { for i in cover.values.indices { cover.values[i] = cover.values[i] >= 128 ? 255 : 0 } }
        return cover
    }

    /// The current path's subpaths as polygons in pixels.
    private func fillPolygons() -> [[PathRasterizer.Point]] {
        PathRasterizer.polylines(devicePath, map: pixel).map(\.points)
    }

    /// The current path's stroke outline in pixels. The stroke is outlined in user space under
    /// the CTM at stroke time (as Core Graphics strokes), then mapped to pixels, so a scaled
    /// CTM scales the line width and dashes and a non-uniform one makes an elliptical pen.
    private func strokePolygons() -> [[PathRasterizer.Point]] {
        strokeOutline().map { $0.map { pixel(CGPoint(x: $0.x, y: $0.y)) } }
    }

    /// The current path's stroke outline in device space: closed polygons whose winding fill
    /// is the stroke.
    private func strokeOutline() -> [[PathRasterizer.Point]] {
        let t = state.ctm
        guard t.hasInverse, state.lineWidth > 0 else { return [] }
        let inverse = t.inverted()
        let halfWidth = state.lineWidth / 2
        let stroker = PathStroker(halfWidth: halfWidth, cap: CAShapeLayerLineCap(state.lineCap),
                                  join: CAShapeLayerLineJoin(state.lineJoin), miterLimit: state.miterLimit,
                                  dashes: state.dashes, dashPhase: state.dashPhase, start: 0, end: 1)
        // Flattening happens in user space: tighten it by the CTM's largest stretch.
        let stretch = max(abs(Double(t.a)) + abs(Double(t.c)), abs(Double(t.b)) + abs(Double(t.d)), 1e-9)
        let lines = PathRasterizer.polylines(devicePath, maxTurn: PathStroker.maxTurn(halfWidth: halfWidth * stretch)) {
            let u = $0.applying(inverse)
            return PathRasterizer.Point(Double(u.x), Double(u.y)) * stretch
        }
        return stroker.outline(lines.map { PathRasterizer.Polyline(points: $0.points.map { $0 / stretch }, closed: $0.closed) })
            .map { $0.map { CGPoint(x: $0.x, y: $0.y).applying(t) }.map { PathRasterizer.Point(Double($0.x), Double($0.y)) } }
    }

    /// Replaces the current path with the outline of its stroke under the line width, cap,
    /// join, miter limit, dash and CTM (`CGContextReplacePathWithStrokedPath`): filling the
    /// new path with the winding rule paints what `strokePath()` would have painted.
    public func replacePathWithStrokedPath() {
        devicePath = CGMutablePath(elements: CGPath.polygonPath(strokeOutline().map { ($0, true) }, transform: .identity).elements)
    }

    /// What a drawing operation lays down: one colour (a fill or a stroke), or a colour per
    /// pixel index (an image, a gradient).
    private enum Source {
        case uniform(PremultipliedColor)
        case perPixel((Int) -> PremultipliedColor)

        func color(at i: Int) -> PremultipliedColor {
            switch self {
            case .uniform(let c): c
            case .perPixel(let color): color(i)
            }
        }
    }

    /// Blends `source` over the coverage, limited by the clip, under the blend mode, after its
    /// shadow when there is one.
    private func composite(_ c: Coverage, mode: CGBlendMode? = nil, _ source: Source) {
        let mode = mode ?? state.blendMode
        if let shadow = state.shadow, mode != .clear, let cast = shadowCoverage(shadow, of: c, source: source) {
            state.shadow = nil
            composite(cast, mode: mode, .uniform(shadow.color))
            state.shadow = shadow
        }
        let alpha = state.alpha
        func faded(_ s: PremultipliedColor) -> PremultipliedColor {
            PremultipliedColor(r: s.r * alpha, g: s.g * alpha, b: s.b * alpha, a: s.a * alpha)
        }
        if case .uniform(let color) = source, mode == .normal, state.clip == nil {
            return paint(c.runs) { blendStretches(faded(color), over: c) }
        }
        paint(c.runs) {
            for r in c.runs {
                var j = 0
                while j < r.count {
                    var k = Int(c.values[r.start + j])
                    let i = r.y * width + r.x + j
                    j += 1
                    guard k > 0 else { continue }
                    if let clip = state.clip {
                        k = (k * Int(clip[i]) + 127) / 255
                        if k == 0 { continue }
                    }
                    bitmap.blend(faded(source.color(at: i)), coverage: UInt8(k), pixel: i, mode: mode)
                }
            }
        }
    }

    /// Source-over of one colour over the coverage, unclipped: each stretch of equal coverage
    /// along a run (a span's inside) is blended at once.
    private func blendStretches(_ color: PremultipliedColor, over c: Coverage) {
        let width = width
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            c.values.withUnsafeBufferPointer { values in
                for r in c.runs {
                    var j = 0
                    while j < r.count {
                        let k = values[r.start + j]
                        var end = j + 1
                        while end < r.count && values[r.start + end] == k { end += 1 }
                        if k > 0 { Bitmap.blend(color, coverage: k, count: end - j, at: pixels.baseAddress! + (r.y * width + r.x + j) * 4) }
                        j = end
                    }
                }
            }
        }
    }

    /// The coverage of the shadow cast by drawing `color` over `c`: the drawing's alpha,
    /// blurred (wider by 3 sigma on every side) and moved by the shadow's offset; `nil` when it
    /// falls outside the context.
    private func shadowCoverage(_ shadow: Shadow, of c: Coverage, source: Source) -> Coverage? {
        guard let box = c.bounds else { return nil }
        let weights = GaussianBlur.weights(sigma: shadow.sigma)
        let m = weights.count - 1, bw = box.x1 - box.x0, bh = box.y1 - box.y0
        // The drawing's pixel (x, y) casts onto (x + dx, y − dy): the offset is y up, rows run
        // down. Only the part of the blurred shadow inside the context is worked out.
        let left = box.x0 + shadow.dx, top = box.y0 - shadow.dy
        let x0 = max(left - m, 0), y0 = max(top - m, 0), x1 = min(left + bw + m, width), y1 = min(top + bh + m, height)
        guard x0 < x1, y0 < y1 else { return nil }
        var plane = [Float](repeating: 0, count: bw * bh)
        c.forEachPixel { x, y, k in
            plane[(y - box.y0) * bw + x - box.x0] = Float(k) / 255 * source.color(at: y * width + x).a
        }
        let blurred = GaussianBlur.blurred(plane, width: bw, height: bh, weights: weights,
                                           columns: (x0 - left)..<(x1 - left), rows: (y0 - top)..<(y1 - top))
        let cover = blurred.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }
        return Coverage(box: cover, x0: x0, y0: y0, w: x1 - x0, h: y1 - y0)
    }

    /// Fills the current path under `rule` with the fill colour, then empties the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        defer { beginPath() }
        guard let c = coverage(fillPolygons(), rule: rule) else { return }
        let fill = state.fill
        composite(c, .uniform(fill))
    }

    /// Fills the current path with the even-odd rule (`eoFillPath`).
    public func eoFillPath() { fillPath(using: .evenOdd) }

    /// Strokes the current path with the stroke colour and line style, then empties the path.
    public func strokePath() {
        defer { beginPath() }
        guard let c = coverage(strokePolygons(), rule: .winding) else { return }
        let stroke = state.stroke
        composite(c, .uniform(stroke))
    }

    /// Paints the current path as `mode` says (fill, then stroke on top), then empties it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let kept = devicePath
        switch mode {
        case .fill: fillPath(using: .winding)
        case .eoFill: fillPath(using: .evenOdd)
        case .stroke: strokePath()
        case .fillStroke, .eoFillStroke:
            fillPath(using: mode == .fillStroke ? .winding : .evenOdd)
            devicePath = kept
            strokePath()
        }
    }

    /// Runs `body` on a path of its own, keeping the current path (the rectangle and ellipse
    /// conveniences leave it alone, as in Core Graphics).
    private func withPath(_ body: () -> Void) {
        let kept = devicePath
        beginPath()
        body()
        devicePath = kept
    }

    /// Fills a rectangle with the fill colour.
    public func fill(_ rect: CGRect) { withPath {
        addRect(rect)
        fillPath()
    } }
    /// Fills rectangles with the fill colour.
    public func fill(_ rects: [CGRect]) { withPath {
        addRects(rects)
        fillPath()
    } }
    /// Strokes a rectangle with the stroke colour and line style.
    public func stroke(_ rect: CGRect) { withPath {
        addRect(rect)
        strokePath()
    } }
    /// Strokes a rectangle with a line of `width` (the state's width is kept).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState()
        setLineWidth(width)
        stroke(rect)
        restoreGState()
    }
    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) { withPath {
        addEllipse(in: rect)
        fillPath()
    } }
    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) { withPath {
        addEllipse(in: rect)
        strokePath()
    } }
    /// Strokes a line between each pair of points (a trailing odd point is ignored).
    public func strokeLineSegments(between points: [CGPoint]) {
        withPath {
            for i in stride(from: 0, to: points.count - 1, by: 2) {
                move(to: points[i])
                addLine(to: points[i + 1])
            }
            strokePath()
        }
    }

    /// Makes a rectangle transparent black, whatever the blend mode and alpha (within the clip).
    public func clear(_ rect: CGRect) {
        withPath {
            addRect(rect)
            if let c = coverage(fillPolygons(), rule: .winding) { composite(c, mode: .clear, .uniform(.clear)) }
        }
    }

    // MARK: Clipping

    /// Intersects the clip with the current path filled under `rule`, then empties the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        defer { beginPath() }
        var mask = [UInt8](repeating: 0, count: width * height)
        if let c = coverage(fillPolygons(), rule: rule) {
            c.forEachPixel { x, y, k in mask[y * width + x] = k }
        }
        intersectClip(mask)
    }

    /// Makes the clip the product of the clip and `mask` (coverage per pixel).
    private func intersectClip(_ mask: [UInt8]) {
        var mask = mask
        if let old = state.clip {
            for i in mask.indices where mask[i] > 0 { mask[i] = UInt8((Int(mask[i]) * Int(old[i]) + 127) / 255) }
        }
        state.clip = mask
    }

    /// Intersects the clip with `mask` drawn into `rect` as `draw(_:in:)` would draw it (through
    /// the CTM, resampled as `interpolationQuality` says): outside the rectangle nothing is
    /// drawn any more, inside each pixel is kept as much as the mask says. An opaque mask is a
    /// greyscale image (Core Graphics asks for DeviceGray): its grey level (the luminance,
    /// 0.2126 R + 0.7152 G + 0.0722 B, for a coloured one) says, white keeping and black
    /// removing; a mask with transparency says with its alpha. Restored with the graphics state.
    public func clip(to rect: CGRect, mask: CGImage) {
        var clip = [UInt8](repeating: 0, count: width * height)
        if let (c, sample) = placement(of: mask, in: rect) {
            let opaque = !stride(from: 3, to: mask.bitmap.pixels.count, by: 4).contains { mask.bitmap.pixels[$0] < 255 }
            c.forEachPixel { x, y, k in
                let i = y * width + x
                let p = sample(i)
                let keep = opaque ? 0.2126 * p.r + 0.7152 * p.g + 0.0722 * p.b : p.a
                clip[i] = UInt8(min(max(keep * Float(k), 0), 255) + 0.5)
            }
        }
        intersectClip(clip)
    }

    /// Removes the clip: drawing reaches the whole context again (`CGContextResetClip`). In a
    /// layer's `draw(in:)` this also lifts the clip to the area `setNeedsDisplay(_:)` marked.
    public func resetClip() { state.clip = nil }

    /// Intersects the clip with a rectangle.
    public func clip(to rect: CGRect) { withPath {
        addRect(rect)
        clip()
    } }

    /// Intersects the clip with rectangles.
    public func clip(to rects: [CGRect]) { withPath {
        addRects(rects)
        clip()
    } }

    /// The bounding box of the clip in user space (the whole context when unclipped).
    public var boundingBoxOfClipPath: CGRect {
        var r = CGRect(x: 0, y: 0, width: width, height: height)
        if let clip = state.clip {
            var (x0, y0, x1, y1) = (width, height, 0, 0)
            for y in 0..<height { for x in 0..<width where clip[y * width + x] > 0 {
                x0 = min(x0, x)
                x1 = max(x1, x + 1)
                y0 = min(y0, y)
                y1 = max(y1, y + 1)
            } }
            r = x0 < x1 ? CGRect(x: x0, y: height - y1, width: x1 - x0, height: y1 - y0) : .null
        }
        return r.isNull ? r : r.applying(state.ctm.inverted())
    }

    // MARK: Gradients

    /// Paints `gradient` along the line from `start` to `end` (user space) over the whole clip:
    /// each pixel's colour is that at its centre's projection onto the line. Without `options`
    /// only the band between the lines through `start` and `end` square to it is painted.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return }
        let s = SIMD2(Double(start.x), Double(start.y)), d = SIMD2(Double(end.x), Double(end.y)) - s
        let len2 = d.dot(d)
        drawGradient(gradient) { u in
            let t = len2 > 0 ? (u - s).dot(d) / len2 : 0
            if t < 0 && !options.contains(.drawsBeforeStartLocation) || t > 1 && !options.contains(.drawsAfterEndLocation) {
                return nil
            }
            return t
        }
    }

    /// Paints `gradient` between two circles (user space) over the whole clip, as Core
    /// Graphics does: the circles between them, centre and radius interpolated, sweep a cone,
    /// and each pixel centre takes the colour of the last circle (largest location) through it.
    /// Without `options` only the cone between the two circles is painted (the inside of a
    /// start circle with a radius is not); `.drawsBeforeStartLocation` carries the cone on
    /// before the start circle (down to radius 0) in the first colour and
    /// `.drawsAfterEndLocation` beyond the end circle in the last. The same cone as
    /// `CAGradientLayer`'s radial type (one piece of code). Negative radii are ignored.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard [startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius].allSatisfy(\.isFinite),
              startRadius >= 0, endRadius >= 0 else { return }
        let c0 = SIMD2(Double(startCenter.x), Double(startCenter.y)), c1 = SIMD2(Double(endCenter.x), Double(endCenter.y))
        drawGradient(gradient) { u in
            GradientContent.radialParameter(u, from: (c0, Double(startRadius)), to: (c1, Double(endRadius)),
                                            before: options.contains(.drawsBeforeStartLocation),
                                            after: options.contains(.drawsAfterEndLocation))
        }
    }

    /// Paints `gradient` over the whole clip where `parameter` (of a pixel centre in user
    /// space) gives a location, in the colour at that location.
    private func drawGradient(_ gradient: CGGradient, parameter: (SIMD2<Double>) -> Double?) {
        guard state.ctm.hasInverse else { return }
        let back = state.ctm.concatenating(deviceToPixels).inverted()
        let stops = GradientContent.stops(gradient.colors, gradient.locations)
        var cover = [UInt8](repeating: 0, count: width * height)
        var colors = [PremultipliedColor](repeating: .clear, count: width * height)
        for i in cover.indices {
            let u = CGPoint(x: Double(i % width) + 0.5, y: Double(i / width) + 0.5).applying(back)
            guard let t = parameter(SIMD2(Double(u.x), Double(u.y))) else { continue }
            let c = GradientContent.color(stops, at: t)
            cover[i] = 255
            colors[i] = PremultipliedColor(r: Float(c[0]), g: Float(c[1]), b: Float(c[2]), a: Float(c[3]))
        }
        composite(Coverage(box: cover, x0: 0, y0: 0, w: width, h: height), .perPixel { colors[$0] })
    }

    // MARK: Text

    /// Where the next text is drawn, in user space, through `textMatrix` (`textPosition`); the
    /// pen moves along as text is drawn. Not part of the graphics state, as in Core Graphics.
    public var textPosition = CGPoint.zero

    /// The transform from text space (glyph outlines in units of the font size, y up) to user
    /// space, before `textPosition` (`textMatrix`): the identity draws text upright in a y-up
    /// context; code written for a flipped (y-down) context sets it to
    /// `CGAffineTransform(scaleX: 1, y: -1)`, as it does on Apple platforms. Not part of the
    /// graphics state, as in Core Graphics.
    public var textMatrix = CGAffineTransform.identity

    /// Draws `text` on one line with its pen origin (the baseline's start) at `point` in text
    /// space, then moves `textPosition` to the end of its advance; returns that advance width
    /// in user units at the identity text matrix.
    ///
    /// A LayerKit extension, not Apple API: Core Graphics draws text through Core Text
    /// (`CTLineDraw`), whose attributed strings and font descriptors LayerKit does not have.
    /// The text is shaped as `CATextLayer` shapes it (HarfBuzz: ligatures, kerning, joining
    /// and conjuncts; FriBidi order for right-to-left runs; fallback fonts for characters
    /// `font` lacks) in `font` (a family name or font file, `nil` for the default family), at
    /// `size` user units, rendered by FreeType at the size it lands at in pixels and drawn as an
    /// image through `textMatrix` and the CTM: the fill colour (or `color`), the clip, alpha,
    /// blend mode and shadow apply; a line that would be over 2,048 pixels long (or an em over
    /// 1,024) is rendered smaller and scaled up, so memory stays bounded. Empty text, a size
    /// that is not positive and finite, or a font that cannot be found draw nothing and return 0.
    @discardableResult
    public func draw(text: String, at point: CGPoint, font: String? = nil, size: CGFloat, color: CGColor? = nil) -> CGFloat {
        guard point.x.isFinite, point.y.isFinite else { return 0 }
        textPosition = point
        let toUser = textMatrix.concatenating(CGAffineTransform(translationX: point.x, y: point.y))
        let toDevice = toUser.concatenating(state.ctm)
        guard !text.isEmpty, size > 0, size.isFinite, toDevice.hasInverse else { return 0 }
        let paint = color.map { PremultipliedColor($0) } ?? state.fill
        let toPixels = toDevice.concatenating(deviceToPixels)
        // Upright text at one scale in x and y, the usual case, is rendered where it lands.
        let upright = toPixels.b == 0 && toPixels.c == 0 && toPixels.a > 0 && toPixels.d == -toPixels.a
            && Double(size * toPixels.a) <= Double(TypedContent.maxImageSide) / 2
        guard let advance = upright
            ? drawUpright(text, font: font, size: Double(size), scale: Double(toPixels.a), at: CGPoint(x: toPixels.tx, y: toPixels.ty), paint)
            : drawAsImage(text, font: font, size: Double(size), toDevice: toDevice, paint) else { return 0 }
        textPosition = CGPoint(x: 0, y: 0).applying(CGAffineTransform(translationX: advance, y: 0).concatenating(toUser))
        return CGFloat(advance)
    }

    /// Draws a line of text whose text space maps to bitmap pixels by `scale` pixels a unit in
    /// x and y (upright) and a move of the pen origin to `origin`: its glyphs are rendered at
    /// their own pixel positions into one coverage (no intermediate image, no resampling) in
    /// the paint, or, for a line with colour glyphs (emoji), into colours of their own.
    /// Returns the advance in text units; `nil` when no font can be opened.
    private func drawUpright(_ text: String, font: String?, size: Double, scale: Double, at origin: CGPoint,
                             _ paint: PremultipliedColor) -> Double? {
        let (width, height, pixelSize) = (width, height, size * scale)
        let drawn = FontLibrary.withFonts { fonts -> (coverage: Coverage?, colors: Bitmap?, width: Double)? in
            guard let line = ShapedLine(text, font: font, pixelSize: pixelSize, fonts: fonts),
                  let primary = fonts.face(for: font) else { return nil }
            primary.setPixelSize(pixelSize)
            // Room around the advance box for glyphs that overhang it (italics, marks, swashes);
            // clamped to the context.
            let pad = (pixelSize / 2).rounded(.up) + 1, x = Double(origin.x), y = Double(origin.y)
            let x0 = clampedPixel((x - pad).rounded(.down), width), x1 = clampedPixel((x + line.width + pad).rounded(.up), width)
            let y0 = clampedPixel((y - primary.ascender - pad).rounded(.down), height)
            let y1 = clampedPixel((y + primary.descender + pad).rounded(.up), height)
            guard x0 < x1, y0 < y1 else { return (nil, nil, line.width) }
            let (w, h) = (x1 - x0, y1 - y0)
            guard line.hasColorGlyphs else {
                let plane = line.coverage(x: x - Double(x0), baseline: y - Double(y0), width: w, height: h)
                return (Coverage(box: plane, x0: x0, y0: y0, w: w, h: h), nil, line.width)
            }
            var colors = Bitmap(width: w, height: h)
            line.draw(x: x - Double(x0), baseline: y - Double(y0), color: paint, into: &colors)
            let plane = (0..<(w * h)).map { colors[$0 % w, $0 / w].a > 0 ? UInt8(255) : 0 }
            return (Coverage(box: plane, x0: x0, y0: y0, w: w, h: h), colors, line.width)
        }
        guard let drawn else { return nil }
        if let c = drawn.coverage, let colors = drawn.colors, let (x0, y0, _, _) = c.bounds {
            let width = width
            composite(c, .perPixel { i in Self.texel(colors, i % width - x0, i / width - y0) })
        } else if let c = drawn.coverage {
            composite(c, .uniform(paint))
        }
        return drawn.width / scale
    }

    /// Draws a line of text in any other text-to-device transform (rotated, skewed, mirrored,
    /// stretched, or an em over 1,024 pixels): rendered upright at the mean scale into an image
    /// (at most 2,048 pixels long, or rendered smaller and scaled up), which is drawn through
    /// `toDevice`. Returns the advance in text units; `nil` when no font can be opened.
    private func drawAsImage(_ text: String, font: String?, size: Double, toDevice: CGAffineTransform,
                             _ paint: PremultipliedColor) -> Double? {
        // Pixels per text unit: the mean stretch of the text space onto the device, at most an
        // em of 1,024 pixels before shaping (FreeType takes sizes in a 26.6 fixed-point Int).
        var scale = TypedContent.scale(abs(Double(toDevice.a * toDevice.d - toDevice.b * toDevice.c)).squareRoot(),
                                       fitting: size * 4)
        let drawn = FontLibrary.withFonts { fonts -> (image: CGImage, rect: CGRect, advance: Double)? in
            var line: ShapedLine?
            // Shaped once, and again smaller when the line's image would be too large to draw.
            for _ in 0..<2 {
                line = ShapedLine(text, font: font, pixelSize: size * scale, fonts: fonts)
                guard let l = line else { return nil }
                let longest = max(l.width, size * scale * 2)
                if longest <= Double(TypedContent.maxImageSide) / 2 { break }
                scale *= Double(TypedContent.maxImageSide) / 2 / longest
            }
            guard let line, let primary = fonts.face(for: font) else { return nil }
            primary.setPixelSize(size * scale)
            // Room around the advance box for glyphs that overhang it (italics, marks, swashes).
            let pad = (size * scale / 2).rounded(.up) + 1
            let ascent = (primary.ascender + pad).rounded(.up), descent = (primary.descender + pad).rounded(.up)
            let w = Int((line.width + 2 * pad).rounded(.up)), h = Int(ascent + descent)
            var bitmap = Bitmap(width: w, height: h)
            line.draw(x: pad, baseline: ascent, color: paint, into: &bitmap)
            let rect = CGRect(x: -pad / scale, y: -descent / scale, width: Double(w) / scale, height: Double(h) / scale)
            return (CGImage(bitmap: bitmap, source: "text"), rect, line.width / scale)
        }
        guard let drawn else { return nil }
        let kept = state.ctm
        state.ctm = toDevice
        draw(drawn.image, in: drawn.rect)
        state.ctm = kept
        return drawn.advance
    }
    // MARK: Images

    /// Draws `image` upright into `rect` of user space (its top row at the rect's top, that is
    /// its maximum y), through the CTM, resampled as `interpolationQuality` says: nearest for
    /// `.none`, else bilinear with edges clamped. The rectangle's edges are antialiased and the
    /// clip, alpha, blend mode and shadow apply.
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard let (c, sample) = placement(of: image, in: rect) else { return }
        composite(c, .perPixel(sample))
    }

    /// Where `image` drawn upright into `rect` (user space) lands: the rectangle's coverage in
    /// pixels, and the image's colour at a pixel (by index), resampled as `interpolationQuality`
    /// says; `nil` when nothing lands in the context.
    private func placement(of image: CGImage, in rect: CGRect) -> (Coverage, (Int) -> PremultipliedColor)? {
        let r = rect.standardized
        guard image.width > 0, image.height > 0, r.width > 0, r.height > 0 else { return nil }
        // Image pixel space (x right, y down, in pixels) to user space, then to bitmap pixels.
        let toUser = CGAffineTransform(a: r.width / CGFloat(image.width), b: 0, c: 0, d: -r.height / CGFloat(image.height),
                                       tx: r.minX, ty: r.maxY)
        let toPixels = toUser.concatenating(state.ctm).concatenating(deviceToPixels)
        guard toPixels.hasInverse else { return nil }
        let back = toPixels.inverted()
        var cover: Coverage?
        withPath {
            addRect(r)
            cover = coverage(fillPolygons(), rule: .winding)
        }
        guard let c = cover else { return nil }
        let src = image.bitmap, width = width
        let nearest = state.interpolationQuality == .none
        return (c, { i in
            let p = CGPoint(x: Double(i % width) + 0.5, y: Double(i / width) + 0.5).applying(back)
            return nearest ? Self.nearest(src, Double(p.x), Double(p.y)) : Self.bilinear(src, Double(p.x), Double(p.y))
        })
    }

    private static func texel(_ b: Bitmap, _ x: Int, _ y: Int) -> PremultipliedColor {
        let px = b[min(max(x, 0), b.width - 1), min(max(y, 0), b.height - 1)]
        return PremultipliedColor(r: Float(px.r) / 255, g: Float(px.g) / 255, b: Float(px.b) / 255, a: Float(px.a) / 255)
    }

    private static func nearest(_ b: Bitmap, _ x: Double, _ y: Double) -> PremultipliedColor {
        texel(b, Int(x.rounded(.down)), Int(y.rounded(.down)))
    }

    private static func bilinear(_ b: Bitmap, _ x: Double, _ y: Double) -> PremultipliedColor {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        let c00 = texel(b, x0, y0), c10 = texel(b, x0 + 1, y0), c01 = texel(b, x0, y0 + 1), c11 = texel(b, x0 + 1, y0 + 1)
        func mix(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Float {
            (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
        }
        return PremultipliedColor(r: mix(c00.r, c10.r, c01.r, c11.r), g: mix(c00.g, c10.g, c01.g, c11.g),
                                  b: mix(c00.b, c10.b, c01.b, c11.b), a: mix(c00.a, c10.a, c01.a, c11.a))
    }
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
