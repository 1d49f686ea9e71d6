import CGL

/// The GL device: the one caller of OpenGL in the backend (sokol_gfx's backend layer), so that
/// `GLDeviceSeamTests` can check by a source scan that no other file calls GL. State changes go
/// through a mirror so that no call re-sets what is already set; the device also makes, fills
/// and deletes textures, framebuffers, programs and vertex arrays, clears and draws, reads
/// pixels back, asks the context what it is, and runs timer queries (`GPUTimer` holds its own
/// device). It counts each kind of call where the call is made: `changes` (state) and `draws`,
/// which `GLRenderer.FrameStats` reports as they are. Only making the context current is
/// elsewhere (`EGLHeadlessContext`, or the window toolkit).
///
/// The mirror starts unknown at every frame (`beginFrame(es:)`), because the host (a window
/// toolkit, another renderer) may have touched GL state between frames; within a frame the
/// renderer is the only one issuing calls.
struct GLDevice {
    /// GL calls that changed state since the frame began.
    private(set) var changes = 0
    /// `glDrawArrays*` calls since the frame began.
    private(set) var draws = 0

    private var program: GLuint?
    private var vertexArray: GLuint?
    private var framebuffer: GLuint?
    private var viewport: (Int32, Int32, Int32, Int32)?
    private var blend: Bool?
    /// Whether the blend function adds (`RenderPass.Purpose.additive`) rather than composites
    /// source-over; `false` after `beginFrame`.
    private var additive = false
    private var clipDistances: Bool?
    private var activeUnit: Int?
    private var textures: [GLuint?] = Array(repeating: nil, count: GLDevice.unitCount)
    private var clearColor: (Float, Float, Float, Float)?
    // Uniform values live in program objects; keyed by (current program, location).
    private var uniformsInt: [UInt64: (Int32, Int32)] = [:]
    private var uniformsFloat: [UInt64: (Float, Float)] = [:]

    /// Texture units the renderer uses.
    static let unitCount = 4

    /// Starts a frame: zeroes the counters, forgets the mirror, and sets the fixed state every
    /// frame relies on (no depth, scissor or culling; premultiplied source-over; byte-aligned
    /// rows; on desktop GL no sRGB conversion), whatever the host left.
    mutating func beginFrame(es: Bool) {
        changes = 0
        draws = 0
        invalidate()
        for capability in [GL_DEPTH_TEST, GL_SCISSOR_TEST, GL_CULL_FACE] + (es ? [] : [GL_FRAMEBUFFER_SRGB]) {
            glDisable(GLenum(capability))
            changes += 1
        }
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        additive = false
        changes += 1
        for alignment in [GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT] {
            glPixelStorei(GLenum(alignment), 1)
            changes += 1
        }
    }

