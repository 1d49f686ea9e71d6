// The OpenGL backend: executes a DisplayList with OpenGL 3.3 core (the shaders also compile as
// GLSL ES 3.00) and produces the same pixels as the CPU reference, within a small tolerance.
//
// How a frame runs
// ----------------
// 1. Contents: every image the list draws is looked up in the TextureCache by CGImage identity
//    and uploaded only the first time (with the reference's own mip chain, `Mipmaps.levels`,
//    when the layer minifies with `trilinear`).
// 2. Records: every quad of every pass becomes a fixed-size record (transform, inverse plane
//    map, shape, fill, clip range) in one RGBA32F data texture, with the clip records and blur
//    weights after them (QuadRecords.swift). All the arithmetic that prepares them is done in
//    doubles on the CPU. A frame that draws what the last one did reuses them; one where only
//    some quads changed rewrites and uploads just those records.
// 3. Passes, in list order, each into a pooled offscreen target (the last one into the canvas
//    target or the caller's framebuffer). A quad pass is drawn with instanced draws of a
//    four-vertex strip: consecutive quads that need no texture, or the same textures, share
//    one draw, so the number of draw calls follows texture changes, not layer count. The
//    vertex shader fetches the instance's record; the fragment shader evaluates the
//    reference's per-pixel function (Shaders/quad.frag.glsl), compiled per set of features
//    the draw's quads need (colour, image filters, pass fills, clips, rounded shapes), since a
//    software rasteriser pays for every branch it compiles. Half-plane clips (from 3D
//    splitting) clip the geometry itself through gl_ClipDistance on desktop GL. Blending is
//    premultiplied source-over, depth test off, painter's order. A blur pass is one
//    full-viewport triangle.
// 4. `render` reads the canvas back (rows flipped: GL framebuffers are bottom-up, LayerKit's
//    bitmaps top-down); `glGetError` is checked after every phase and every pass.
//
// Coordinates: pass pixels have their origin top-left with y down, as in the display list; the
// vertex shader maps them to clip space so that the picture is upright in GL's bottom-up
// framebuffer (the top row of the picture is the framebuffer's last row), which is also what a
// window shows. Offscreen passes are therefore stored bottom-up, and the shaders flip rows when
// they sample them; contents images are uploaded top row first and sampled as they are.
//
// Limits: images larger than the texture size limit are downscaled on upload (TextureCache);
// a pass larger than `GL_MAX_TEXTURE_SIZE` throws `GLRendererError.passTooLarge` (the
// compositor keeps offscreen passes within 4096 pixels, so only an enormous canvas can).

import CGL
import Foundation
import LayerCompositor
import LayerKitCore

/// Renders a `DisplayList` with OpenGL into an offscreen framebuffer or a caller's framebuffer.
///
/// The renderer uses whichever OpenGL 3.3 core (or OpenGL ES 3) context is current when it is
/// created, and that context must be current whenever it is used or released: it never makes
/// a context current itself, so it works the same under `EGLHeadlessContext` and a window
/// toolkit's context. Keep one renderer across frames: contents textures and offscreen targets
/// are reused from frame to frame.
public final class GLRenderer {
    /// What one frame cost, as counters (the figures the profiler reports).
    public struct FrameStats: Equatable, Sendable, CustomStringConvertible {
        /// `glDrawArrays*` calls.
        public var drawCalls = 0
        /// GL calls that changed pipeline state (program, vertex array, framebuffer, viewport,
        /// blending, texture bindings, uniforms, clear colour), after redundant ones were skipped.
        public var stateChanges = 0
        /// Contents textures uploaded (a texture's mip chain counts as one more upload).
        public var textureUploads = 0
        /// Bytes of contents texels uploaded (mip levels included; not the per-frame records).
        public var uploadedBytes = 0
        /// Textures held after the frame: cached contents plus pooled offscreen targets.
        public var texturesHeld = 0
        /// Bytes of those textures.
        public var textureBytesHeld = 0
        /// Render passes in the list.
        public var passes = 0
        /// Quads in the list.
        public var quads = 0
        /// Whether the frame drew exactly what the last one did and so reused its quad records
        /// (no record building, no record upload).
        public var recordsReused = false
        /// Quad records written this frame: every quad when they are built, only the changed
        /// ones when the last frame's are patched, none when they are reused.
        public var recordsWritten = 0
        /// Quads compared with the last frame's to find the records to patch: the canvas quads
        /// the compositor's lineage names (`DisplayList.canvasChanges(since:)`), every quad
        /// without it; none when the records are reused or built.
        public var recordsCompared = 0

        /// Creates zeroed counters.
        public init() {}

        /// The frame's `FrameCounter`s and their values (the display list's own, `quads` and
        /// `passes`, are the frame loop's to count).
        public var counters: [(FrameCounter, Int)] {
            [(.drawCalls, drawCalls), (.stateChanges, stateChanges), (.textureUploads, textureUploads),
             (.uploadedBytes, uploadedBytes), (.texturesHeld, texturesHeld), (.textureBytesHeld, textureBytesHeld),
             (.recordsWritten, recordsWritten), (.recordsCompared, recordsCompared)]
        }

