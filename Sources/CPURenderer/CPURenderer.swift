import CHotLoops
import Dispatch
import Foundation
import LayerCompositor
import LayerKitCore

/// The reference renderer: executes a `DisplayList` into a `Bitmap`, one pixel at a time, with
/// the rules in `QuadCoverage` — the executable definition of LayerKit's pixels.
///
/// For each quad and each pixel whose centre its projection may cover: map the centre to the
/// layer's local plane (perspective-correct), take the coverage of the shape and of every clip
/// there, sample the fill, and blend source-over onto the premultiplied 8-bit target, rounding
/// to nearest as the GL framebuffer does. Rows are split into bands drawn on all cores.
///
/// Damage: the renderer keeps its last canvas. When the next display list is a single canvas
/// pass of the same size and background, only the pixels of quads that changed (where they
/// were and where they are, kept as a few disjoint rectangles by `Damage`) are redrawn; pixels
/// elsewhere are covered by the same quads in the same order, so they cannot change.
public final class CPURenderer {
    /// Rows per band handed to one core at a time.
    let bandHeight = 32
    /// Decoded images and their mipmaps, kept while the same `CGImage` is drawn.
    private var textures: [ObjectIdentifier: (image: CGImage, texture: Texture)] = [:]
    /// Guards `textures` while quads are prepared on several threads.
    private let textureLock = NSLock()
    /// The last frame, for damage: its canvas quads, pixels, and the pixels each quad may
    /// touch (`DrawQuad.pixelBounds`, nil where it draws nothing).
    private var previous: (list: DisplayList, canvas: Target, bounds: [PixelRect?])?
    /// Pixels redrawn by the last `render`, for profiles and tests.
    public private(set) var lastRedrawnPixels = 0
    /// The most bytes of finished offscreen passes the last `render` held at once, as it keeps
    /// them (`bytesPerPassPixel` a pixel), for profiles and tests: what
    /// `DisplayList.lastReaders` bounds.
    public private(set) var lastPeakPassBytes = 0
    /// Bytes a finished pass takes per pixel: its RGBA8 pixels and the floats it is sampled from.
    public static let bytesPerPassPixel = 4 + MemoryLayout<SIMD4<Float>>.stride
    /// Whether unchanged pixels are kept from the last frame (on by default); off, every frame
    /// is drawn in full, as benchmarks of static frames against other renderers need.
    public var tracksDamage = true
    /// How many threads draw a pass's bands: `defaultThreadCount` unless set. 1 draws on the
    /// calling thread alone, to compare per core with single-threaded rasterizers (Skia's CPU
    /// raster). The pixels are the same for every count: bands are disjoint rows.
    public var threadCount = CPURenderer.defaultThreadCount

    /// `LAYERKIT_CPU_THREADS` when it is a whole number from 1 to 1024, else every core.
    public static let defaultThreadCount = threadCount(environment: ProcessInfo.processInfo.environment["LAYERKIT_CPU_THREADS"])

