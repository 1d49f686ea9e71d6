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
    public internal(set) var lastFrameStats = FrameStats()
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

    var state = GLDevice()
    let textures: TextureCache
    let pool = PassTargetPool()
    private var quadPrograms: [ShaderFeatures: ShaderProgram] = [:]
    let blurProgram: ShaderProgram
    let downsampleProgram: ShaderProgram
    private static let quadUniforms = ["u_data", "u_image", "u_pass", "u_mask", "u_firstQuad", "u_copies", "u_passSize", "u_passHeight", "u_imageSize", "u_sourceSize"]
    var vertexArray: GLuint = 0
    var dataTexture: GLuint = 0
    var dataRows = 0
    var frame = 0
    /// Whether an offscreen frame redraws only its damage (on by default), as `CPURenderer`
    /// does: when the last frame and this one are each a single canvas pass of the same size
    /// and background and the pool hands back the same canvas target, only the pixels of quads
    /// that changed (`Damage`) are cleared (scissored) and drawn again, by the quads reaching
    /// them, and only those pixels are read back into the last frame's bitmap.
    public var tracksDamage = true
    /// Whether quads are drawn with a constant-colour fragment shader instead of their own
    /// (off by default): the same draws of the same geometry in the same order, blended, but
    /// not the picture. What a frame costs then is the rasteriser's floor for that geometry
    /// (`layerkit bench --floor`), which the real frame's time is measured against.
    package var drawsFillFloor = false
    /// Canvas pixels drawn by the last offscreen frame, for profiles and tests.
    public internal(set) var lastRedrawnPixels = 0
    /// The last one-pass offscreen frame, for damage: the canvas texture it drew into, its
    /// list, and the pixels each canvas quad may touch (by record).
    var lastCanvas: (texture: GLuint, list: DisplayList, bounds: [PixelRect?])?
    /// The last frame's pixels when it was read back, to be patched by the next one's damage.
    private var lastPixels: Bitmap?

    /// Read by tests, which compare patched records with a fresh build's.
    var records: Records?

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
    func quadProgram(_ features: ShaderFeatures) throws -> ShaderProgram {
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

    func checkPassSize(_ w: Int, _ h: Int, index: Int) throws {
        guard w <= maxTextureSize, h <= maxTextureSize, w > 0, h > 0 else {
            throw GLRendererError.passTooLarge(pass: index, width: w, height: h, limit: maxTextureSize)
        }
    }
}

extension GLRenderer: FrameRenderer {
    /// `gl`.
    public var name: String { "gl" }

    /// Cached contents textures plus pooled offscreen targets after the last frame.
    public var texturesHeld: Int? { lastFrameStats.texturesHeld }
}