        /// Records `counters` for `profiler`'s current frame.
        public func record(in profiler: FrameProfiler) {
            for (counter, value) in counters { profiler.count(counter, Double(value)) }
        }

        /// One line with every counter, by its `FrameCounter` name.
        public var description: String {
            (counters + [(.passes, passes), (.quads, quads)]).map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: " ")
                + (recordsReused ? " records_reused" : "")
        }
    }

    /// Texture units and what the shaders sample from each.
    enum Unit {
        static let image = 0
        static let pass = 1
        static let mask = 2
        static let data = 3
        /// Where textures are bound to be edited (uploads, parameters).
        static let upload = 0
    }

    /// Counters of the last frame drawn.
    public private(set) var lastFrameStats = FrameStats()
    /// `GL_MAX_TEXTURE_SIZE` of the context.
    public let maxTextureSize: Int
    /// Whether the context is OpenGL ES (the shaders are then compiled as GLSL ES 3.00).
    public let isES: Bool
    /// Largest side of an uploaded contents image; larger images are downscaled to fit, with a
    /// warning. Defaults to `maxTextureSize`; setting it higher has no effect.
    public var textureSizeLimit: Int {
        get { textures.sizeLimit }
        set { textures.sizeLimit = max(1, min(newValue, maxTextureSize)) }
    }
    /// Bytes of contents textures kept across frames (default 256 MiB); beyond it the least
    /// recently drawn go first. A single frame that draws more keeps them all for that frame.
    public var textureCacheBudget: Int {
        get { textures.budget }
        set { textures.budget = max(newValue, 0) }
    }

    private var state = GLDevice()
    private let textures: TextureCache
    private let pool = PassTargetPool()
    private var quadPrograms: [ShaderFeatures: ShaderProgram] = [:]
    private let blurProgram: ShaderProgram
    private let downsampleProgram: ShaderProgram
    private static let quadUniforms = ["u_data", "u_image", "u_pass", "u_mask", "u_firstQuad", "u_passSize", "u_passHeight", "u_imageSize", "u_sourceSize"]
    private var vertexArray: GLuint = 0
    private var dataTexture: GLuint = 0
    private var dataRows = 0
    private var frame = 0
    /// Whether an offscreen frame redraws only its damage (on by default), as `CPURenderer`
    /// does: when the last frame and this one are each a single canvas pass of the same size
    /// and background and the pool hands back the same canvas target, only the pixels of quads
    /// that changed (`Damage`) are cleared (scissored) and drawn again, by the quads reaching
    /// them, and only those pixels are read back into the last frame's bitmap.
    public var tracksDamage = true
    /// Canvas pixels drawn by the last offscreen frame, for profiles and tests.
    public private(set) var lastRedrawnPixels = 0
    /// The last one-pass offscreen frame, for damage: the canvas texture it drew into, its
    /// list, and the pixels each canvas quad may touch (by record).
    private var lastCanvas: (texture: GLuint, list: DisplayList, bounds: [PixelRect?])?
    /// The last frame's pixels when it was read back, to be patched by the next one's damage.
    private var lastPixels: Bitmap?

    /// Creates a renderer for the context current on this thread: compiles the shaders and
    /// makes the few objects every frame uses.
    ///
    /// - Throws: `GLRendererError.noContext` when no context is current,
    ///   `GLRendererError.shader` with the compiler's log, or `GLError` from `glGetError`.
    public init() throws {
        // The stored `state` can be used only once every property is set.
        let device = GLDevice()
        guard let version = device.version() else { throw GLRendererError.noContext }
        isES = version.hasPrefix("OpenGL ES")
        maxTextureSize = max(device.maxTextureSize(), 64)
        textures = TextureCache(budget: 256 << 20, sizeLimit: maxTextureSize)

        blurProgram = try ShaderProgram(device: device, label: "blur", vertex: EmbeddedShaders.fullscreenVert,
                                        fragment: EmbeddedShaders.blurFrag, es: isES,
                                        uniforms: ["u_data", "u_source", "u_weightStart", "u_taps", "u_direction"])
        downsampleProgram = try ShaderProgram(device: device, label: "downsample", vertex: EmbeddedShaders.fullscreenVert,
                                              fragment: EmbeddedShaders.downsampleFrag, es: isES,
                                              uniforms: ["u_source", "u_factor", "u_height"])
        // Sampler units are fixed for the programs' lifetime.
        setSamplerUnits(blurProgram, [("u_data", Unit.data), ("u_source", Unit.pass)])
        setSamplerUnits(downsampleProgram, [("u_source", Unit.pass)])

        vertexArray = state.makeVertexArray()  // core profile: a VAO must be bound; no attributes
        dataTexture = state.makeTexture(min: GL_NEAREST, mag: GL_NEAREST)
        state.unbindEverywhere(dataTexture)
        // The common variants now, so that first frames do not stall on the compiler.
        for f: ShaderFeatures in [[.color], [.color, .shapeFull], [.linear], [.color, .linear], [.color, .linear, .shapeFull]] {
            _ = try quadProgram(f)
        }
        state.useProgram(0)
        try state.check("GLRenderer.init")
    }

    /// Makes `program` current and points its samplers at their texture units, through the
    /// device's mirror: a variant compiled in the middle of a frame counts these as that
    /// frame's state changes, and stays current for the draw that asked for it.
    private func setSamplerUnits(_ program: ShaderProgram, _ units: [(String, Int)]) {
        state.useProgram(program.name)
        for (uniform, unit) in units { state.setUniform(program[uniform], int: Int32(unit)) }
    }

    /// The quad program for `features`, compiled on first use.
    private func quadProgram(_ features: ShaderFeatures) throws -> ShaderProgram {
        let f = features
        if let p = quadPrograms[f] { return p }
        let defines = f.defines(es: isES)
        let p = try ShaderProgram(device: state,
                                  label: "quad (\(defines.split(separator: "\n").map { $0.dropFirst(8).dropLast(2) }.joined(separator: " ")))",
                                  vertex: EmbeddedShaders.quadVert, fragment: EmbeddedShaders.quadFrag,
                                  es: isES, defines: defines, readsQuadRecords: true, uniforms: GLRenderer.quadUniforms)
        setSamplerUnits(p, [("u_data", Unit.data), ("u_image", Unit.image), ("u_pass", Unit.pass), ("u_mask", Unit.mask)])
        quadPrograms[f] = p
        return p
    }

    deinit {
        // The context must still be current here (see the class comment).
        textures.removeAll(state: &state)
        pool.removeAll(state: &state)
        for p in quadPrograms.values { state.deleteProgram(p.name) }
        state.deleteProgram(blurProgram.name)
        state.deleteProgram(downsampleProgram.name)
        state.deleteVertexArray(vertexArray)
        state.deleteTexture(dataTexture)
    }

    /// Renders `list` offscreen and reads the canvas back: premultiplied RGBA8, rows top-down,
    /// `list.width` x `list.height`.
    ///
    /// - Throws: `CanvasSizeError` for a canvas over the limit (before anything is made for
    ///   it), `GLError` naming the phase where `glGetError` reported an error, or a
    ///   `GLRendererError`.
    /// With a `profiler`, the frame's `draw` (submission, uploads included) and `readback`
    /// (which on a software rasterizer also waits for the drawing) are recorded as phases, and
    /// `lastFrameStats` as its counters.
    public func render(_ list: DisplayList, profiler: FrameProfiler? = nil) throws -> Bitmap {
        try renderOffscreen(list, profiler: profiler, readBack: true)!
    }

    /// Renders `list` offscreen and waits for the GL to finish it (`glFinish`, timed as the
    /// `finish` phase) without reading pixels back: how long a frame takes to draw, as other
    /// renderers' GPU frames are timed.
    public func renderAndFinish(_ list: DisplayList, profiler: FrameProfiler? = nil) throws {
        _ = try renderOffscreen(list, profiler: profiler, readBack: false)
    }

    /// Renders `list` offscreen, as `render` does (only the damage of a frame like the last),
    /// and copies the canvas to the top-left of `framebuffer` (a window's default framebuffer
    /// is 0), which is `width` x `height` pixels and is first cleared to the list's background;
    /// returns the canvas's pixels when `readBack`, else `nil`. The copy is part of the `draw`
    /// phase; presenting (swapping buffers) is the caller's.
    ///
    /// - Throws: as `render`.
    public func render(_ list: DisplayList, presentingInto framebuffer: GLuint, width: Int, height: Int, readBack: Bool,
                       profiler: FrameProfiler? = nil) throws -> Bitmap? {
        try renderOffscreen(list, profiler: profiler, readBack: readBack, presenting: (framebuffer, width, height))
    }

    private func renderOffscreen(_ list: DisplayList, profiler: FrameProfiler?, readBack: Bool,
                                 presenting target: (framebuffer: GLuint, width: Int, height: Int)? = nil) throws -> Bitmap? {
        try CanvasSizeError.check(width: Double(list.width), height: Double(list.height))
        try checkPassSize(list.width, list.height, index: list.passes.count - 1)
        beginFrame()
        let canvas = try pool.acquire(width: list.width, height: list.height, state: &state)
        defer { pool.release(canvas, frame: frame) }
        let damage = canvasDamage(list, texture: canvas.texture)
        let draw = {
            try self.drawPasses(list, canvas: (canvas.framebuffer, canvas.texture, list.width, list.height), damage: damage)
            if let target { self.present(canvas.framebuffer, list, into: target) }
        }
        do {
            try profiler.map { try $0.measure("draw", draw) } ?? draw()
        } catch {
            lastCanvas = nil  // what the target holds is unknown
            throw error
        }
        var bitmap: Bitmap?
        // Moved out (not copied), so that the bitmap is patched or overwritten in place: a second
        // reference would make the write copy the whole canvas first.
        var last = lastPixels.take()
        if readBack {
            let read = { () throws -> Bitmap in
                self.state.bindFramebuffer(canvas.framebuffer)
                if let damage, var pixels = last.take() {
                    try self.state.readRects(damage.rects, framebuffer: canvas.framebuffer, into: &pixels)
                    return pixels
                }
                return try self.state.readBitmap(framebuffer: canvas.framebuffer, width: list.width, height: list.height,
                                                 reusing: last.take())
            }
            bitmap = try profiler.map { try $0.measure("readback", read) } ?? read()
            if tracksDamage { lastPixels = bitmap }
        } else if target == nil {
            profiler.map { $0.measure("finish") { state.finish() } } ?? state.finish()
        }
        try endFrame(list)
        if let profiler { lastFrameStats.record(in: profiler) }
        return bitmap
    }

    /// Draws `list` into `framebuffer` (0 for a window's default framebuffer), whose size is
    /// `width` x `height` pixels: the canvas's top-left pixel lands on the framebuffer's
    /// top-left, and the whole framebuffer is first cleared to the list's background. Offscreen
    /// passes go to the renderer's own targets. Leaves `framebuffer` bound.
    ///
    /// - Throws: `CanvasSizeError` for a canvas over the limit, `GLError` naming the phase
    ///   where `glGetError` reported an error, or a `GLRendererError`.
    public func draw(_ list: DisplayList, into framebuffer: GLuint, width: Int, height: Int) throws {
        try CanvasSizeError.check(width: Double(list.width), height: Double(list.height))
        beginFrame()
        try drawPasses(list, canvas: (framebuffer, nil, width, height))
        try endFrame(list)
    }

    /// Clears `target` to the list's background and copies the canvas drawn in `canvas` to its
    /// top-left.
    private func present(_ canvas: GLuint, _ list: DisplayList, into target: (framebuffer: GLuint, width: Int, height: Int)) {
        state.bindFramebuffer(target.framebuffer)
        state.setViewport(0, 0, GLsizei(target.width), GLsizei(target.height))
        let bg = list.background
        state.setClearColor((bg.r, bg.g, bg.b, bg.a))
        state.clear()
        state.copyColor(from: canvas, sourceHeight: list.height, width: min(list.width, target.width),
                        height: min(list.height, target.height), to: target.framebuffer, targetHeight: target.height)
    }

    // MARK: - Frame

    private func beginFrame() {
        frame += 1
        lastFrameStats = FrameStats()
        // The host may have changed anything since the last frame: start from known state.
        state.beginFrame(es: isES)
    }

    private func endFrame(_ list: DisplayList) throws {
        textures.trim(frame: frame, state: &state)
        pool.trim(frame: frame, state: &state)
        var s = lastFrameStats
        s.stateChanges = state.changes
        s.drawCalls = state.draws
        s.texturesHeld = textures.count + pool.count
        s.textureBytesHeld = textures.bytesHeld + pool.bytesHeld
        s.passes = list.passes.count
        s.quads = list.quadCount
        lastFrameStats = s
        try state.check("end of frame")
    }

    private func checkPassSize(_ w: Int, _ h: Int, index: Int) throws {
        guard w <= maxTextureSize, h <= maxTextureSize, w > 0, h > 0 else {
            throw GLRendererError.passTooLarge(pass: index, width: w, height: h, limit: maxTextureSize)
        }
    }

    /// The damage of `list` over the last frame drawn into the canvas target `texture`, or
    /// `nil` when the whole canvas is drawn (see `tracksDamage`; also past half the canvas).
    private func canvasDamage(_ list: DisplayList, texture: GLuint) -> Damage? {
        let (w, h) = (list.width, list.height)
        lastRedrawnPixels = w * h
        guard tracksDamage, list.passes.count == 1 else {
            lastCanvas = nil
            return nil
        }
        // The reference's bounds and one pixel more, for the rasterizer's own rounding at edges.
        let measure = { (q: DrawQuad) -> PixelRect? in
            q.pixelBounds(width: w, height: h).map { PixelRect(x0: max($0.x0 - 1, 0), x1: min($0.x1 + 1, w), y0: max($0.y0 - 1, 0), y1: min($0.y1 + 1, h)) }
        }
        guard let last = lastCanvas, last.texture == texture, last.list.passes.count == 1, last.list.width == w, last.list.height == h,
              last.list.background == list.background else {
            lastCanvas = (texture, list, list.canvas.quads.map(measure))
            return nil
        }
        let (damage, bounds) = Damage.between(last.list.canvas.quads, bounds: last.bounds, and: list.canvas.quads,
                                              candidates: list.canvasChanges(since: last.list), measure: measure)
        lastCanvas = (texture, list, bounds)
        guard damage.area * 2 < w * h else { return nil }
        lastRedrawnPixels = damage.area
        return damage
    }

    /// Everything but the read-back: contents, records, passes; of a one-pass list with
    /// `damage`, only the damaged pixels of the canvas.
    private func drawPasses(_ list: DisplayList, canvas: (framebuffer: GLuint, texture: GLuint?, width: Int, height: Int),
                            damage: Damage? = nil) throws {
        guard !list.passes.isEmpty else { return }
        var stats = lastFrameStats
        defer { lastFrameStats = stats }
        let canvasIndex = list.passes.count - 1

        // 1. Contents textures, one lookup per image drawn.
        for pass in list.passes where pass.index != canvasIndex { try checkPassSize(pass.width, pass.height, index: pass.index) }
        let images = imageUses(list)
        var entries: [ObjectIdentifier: TextureCache.Entry] = [:]
        for (key, use) in images {
            entries[key] = textures.texture(for: use.image, mipmaps: use.trilinear > 0, frame: frame, state: &state, stats: &stats)
        }
        try state.check("upload contents textures")

        // 2. Records: reused as they are when the frame draws exactly what the last one did
        //    (same passes, canvas size and texture scales), so a static scene neither rebuilds
        //    nor re-uploads them; patched where only some quads changed; built otherwise.
        let scales = entries.mapValues { [$0.scale.0, $0.scale.1] }
        if let r = records, r.canvas == (canvas.width, canvas.height), r.scales == scales,
           list.canvasChanges(since: r.list)?.isEmpty ?? (r.list == list) {
            stats.recordsReused = true
        } else if let (written, compared) = try patchRecords(list, canvas: (canvas.width, canvas.height), entries: entries,
                                                              scales: scales) {
            (stats.recordsWritten, stats.recordsCompared) = (written, compared)
        } else {
            records = try buildRecords(list, canvas: (canvas.width, canvas.height), entries: entries, scales: scales)
            stats.recordsWritten = list.quadCount
        }
        records!.images = images
        let (plan, weightStart) = (records!.plan, records!.weightStart)

        // 3. Passes. Each target goes back to the pool as soon as its last reader has drawn
        //    (`plan.freedAfter`; GL orders that reader's sampling before a later pass's writes
        //    into it).
        var targets = [PassTarget?](repeating: nil, count: list.passes.count)
        defer { for t in targets.compactMap({ $0 }) { pool.release(t, frame: frame) } }
        state.bindTexture(dataTexture, unit: Unit.data)
        for pass in list.passes {
            let isCanvas = pass.index == canvasIndex
            let fb: GLuint, w: Int, h: Int
            if isCanvas {
                (fb, w, h) = (canvas.framebuffer, canvas.width, canvas.height)
                if let t = canvas.texture { state.unbindEverywhere(t) }
            } else {
                let t = try pool.acquire(width: pass.width, height: pass.height, state: &state)
                targets[pass.index] = t
                state.unbindEverywhere(t.texture)
                (fb, w, h) = (t.framebuffer, pass.width, pass.height)
            }
            state.bindFramebuffer(fb)
            state.setViewport(0, 0, GLsizei(w), GLsizei(h))
            switch pass.content {
            case .quads:
                state.setAdditiveBlending(pass.purpose == .additive)
                let bg = isCanvas ? list.background : .clear
                state.setClearColor((bg.r, bg.g, bg.b, bg.a))
                guard isCanvas, let damage, let bounds = lastCanvas?.bounds else {
                    state.clear()
                    try drawQuads(plan.batches[pass.index], entries: entries, targets: targets, width: w, height: h)
                    break
                }
                let reaching = FramePlan.batches(plan.batches[pass.index], reaching: damage.rects.count, reach: damage.reach(bounds))
                for (r, batches) in zip(damage.rects, reaching) {
                    state.setScissor((Int32(r.x0), Int32(h - r.y1), Int32(r.x1 - r.x0), Int32(r.y1 - r.y0)))
                    state.clear()
                    try drawQuads(batches, entries: entries, targets: targets, width: w, height: h)
                }
                state.setScissor(nil)
            case let .blur(source, horizontal, weights):
                try drawFullscreen(blurProgram, source: source, targets: targets, pass: pass.index) {
                    state.setUniform(blurProgram["u_weightStart"], int: Int32(weightStart[pass.index]))
                    state.setUniform(blurProgram["u_taps"], int: Int32(weights.count - 1))
                    state.setUniform(blurProgram["u_direction"], int2: horizontal ? (1, 0) : (0, 1))
                }
            case let .downsample(source, factor):
                try drawFullscreen(downsampleProgram, source: source, targets: targets, pass: pass.index) {
                    state.setUniform(downsampleProgram["u_factor"], int: Int32(factor))
                    state.setUniform(downsampleProgram["u_height"], int: Int32(h))
                }
            }
            try state.check("pass \(pass.index) (\(pass.purpose.rawValue) \"\(pass.label)\", \(pass.width)x\(pass.height))")
            for j in plan.freedAfter[pass.index] {
                if let t = targets[j] {
                    pool.release(t, frame: frame)
                    targets[j] = nil
                }
            }
        }
    }

    /// A pass that computes every pixel from pass `source` (blur, downsample): one triangle over
    /// the viewport with `program`, unblended, after `setUniforms`.
    private func drawFullscreen(_ program: ShaderProgram, source: Int, targets: [PassTarget?], pass: Int,
                                setUniforms: () -> Void) throws {
        guard let src = targets[source] else { throw GLRendererError.badPassReference(pass: pass, source: source) }
        state.setBlend(false)
        if !isES { state.setClipDistances(false, count: FrameData.maxRecordHalfPlanes) }
        state.useProgram(program.name)
        state.bindVertexArray(vertexArray)
        state.bindTexture(src.texture, unit: Unit.pass)
        setUniforms()
        state.drawTriangles(count: 3)
    }

    /// One quad pass: each of the plan's batches (`FramePlan`) as one instanced draw.
    private func drawQuads(_ batches: [FramePlan.Batch], entries: [ObjectIdentifier: TextureCache.Entry], targets: [PassTarget?],
                           width: Int, height: Int) throws {
        guard !batches.isEmpty else { return }
        state.setBlend(true)
        state.bindVertexArray(vertexArray)
        for batch in batches {
            let program = try quadProgram(batch.features)
            state.useProgram(program.name)
            // Half-plane clips in the vertex stage only where the batch has them (quad.vert.glsl).
            if !isES { state.setClipDistances(batch.features.contains(.halfPlanes), count: FrameData.maxRecordHalfPlanes) }
            state.setUniform(program["u_passSize"], float2: (Float(width), Float(height)))
            state.setUniform(program["u_passHeight"], float: Float(height))
            if let image = batch.sources.image.flatMap({ entries[$0] }) {
                state.bindTexture(image.texture, unit: Unit.image)
                state.setUniform(program["u_imageSize"], float2: (Float(image.width), Float(image.height)))
            }
            if let source = batch.sources.pass.flatMap({ targets[$0] }) {
                state.bindTexture(source.texture, unit: Unit.pass)
                state.setUniform(program["u_sourceSize"], int2: (Int32(source.width), Int32(source.height)))
            }
            if let mask = batch.sources.mask.flatMap({ targets[$0] }) { state.bindTexture(mask.texture, unit: Unit.mask) }
            state.setUniform(program["u_firstQuad"], int: Int32(batch.first))
            state.drawQuadInstances(batch.count)
        }
    }

    /// The last frame's records: what they were built from, the texels uploaded, and where each
    /// pass's quads start.
    struct Records {
        var list: DisplayList
        var canvas: (Int, Int)
        var scales: [ObjectIdentifier: [Double]]
        var data: FrameData
        var features: [ShaderFeatures?]
        var firstQuad: [Int]
        var weightStart: [Int]
        /// The plan of `list`, kept while no quad's features or textures change.
        var plan: FramePlan
        /// The images `list` draws (`imageUses`).
        var images: [ObjectIdentifier: ImageUse] = [:]
    }

    /// An image a list draws: by how many quads, and by how many of them minified trilinearly
    /// (so that its texture needs the mip chain).
    struct ImageUse {
        let image: CGImage
        var quads = 0
        var trilinear = 0
    }

    /// The images `list` draws. Counted again from the last frame's records' where the list's
    /// lineage names the quads that changed since (`DisplayList.canvasChanges`), so that a
    /// frame where 10 of 10,000 quads changed looks at 10; from every quad otherwise, and
    /// where most changed (counting them costs less than comparing them).
    private func imageUses(_ list: DisplayList) -> [ObjectIdentifier: ImageUse] {
        var uses: [ObjectIdentifier: ImageUse] = [:]
        func count(_ q: DrawQuad, _ n: Int) {
            guard case .image(let f) = q.fill else { return }
            let key = ObjectIdentifier(f.image)
            var u = uses[key] ?? ImageUse(image: f.image)
            u.quads += n
            if f.minification == .trilinear { u.trilinear += n }
            uses[key] = u.quads > 0 ? u : nil
        }
        if let r = records, let ranges = list.canvasChanges(since: r.list), ranges.reduce(0, { $0 + $1.count }) * 2 <= list.quadCount {
            uses = r.images
            let (a, b) = (r.list.canvas.quads, list.canvas.quads)
            for k in ranges.joined() where a[k] != b[k] {
                count(a[k], -1)
                count(b[k], 1)
            }
        } else {
            for pass in list.passes {
                for q in pass.quads { count(q, 1) }
            }
        }
        return uses
    }

    /// Read by tests, which compare patched records with a fresh build's.
    private(set) var records: Records?

    /// Builds every quad's record (and clip records and blur weights) and uploads them.
    private func buildRecords(_ list: DisplayList, canvas: (width: Int, height: Int), entries: [ObjectIdentifier: TextureCache.Entry],
                              scales: [ObjectIdentifier: [Double]]) throws -> Records {
        let built = GLRenderer.frameData(list, canvas: canvas, es: isES) { entries[ObjectIdentifier($0)]?.scale ?? (1, 1) }
        try uploadData(built.data)
        return Records(list: list, canvas: (canvas.width, canvas.height), scales: scales, data: built.data,
                       features: built.features, firstQuad: built.firstQuad, weightStart: built.weightStart,
                       plan: FramePlan(list, features: built.features))
    }

    /// Rewrites, in the last frame's records, only the quads that changed, and uploads only the
    /// rows holding them: a scene where one layer of 10,000 moves writes one record. Only the
    /// canvas quads the list's lineage names are compared (`DisplayList.canvasChanges`), and
    /// the frame plan is kept unless a changed quad's features or textures differ, so such a
    /// frame does work for its changed quads alone. Returns how many were written and how many
    /// compared, or nil when
    /// the frame is not the last one with some quads changed (another canvas, texture scales
    /// or pass structure, half the quads or more changed, or a changed quad whose clips do not
    /// fit in its record and so need room in the clip area).
    private func patchRecords(_ list: DisplayList, canvas: (width: Int, height: Int), entries: [ObjectIdentifier: TextureCache.Entry],
                              scales: [ObjectIdentifier: [Double]]) throws -> (written: Int, compared: Int)? {
        guard var r = records, r.canvas == canvas, r.scales == scales, r.list.passes.count == list.passes.count else { return nil }
        let canvasIndex = list.passes.count - 1
        let candidates = list.canvasChanges(since: r.list)
        var changed: [(Int, DrawQuad, DrawQuad, Int, Int)] = []  // record, old and new quad, pass size
        var compared = 0
        // Past half the quads, writing them in place saves nothing over a build: stop comparing.
        let most = list.quadCount / 2
        for (old, new) in zip(r.list.passes, list.passes) {
            guard old.width == new.width, old.height == new.height else { return nil }
            switch (old.content, new.content) {
            case let (.quads(a), .quads(b)) where a.count == b.count:
                let (w, h) = new.index == canvasIndex ? canvas : (new.width, new.height)
                let indices = new.index == canvasIndex ? candidates ?? [a.indices] : [a.indices]
                compared += indices.reduce(0) { $0 + $1.count }
                for k in indices.joined() where a[k] != b[k] {
                    let g = r.firstQuad[new.index] + k
                    guard r.features[g].map({ !$0.contains(.clips) }) ?? true, r.data.fitsInRecord(b[k]), changed.count < most else { return nil }
                    changed.append((g, a[k], b[k], w, h))
                }
            case (.blur, .blur) where old.content == new.content, (.downsample, .downsample) where old.content == new.content:
                break
            default:
                return nil
            }
        }
        records = nil  // so that `r` holds the only reference to the texels, which change in place
        // The data texture's rows holding changed records, in runs: 10 records spread over
        // 10,000 upload a few rows each, not every row between the first and the last.
        var rows: [Range<Int>] = []
        var replan = false
        for (g, old, q, w, h) in changed {
            var scale = (1.0, 1.0)
            if case .image(let f) = q.fill, let e = entries[ObjectIdentifier(f.image)] { scale = e.scale }
            r.data.clearQuad(g)
            let features = r.data.writeQuad(g, q, width: w, height: h, imageScale: scale)
            // A pass fill also decides when targets are freed (`lastReaders`): planned again.
            let (was, now) = (FramePlan.Sources(of: old), FramePlan.Sources(of: q))
            replan = replan || features != r.features[g] || was != now || was.pass != nil || now.pass != nil
            r.features[g] = features
            let first = g * FrameData.quadStride / FrameData.width
            let end = ((g + 1) * FrameData.quadStride + FrameData.width - 1) / FrameData.width
            if let last = rows.last, last.upperBound >= first {
                rows[rows.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                rows.append(first..<end)
            }
        }
        for run in rows { try uploadData(r.data, rows: run) }
        // The plan is a function of the records' features, the quads' textures and the passes
        // sampled, which are as they were unless a changed quad's features or textures moved.
        if replan { r.plan = FramePlan(list, features: r.features) }
        r.list = list
        records = r
        return (changed.count, compared)
    }

    /// The CPU side of turning a display list into GL work: every quad's record (in doubles,
    /// rebased, rounded to float), the shader features that decide its batch's program, and
    /// where each pass's records and blur weights start. `imageScale` gives uploaded texels per
    /// image pixel (below 1 only for images downscaled to the texture size limit).
    static func frameData(_ list: DisplayList, canvas: (width: Int, height: Int), es: Bool, imageScale: (CGImage) -> (Double, Double))
        -> (data: FrameData, features: [ShaderFeatures?], firstQuad: [Int], weightStart: [Int]) {
        let canvasIndex = list.passes.count - 1
        var data = FrameData(quadCount: list.quadCount, recordHalfPlanes: es ? 4 : FrameData.maxRecordHalfPlanes)
        var features = [ShaderFeatures?](repeating: nil, count: list.quadCount)
        var firstQuad = [Int](repeating: 0, count: list.passes.count)
        var weightStart = [Int](repeating: 0, count: list.passes.count)
        var g = 0
        for pass in list.passes {
            firstQuad[pass.index] = g
            let isCanvas = pass.index == canvasIndex
            let (w, h) = isCanvas ? (canvas.width, canvas.height) : (pass.width, pass.height)
            switch pass.content {
            case .quads(let quads):
                for q in quads {
                    var scale = (1.0, 1.0)
                    if case .image(let f) = q.fill { scale = imageScale(f.image) }
                    features[g] = data.writeQuad(g, q, width: w, height: h, imageScale: scale)
                    g += 1
                }
            case .blur(_, _, let weights):
                weightStart[pass.index] = data.appendWeights(weights)
            case .downsample:
                break
            }
        }
        return (data, features, firstQuad, weightStart)
    }

    /// Builds the records a frame of `list` uploads, as `render` does, without a context, and
    /// returns how many texels they take: for benchmarks of the CPU work of a changed frame.
    public static func recordTexels(for list: DisplayList) -> Int {
        frameData(list, canvas: (list.width, list.height), es: false) { _ in (1, 1) }.data.texelCount
    }

    /// Uploads the frame's records into the data texture, growing it when needed; with
    /// `rows`, only those rows (the texture already holds the rest).
    private func uploadData(_ data: FrameData, rows only: Range<Int>? = nil) throws {
        if let only {
            let (first, end) = (only.lowerBound, only.upperBound)
            state.bindForEditing(dataTexture, unit: Unit.data)
            data.floats.withUnsafeBytes { raw in
                // The last row of the data may be partial: pad it from a copy.
                var rowsData = [Float](raw.bindMemory(to: Float.self)[(first * FrameData.width * 4)..<min(end * FrameData.width * 4, data.floats.count)])
                rowsData.append(contentsOf: repeatElement(0, count: (end - first) * FrameData.width * 4 - rowsData.count))
                rowsData.withUnsafeBytes {
                    state.replaceFloatRows(first, end - first, width: FrameData.width, $0.baseAddress)
                }
            }
            try state.check("upload changed quad records (rows \(first)..<\(end) of the data texture)")
            return
        }
        let rows = data.rows
        guard rows <= maxTextureSize else { throw GLRendererError.tooManyQuads(texels: data.texelCount, limit: maxTextureSize * FrameData.width) }
        state.bindForEditing(dataTexture, unit: Unit.data)
        if rows > dataRows {
            var newRows = 1
            while newRows < rows { newRows *= 2 }
            newRows = min(newRows, maxTextureSize)
            state.defineTexels(level: 0, format: GL_RGBA32F, width: FrameData.width, height: newRows, nil)
            dataRows = newRows
        }
        var floats = data.floats
        let full = rows * FrameData.width * 4
        if floats.count < full { floats.append(contentsOf: repeatElement(0, count: full - floats.count)) }
        floats.withUnsafeBytes {
            state.replaceFloatRows(0, rows, width: FrameData.width, $0.baseAddress)
        }
        try state.check("upload quad records (\(rows) rows of the data texture)")
    }
}