    /// The thread count `value` (an environment variable's text) asks for: a whole number from
    /// 1 to 1024, else (unset, malformed, out of range) every core.
    static func threadCount(environment value: String?) -> Int {
        if let value, let n = Int(value), (1...1024).contains(n) { return n }
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// A renderer; keep it across frames to reuse decoded mipmaps and redraw only damage.
    public init() {}

    /// Renders the display list; the result is the canvas pass, cleared to its background.
    /// Throws `CanvasSizeError` for a canvas over the limit, before allocating it.
    public func render(_ list: DisplayList) throws -> Bitmap {
        try CanvasSizeError.check(width: Double(list.width), height: Double(list.height))
        if tracksDamage, let canvas = redrawDamage(list) { return canvas.bitmap() }
        // Finished passes until their last reader has drawn (`lastReaders`), then freed: a frame
        // holds only the passes still to be read.
        var results = [Texture?](repeating: nil, count: list.passes.count)
        var freedAfter = [[Int]](repeating: [], count: list.passes.count)
        for (i, reader) in list.lastReaders.enumerated() { freedAfter[reader ?? i].append(i) }
        var used = Set<ObjectIdentifier>()
        var canvas: Target?
        var bounds: [PixelRect?] = []
        var held = 0
        lastPeakPassBytes = 0
        for pass in list.passes {
            let isCanvas = pass.index == list.passes.count - 1
            let target = Target(width: pass.width, height: pass.height)
            switch pass.content {
            case .quads(let quads):
                let prepared = prepare(quads, results, pass, &used)
                if isCanvas { bounds = prepared.bounds }
                draw(prepared.quads, into: target, area: PixelRect(x0: 0, x1: pass.width, y0: 0, y1: pass.height),
                     clearing: isCanvas ? list.background : .clear, additive: pass.purpose == .additive)
            case let .blur(source, horizontal, weights):
                blur(results[source]!, horizontal: horizontal, weights: weights, into: target)
            case let .downsample(source, factor):
                downsample(results[source]!, factor: factor, into: target)
            }
            if isCanvas {
                canvas = target
            } else {
                results[pass.index] = Texture(target.bitmap())
                held += pass.width * pass.height * Self.bytesPerPassPixel
                lastPeakPassBytes = max(lastPeakPassBytes, held)
            }
            for i in freedAfter[pass.index] where results[i] != nil {
                results[i] = nil
                held -= list.passes[i].width * list.passes[i].height * Self.bytesPerPassPixel
            }
        }
        textures = textures.filter { used.contains($0.key) }
        lastRedrawnPixels = list.width * list.height
        previous = list.passes.count == 1 ? (list, canvas!, bounds) : nil
        return canvas!.bitmap()
    }

    /// Quads prepared per chunk: enough that handing a chunk to a thread costs little beside
    /// preparing them, few enough that a frame of a few hundred quads has a chunk for each core.
    static let preparationChunk = 64

    /// The quads that draw something, prepared, and every quad's bounds (nil for those that
    /// draw nothing). One array of prepared quads: they are large, and arrays of megabytes are
    /// fresh pages, which cost more to fault in than to fill.
    ///
    /// The quads are prepared in chunks on `threadCount` threads, each chunk built in place in
    /// its own slots of the array and then moved down over the slots of the quads that draw
    /// nothing, so the order is the quads' whatever the thread count.
    func prepare(_ quads: [DrawQuad], _ passes: [Texture?], _ pass: RenderPass,
                 _ used: inout Set<ObjectIdentifier>) -> (quads: [PreparedQuad], bounds: [PixelRect?]) {
        for q in quads { if case .image(let f) = q.fill { used.insert(ObjectIdentifier(f.image)) } }
        // Decoded where first drawn, so that an image whose quads all draw nothing is not; under
        // a lock, since chunks share the cache.
        let image = { (image: CGImage) -> Texture in
            self.textureLock.lock()
            defer { self.textureLock.unlock() }
            return self.texture(for: image)
        }
        let size = threadCount > 1 ? Self.preparationChunk : max(quads.count, 1)
        let chunks = (quads.count + size - 1) / size
        var kept = [Int](repeating: 0, count: chunks)
        var bounds = [PixelRect?](repeating: nil, count: quads.count)
        let prepared = [PreparedQuad](unsafeUninitializedCapacity: quads.count) { slots, count in
            kept.withUnsafeMutableBufferPointer { kept in
                bounds.withUnsafeMutableBufferPointer { bounds in
                    forEachBand(chunks) { chunk in
                        let first = chunk * size
                        var next = slots.baseAddress! + first
                        for i in first..<min(first + size, quads.count) {
                            guard let p = PreparedQuad(quads[i], textures: image, passes: passes,
                                                       width: pass.width, height: pass.height) else { continue }
                            bounds[i] = p.bounds
                            next.initialize(to: p)
                            next += 1
                        }
                        kept[chunk] = next - (slots.baseAddress! + first)
                    }
                }
            }
            for chunk in 0..<chunks {
                let first = slots.baseAddress! + chunk * size
                if count != chunk * size { (slots.baseAddress! + count).moveInitialize(from: first, count: kept[chunk]) }
                count += kept[chunk]
            }
        }
        return (prepared, bounds)
    }

    /// Redraws only what changed since the last frame, or returns `nil` when a full render is
    /// needed (offscreen passes, another size or background, or damage over half the canvas).
    private func redrawDamage(_ list: DisplayList) -> Target? {
        guard list.passes.count == 1, let (old, canvas, oldBounds) = previous, old.passes.count == 1,
              old.width == list.width, old.height == list.height, old.background == list.background else { return nil }
        let after = list.canvas.quads
        // Whether a quad that drew an image changed: the image may be drawn no more.
        var imageReplaced = false
        let (damage, bounds) = Damage.between(old.canvas.quads, bounds: oldBounds, and: after, candidates: list.canvasChanges(since: old),
                                              measure: {
            $0.pixelBounds(width: list.width, height: list.height)
        }, replaced: {
            if case .image = $0.fill { imageReplaced = true }
        })
        previous = (list, canvas, bounds)
        let area = damage.area
        guard area * 2 < list.width * list.height else { return nil }
        lastRedrawnPixels = area
        if imageReplaced {
            let drawnImages = Set(after.compactMap { q -> ObjectIdentifier? in
                if case .image(let f) = q.fill { return ObjectIdentifier(f.image) }
                return nil
            })
            textures = textures.filter { drawnImages.contains($0.key) }
        }
        guard !damage.rects.isEmpty else { return canvas }
        var used = Set<ObjectIdentifier>()
        let reach = damage.reach(bounds)
        let reaching = after.indices.filter { reach[$0] != 0 }
        let prepared = prepare(reaching.map { after[$0] }, [], list.canvas, &used).quads
        // Each rectangle is cleared and drawn over by the quads reaching it, in painter's order.
        for r in damage.rects {
            draw(prepared.filter { PixelRect(x0: $0.x0, x1: $0.x1, y0: $0.y0, y1: $0.y1).intersects(r) }, into: canvas, area: r,
                 clearing: list.background)
        }
        return canvas
    }

    private func texture(for image: CGImage) -> Texture {
        let key = ObjectIdentifier(image)
        if let t = textures[key], t.image === image { return t.texture }
        let t = Texture(image.bitmap)
        textures[key] = (image, t)
        return t
    }

    /// Clears `area` to `clearing` and draws `quads` over it, band by band: each band's rows
    /// cleared by the thread that then draws them, while they are in its cache.
    private func draw(_ quads: [PreparedQuad], into target: Target, area: PixelRect, clearing: PremultipliedColor,
                      additive: Bool = false) {
        let bands = (area.y1 - area.y0 + bandHeight - 1) / bandHeight
        target.write(additive: additive) { pixels in
            forEachBand(bands) { band in
                let y0 = area.y0 + band * bandHeight, y1 = min(y0 + bandHeight, area.y1)
                pixels.fill(PixelRect(x0: area.x0, x1: area.x1, y0: y0, y1: y1), with: clearing)
                // Each call copies its prepared quad (retaining its arrays) once, for `draw`'s
                // nested functions: by index, by buffer pointer or as a class, measured, the
                // same or worse (BENCHMARKS.md, "cube-grid-166's quad preparation").
                for i in quads.indices where quads[i].y0 < y1 && quads[i].y1 > y0 {
                    quads[i].draw(rows: max(y0, quads[i].y0)..<min(y1, quads[i].y1), columns: area.x0..<area.x1, into: pixels)
                }
            }
        }
    }

    /// Runs `body` for bands 0..<`count` on `threadCount` threads: on the calling thread alone
    /// for 1; handed out one band at a time across the cores when the count covers them (the
    /// quickest thread takes the next band); else each of the threads taking every
    /// `threadCount`-th band.
    private func forEachBand(_ count: Int, _ body: (Int) -> Void) {
        let threads = min(threadCount, count)
        if threads <= 1 {
            for band in 0..<count { body(band) }
        } else if threads >= ProcessInfo.processInfo.activeProcessorCount {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { first in
                for band in stride(from: first, to: count, by: threads) { body(band) }
            }
        }
    }

    private func blur(_ src: Texture, horizontal: Bool, weights: [Float], into target: Target) {
        let w = target.width, h = target.height, n = weights.count - 1
        let s = src.base
        target.write { target in
        forEachBand((h + bandHeight - 1) / bandHeight) { band in
            for y in (band * bandHeight)..<min(band * bandHeight + bandHeight, h) {
                for x in 0..<w {
                    var acc = SIMD4<Float>(0, 0, 0, 0)
                    for k in -n...n {
                        let sx = horizontal ? x + k : x, sy = horizontal ? y : y + k
                        if sx < 0 || sy < 0 || sx >= w || sy >= h { continue }
                        acc += s.texel(sx, sy) * weights[abs(k)]
                    }
                    target.store(x, y, acc)
                }
            }
        }
        }
    }

    /// `RenderPass.Content.downsample`: each pixel the mean of a `factor` x `factor` block, the
    /// block's texels summed row by row, left to right, as the GL shader sums them.
    private func downsample(_ src: Texture, factor k: Int, into target: Target) {
        let s = src.base, scale = 1 / Float(k * k), w = target.width, h = target.height
        target.write { target in
            forEachBand((h + bandHeight - 1) / bandHeight) { band in
                for y in (band * bandHeight)..<min(band * bandHeight + bandHeight, h) {
                    for x in 0..<w {
                        var acc = SIMD4<Float>(0, 0, 0, 0)
                        for sy in (y * k)..<min(y * k + k, s.height) {
                            for sx in (x * k)..<min(x * k + k, s.width) { acc += s.texel(sx, sy) }
                        }
                        target.store(x, y, acc * scale)
                    }
                }
            }
        }
    }
}

/// A render target: premultiplied RGBA8 in a `Bitmap`, handed out without copying (the
/// next frame's writes copy it only if the caller still holds it), written through a
/// `PixelWriter` by bands in parallel (disjoint rows).
final class Target {
    let width: Int
    let height: Int
    private var storage: Bitmap

