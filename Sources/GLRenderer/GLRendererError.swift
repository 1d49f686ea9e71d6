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