/// Why the GL backend could not draw a display list (GL call failures are `GLError`).
public enum GLRendererError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No OpenGL context is current on this thread.
    case noContext
    /// A shader failed to compile or link; `log` is the driver's message.
    case shader(stage: String, log: String)
    /// An offscreen target could not be completed.
    case framebufferIncomplete(width: Int, height: Int, status: UInt32)
    /// A pass is larger than the context's texture size limit.
    case passTooLarge(pass: Int, width: Int, height: Int, limit: Int)
    /// The frame's records do not fit in the data texture.
    case tooManyQuads(texels: Int, limit: Int)
    /// A pass samples a pass that is not an earlier offscreen pass.
    case badPassReference(pass: Int, source: Int)

    /// A one-line message.
    public var description: String {
        switch self {
        case .noContext: return "GLRenderer: no OpenGL context is current on this thread"
        case let .shader(stage, log): return "GLRenderer: \(stage) failed: \(log)"
        case let .framebufferIncomplete(w, h, status):
            return "GLRenderer: offscreen target \(w)x\(h) incomplete (status 0x\(String(status, radix: 16)))"
        case let .passTooLarge(pass, w, h, limit):
            return "GLRenderer: pass \(pass) is \(w)x\(h) pixels, over GL_MAX_TEXTURE_SIZE \(limit)"
        case let .tooManyQuads(texels, limit):
            return "GLRenderer: the frame's records need \(texels) texels, over the data texture's \(limit)"
        case let .badPassReference(pass, source):
            return "GLRenderer: pass \(pass) samples pass \(source), which is not an earlier offscreen pass"
        }
    }
}

extension GLRenderer: FrameRenderer {
    /// `gl`.
    public var name: String { "gl" }

    /// Cached contents textures plus pooled offscreen targets after the last frame.
    public var texturesHeld: Int? { lastFrameStats.texturesHeld }
}