    /// A target whose pixels are not yet set: every pass writes each of its pixels (`draw`
    /// clears its area band by band; blurs and downsamples store every pixel), and clearing
    /// the whole target first was a serial pass over memory before the parallel ones.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { _, count in count = width * height * 4 }
        storage = Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The pixels as a bitmap (shared, not copied).
    func bitmap() -> Bitmap { storage }

    /// Runs `body` with a writer over the pixels, valid only during the call.
    func write(additive: Bool = false, _ body: (PixelWriter) -> Void) {
        let w = width
        storage.pixels.withUnsafeMutableBufferPointer { body(PixelWriter(pixels: $0.baseAddress!, width: w, additive: additive)) }
    }
}

/// Writes a target's pixels; bands on several threads may share one, each on its own rows.
struct PixelWriter: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int
    /// Whether `blend` adds rather than composites over (`RenderPass.Purpose.additive`).
    var additive = false

    /// Float 0…1 → 8 bits as GL's unorm conversion does on llvmpipe (`lk_unorm8`): scaled by
    /// 255, clamped, rounded to nearest with ties to even.
    @inline(__always)
    static func byte(_ v: Float) -> UInt8 { UInt8(lk_unorm8(v * 255)) }

    /// Source-over: `src + dst · (1 − src.a)`, premultiplied, in 0…255 units and rounded to
    /// nearest (`lk_blend_run_unorm8`, the one definition of the blend), with the source first
    /// converted to the target's 8 bits, as a GPU blends into an RGBA8 target: the fragment
    /// colour becomes bytes before the blend reads it. Blending the unrounded source instead
    /// differs by up to 1/255 a draw, which nested offscreen passes compound (3/255 over ten
    /// levels of group opacity).
    @inline(__always)
    func blend(_ x: Int, _ y: Int, _ src: SIMD4<Float>) {
        blend(x..<(x + 1), y, src)
    }