    /// Draws `count` vertices of the current program as triangles (the full-screen passes).
    mutating func drawTriangles(count: Int) {
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(count))
        draws += 1
    }

    /// Vertices of a quad instance drawn as a ring around its hole (quad.vert.glsl, `LK_HOLE`).
    static let ringVertices = 10

    /// Draws `instances` instances of a triangle strip of `vertices` vertices: 4 for a quad,
    /// `ringVertices` for a quad around a hole.
    mutating func drawQuadInstances(_ instances: Int, vertices: Int = 4) {
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, GLsizei(vertices), GLsizei(instances))
        draws += 1
    }

    /// Forgets everything: the next request for each piece of state reaches GL.
    private mutating func invalidate() {
        program = nil
        vertexArray = nil
        framebuffer = nil
        viewport = nil
        blend = nil
        clipDistances = nil
        activeUnit = nil
        clearColor = nil
        textures = Array(repeating: nil, count: GLDevice.unitCount)
        uniformsInt = [:]
        uniformsFloat = [:]
    }

    mutating func useProgram(_ p: GLuint) {
        guard program != p else { return }
        glUseProgram(p)
        program = p
        changes += 1
    }

    /// Forgets which program is current (one was made current behind the cache's back).
    mutating func forgetProgram() { program = nil }

    mutating func bindVertexArray(_ v: GLuint) {
        guard vertexArray != v else { return }
        glBindVertexArray(v)
        vertexArray = v
        changes += 1
    }

    /// Limits drawing and clearing to `rect` (pixels, rows bottom-up as GL numbers them), or
    /// lifts the limit (`nil`; `beginFrame` starts without one).
    mutating func setScissor(_ rect: (x: Int32, y: Int32, width: Int32, height: Int32)?) {
        if let r = rect {
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(r.x, r.y, r.width, r.height)
            changes += 2
        } else {
            glDisable(GLenum(GL_SCISSOR_TEST))
            changes += 1
        }
    }

    mutating func bindFramebuffer(_ f: GLuint) {
        guard framebuffer != f else { return }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), f)
        framebuffer = f
        changes += 1
    }

    mutating func setViewport(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) {
        if let v = viewport, v == (x, y, w, h) { return }
        glViewport(x, y, w, h)
        viewport = (x, y, w, h)
        changes += 1
    }

    /// Enables or disables the first `count` clip distances (desktop GL), as the program about
    /// to draw writes them or not: one enabled but not written clips by an undefined value.
    mutating func setClipDistances(_ on: Bool, count: Int) {
        guard clipDistances != on else { return }
        for i in 0..<Int32(count) {
            if on { glEnable(GLenum(GL_CLIP_DISTANCE0 + i)) } else { glDisable(GLenum(GL_CLIP_DISTANCE0 + i)) }
        }
        clipDistances = on
        changes += 1
    }

    /// Adds the fragment to the target (`src + dst`, clamped by the 8-bit target) when `on`,
    /// else composites it source-over (premultiplied).
    mutating func setAdditiveBlending(_ on: Bool) {
        guard additive != on else { return }
        glBlendFunc(GLenum(GL_ONE), GLenum(on ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA))
        additive = on
        changes += 1
    }

    mutating func setBlend(_ on: Bool) {
        guard blend != on else { return }
        if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
        blend = on
        changes += 1
    }

    mutating func setClearColor(_ c: (Float, Float, Float, Float)) {
        if let cc = clearColor, cc == c { return }
        glClearColor(c.0, c.1, c.2, c.3)
        clearColor = c
        changes += 1
    }

    /// Binds `texture` to 2D target of `unit`.
    mutating func bindTexture(_ texture: GLuint, unit: Int) {
        guard textures[unit] != texture else { return }
        selectUnit(unit)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        textures[unit] = texture
        changes += 1
    }

    /// Makes `texture` the bound texture of some unit, for uploads and parameter changes;
    /// returns without a call when it is already bound to the active unit.
    mutating func bindForEditing(_ texture: GLuint, unit: Int) {
        bindTexture(texture, unit: unit)
        selectUnit(unit)
    }

    /// Unbinds `texture` from every unit where it is bound (before rendering into it, so that no
    /// sampler can read a texture that is being written).
    mutating func unbindEverywhere(_ texture: GLuint) {
        for u in 0..<GLDevice.unitCount where textures[u] == texture { bindTexture(0, unit: u) }
    }

    /// Forgets `texture` (it was deleted: GL unbinds deleted textures itself).
    mutating func forgetTexture(_ texture: GLuint) {
        for u in 0..<GLDevice.unitCount where textures[u] == texture { textures[u] = 0 }
    }

    /// Forgets `framebuffer` (deleted).
    mutating func forgetFramebuffer(_ f: GLuint) {
        if framebuffer == f { framebuffer = nil }
    }

    private func key(_ location: GLint) -> UInt64 { UInt64(program ?? 0) << 32 | UInt64(UInt32(bitPattern: location)) }

    /// Sets an int uniform of the current program.
    mutating func setUniform(_ location: GLint, int v: Int32) { setInts(location, (v, 0)) { glUniform1i(location, v) } }

    /// Sets an ivec2 uniform of the current program.
    mutating func setUniform(_ location: GLint, int2 v: (Int32, Int32)) { setInts(location, v) { glUniform2i(location, v.0, v.1) } }

    /// Sets a float uniform of the current program.
    mutating func setUniform(_ location: GLint, float v: Float) { setFloats(location, (v, 0)) { glUniform1f(location, v) } }

    /// Sets a vec2 uniform of the current program.
    mutating func setUniform(_ location: GLint, float2 v: (Float, Float)) { setFloats(location, v) { glUniform2f(location, v.0, v.1) } }

    /// Makes the GL call `set` only when the mirror holds another value for `location` (scalars
    /// are mirrored as their value and 0), and counts it.
    private mutating func setInts(_ location: GLint, _ v: (Int32, Int32), _ set: () -> Void) {
        guard location >= 0, uniformsInt[key(location)].map({ $0 != v }) ?? true else { return }
        set()
        uniformsInt[key(location)] = v
        changes += 1
    }

    /// `setInts` for float uniforms.
    private mutating func setFloats(_ location: GLint, _ v: (Float, Float), _ set: () -> Void) {
        guard location >= 0, uniformsFloat[key(location)].map({ $0 != v }) ?? true else { return }
        set()
        uniformsFloat[key(location)] = v
        changes += 1
    }

    private mutating func selectUnit(_ unit: Int) {
        guard activeUnit != unit else { return }
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        activeUnit = unit
        changes += 1
    }

    // MARK: - Resources

    /// A new 2D texture, bound for editing on the upload unit: filtered `min`/`mag`, clamped to
    /// the edge, and with one level (`GL_TEXTURE_MAX_LEVEL` 0) until more are uploaded, which
    /// keeps it complete under a mipmapped minification filter. Its texels are the caller's to
    /// upload.
    mutating func makeTexture(min: GLint, mag: GLint) -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        bindForEditing(texture, unit: GLRenderer.Unit.upload)
        let t = GLenum(GL_TEXTURE_2D)
        glTexParameteri(t, GLenum(GL_TEXTURE_MIN_FILTER), min)
        glTexParameteri(t, GLenum(GL_TEXTURE_MAG_FILTER), mag)
        glTexParameteri(t, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(t, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(t, GLenum(GL_TEXTURE_MAX_LEVEL), 0)
        return texture
    }

    /// Defines level `level` of the texture bound for editing as `width` x `height` texels of
    /// `format` (`GL_RGBA8` bytes or `GL_RGBA32F` floats), from `texels` (nil: undefined).
    func defineTexels(level: Int, format: GLint, width: Int, height: Int, _ texels: UnsafeRawPointer?) {
        let type = format == GL_RGBA32F ? GLenum(GL_FLOAT) : GLenum(GL_UNSIGNED_BYTE)
        glTexImage2D(GLenum(GL_TEXTURE_2D), GLint(level), format, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA), type, texels)
    }

    /// Replaces rows `firstRow..<firstRow + rows` of the float texture bound for editing,
    /// `width` texels a row.
    func replaceFloatRows(_ firstRow: Int, _ rows: Int, width: Int, _ texels: UnsafeRawPointer?) {
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(firstRow), GLsizei(width), GLsizei(rows),
                        GLenum(GL_RGBA), GLenum(GL_FLOAT), texels)
    }

    /// Makes levels 0 through `level` of the texture bound for editing the ones sampled.
    func setMaximumLevel(_ level: Int) {
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), GLint(level))
    }

    /// Deletes `texture`, forgetting where it was bound.
    mutating func deleteTexture(_ texture: GLuint) {
        var t = texture
        glDeleteTextures(1, &t)
        forgetTexture(texture)
    }

    /// A framebuffer drawing into `texture`, left bound, and whether it is complete (else the
    /// status GL gave).
    mutating func makeFramebuffer(drawingInto texture: GLuint) -> (framebuffer: GLuint, status: GLenum) {
        var framebuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        bindFramebuffer(framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        return (framebuffer, glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)))
    }

    /// Deletes `framebuffer`, forgetting it if bound.
    mutating func deleteFramebuffer(_ framebuffer: GLuint) {
        var f = framebuffer
        glDeleteFramebuffers(1, &f)
        forgetFramebuffer(framebuffer)
    }

    // MARK: - Commands

    /// Clears the bound framebuffer's colour to the clear colour.
    func clear() {
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    /// Waits until GL has executed every command issued.
    func finish() {
        glFinish()
    }

    /// Throws `GLError.gl` naming `what` if GL has recorded any error since the last check, and
    /// clears every pending error flag either way (see `glCheck`).
    func check(_ what: String) throws {
        var codes: [UInt32] = []
        // GL keeps one flag per kind of error and glGetError returns one at a time; the bound
        // stops the loop on drivers that keep reporting GL_CONTEXT_LOST.
        while codes.count < 8 {
            let code = glGetError()
            if code == GLenum(GL_NO_ERROR) { break }
            codes.append(code)
        }
        if !codes.isEmpty { throw GLError.gl(call: what, codes: codes) }
    }

    // MARK: - The context

    /// The current context's `GL_VERSION` string; nil when no context is current.
    func version() -> String? {
        glGetString(GLenum(GL_VERSION)).map { String(cString: $0) }
    }

    /// The context's `GL_MAX_TEXTURE_SIZE`.
    func maxTextureSize() -> Int {
        var size: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &size)
        return Int(size)
    }

    // MARK: - Programs

    /// Compiles `vertex` and `fragment` (complete GLSL sources) and links them into a program.
    ///
    /// - Throws: `GLRendererError.shader` with the compiler's or linker's log, the stage named
    ///   from `label`.
    func makeProgram(vertex: String, fragment: String, label: String) throws -> GLuint {
        let vs = try compile(vertex, GLenum(GL_VERTEX_SHADER), "\(label) vertex shader")
        defer { glDeleteShader(vs) }
        let fs = try compile(fragment, GLenum(GL_FRAGMENT_SHADER), "\(label) fragment shader")
        defer { glDeleteShader(fs) }
        let p = glCreateProgram()
        glAttachShader(p, vs)
        glAttachShader(p, fs)
        glLinkProgram(p)
        try checkBuilt(p, program: true, stage: "\(label) program link")
        return p
    }

    /// The location of uniform `name` in `program` (-1 when the compiler dropped it).
    func uniformLocation(_ program: GLuint, _ name: String) -> GLint {
        glGetUniformLocation(program, name)
    }

    /// Deletes `program`, forgetting it if current.
    mutating func deleteProgram(_ p: GLuint) {
        glDeleteProgram(p)
        if program == p { program = nil }
    }

    private func compile(_ source: String, _ type: GLenum, _ label: String) throws -> GLuint {
        let s = glCreateShader(type)
        source.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(s, 1, &ptr, nil)
        }
        glCompileShader(s)
        try checkBuilt(s, program: false, stage: label)
        return s
    }

    /// Throws `GLRendererError.shader` with the driver's log, deleting `object`, when compiling
    /// the shader or linking the program (`program`) failed.
    private func checkBuilt(_ object: GLuint, program: Bool, stage: String) throws {
        var ok: GLint = 0
        if program { glGetProgramiv(object, GLenum(GL_LINK_STATUS), &ok) } else {
            glGetShaderiv(object, GLenum(GL_COMPILE_STATUS), &ok)
        }
        guard ok == 0 else { return }
        let log = infoLog(object, program: program)
        if program { glDeleteProgram(object) } else { glDeleteShader(object) }
        throw GLRendererError.shader(stage: stage, log: log)
    }

    private func infoLog(_ object: GLuint, program: Bool) -> String {
        var length: GLint = 0
        if program { glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) } else {
            glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        }
        guard length > 0 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        if program { glGetProgramInfoLog(object, length, nil, &buffer) } else {
            glGetShaderInfoLog(object, length, nil, &buffer)
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new vertex array object (the core profile draws only with one bound).
    func makeVertexArray() -> GLuint {
        var v: GLuint = 0
        glGenVertexArrays(1, &v)
        return v
    }

    /// Deletes vertex array `v`, forgetting it if bound.
    mutating func deleteVertexArray(_ v: GLuint) {
        var name = v
        glDeleteVertexArrays(1, &name)
        if vertexArray == v { vertexArray = nil }
    }

    // MARK: - Presenting

    /// Copies the top-left `width` x `height` colour pixels of `source` (`sourceHeight` pixels
    /// tall) to the top-left of `target` (`targetHeight` tall; a window's default framebuffer
    /// is 0), rows as they are: both are bottom-up, so their tops are their last rows. Leaves
    /// `target` bound for drawing, as the mirror records, and `source` for reading, which the
    /// mirror does not follow. Scissoring must be off.
    mutating func copyColor(from source: GLuint, sourceHeight: Int, width: Int, height: Int, to target: GLuint, targetHeight: Int) {
        bindFramebuffer(target)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), source)
        glBlitFramebuffer(0, GLint(sourceHeight - height), GLint(width), GLint(sourceHeight),
                          0, GLint(targetHeight - height), GLint(width), GLint(targetHeight),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        changes += 1
    }

    // MARK: - Reading back

    /// The `width` x `height` RGBA8 pixels of `framebuffer` (0: the back buffer), rows
    /// bottom-up as GL numbers them. Leaves `framebuffer` bound for reading, which the mirror
    /// does not follow: it tracks the draw binding that `bindFramebuffer` sets.
    ///
    /// - Throws: `GLError` when `glReadPixels` fails.
    /// From `x`, `y` (bottom-up) when given, the framebuffer's bottom-left by default.
    func readPixels(framebuffer: GLuint, x: Int = 0, y: Int = 0, width: Int, height: Int) throws -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: max(width, 0) * max(height, 0) * 4)
        try raw.withUnsafeMutableBytes { try readPixels(framebuffer: framebuffer, x: x, y: y, width: width, height: height, into: $0) }
        return raw
    }

    /// `readPixels` into `buffer`, which holds at least `width * height * 4` bytes.
    func readPixels(framebuffer: GLuint, x: Int = 0, y: Int = 0, width: Int, height: Int, into buffer: UnsafeMutableRawBufferPointer) throws {
        precondition(buffer.count >= max(width, 0) * max(height, 0) * 4, "readPixels: buffer too small")
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        glReadBuffer(GLenum(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0))
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
        try check("glReadPixels (framebuffer \(framebuffer), \(width)x\(height) at \(x), \(y))")
    }

    // MARK: - Timer queries

    /// Bits of the GPU's timestamp counter (`GL_QUERY_COUNTER_BITS` of `GL_TIMESTAMP`).
    func timestampBits() -> Int {
        var bits: GLint = 0
        glGetQueryiv(GLenum(GL_TIMESTAMP), GLenum(GL_QUERY_COUNTER_BITS), &bits)
        return Int(bits)
    }

    /// A new query object.
    func makeQuery() -> GLuint {
        var q: GLuint = 0
        glGenQueries(1, &q)
        return q
    }

    /// Deletes the query objects `queries`.
    func deleteQueries(_ queries: [GLuint]) {
        guard !queries.isEmpty else { return }
        var names = queries
        glDeleteQueries(GLsizei(names.count), &names)
    }

    /// Has `query` record the GPU's time once every command before it has run.
    func recordTimestamp(_ query: GLuint) {
        glQueryCounter(query, GLenum(GL_TIMESTAMP))
    }

    /// Whether `query`'s result has arrived (never waits).
    func isAvailable(_ query: GLuint) -> Bool {
        var available: GLint = 0
        glGetQueryObjectiv(query, GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
        return available != 0
    }

    /// `query`'s result (waits for it when it has not arrived).
    func result(_ query: GLuint) -> UInt64 {
        var value: GLuint64 = 0
        glGetQueryObjectui64v(query, GLenum(GL_QUERY_RESULT), &value)
        return value
    }
}

/// Throws `GLError.gl` naming `what` if OpenGL has recorded any error since the last check,
/// and clears all pending error flags either way.
///
/// Call it after a group of GL calls (`try glCheck("upload contents texture")`): errors are
/// sticky, so one check covers every call since the previous one.
public func glCheck(_ what: String) throws {
    try GLDevice().check(what)
}