    /// `blend` of one colour over the pixels `xs` of row `y`.
    @inline(__always)
    func blend(_ xs: Range<Int>, _ y: Int, _ src: SIMD4<Float>) {
        let p = pixels + (y * width + xs.lowerBound) * 4
        if additive {
            // `src + dst`, clamped at 255, of the source in 8 bits: GL's (ONE, ONE) blend into RGBA8.
            lk_blend_run(p, xs.count, lk_unorm8(src.x * 255), lk_unorm8(src.y * 255), lk_unorm8(src.z * 255), lk_unorm8(src.w * 255), 1)
        } else {
            lk_blend_run_unorm8(p, xs.count, src.x * 255, src.y * 255, src.z * 255, src.w * 255)
        }
    }

    /// Sets every pixel of `area` to `color`.
    func fill(_ area: PixelRect, with color: PremultipliedColor) {
        guard area.x0 < area.x1 else { return }
        // The pixel's four bytes in memory order, as one word to repeat.
        var word: UInt32 = 0
        withUnsafeMutableBytes(of: &word) {
            ($0[0], $0[1], $0[2], $0[3]) = (PixelWriter.byte(color.r), PixelWriter.byte(color.g), PixelWriter.byte(color.b), PixelWriter.byte(color.a))
        }
        for y in area.y0..<area.y1 {
            UnsafeMutableRawPointer(pixels + (y * width + area.x0) * 4).bindMemory(to: UInt32.self, capacity: area.x1 - area.x0)
                .initialize(repeating: word, count: area.x1 - area.x0)
        }
    }

    @inline(__always)
    func store(_ x: Int, _ y: Int, _ v: SIMD4<Float>) {
        let i = (y * width + x) * 4
        pixels[i] = PixelWriter.byte(v.x)
        pixels[i + 1] = PixelWriter.byte(v.y)
        pixels[i + 2] = PixelWriter.byte(v.z)
        pixels[i + 3] = PixelWriter.byte(v.w)
    }
}

extension CPURenderer: FrameRenderer {
    /// `cpu`.
    public var name: String { "cpu" }

    /// `render(_:)`, timed as the `draw` phase of `profiler`.
    public func render(_ list: DisplayList, profiler: FrameProfiler?) throws -> Bitmap {
        guard let profiler else { return try render(list) }
        return try profiler.measure("draw") { try render(list) }
    }
}
