import CEGL
import CGL

/// A failure of the OpenGL backend, naming the EGL or GL call and the error code it reported,
/// so that a missing driver or a misused call can be diagnosed from the message alone.
public enum GLError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The EGL call `call` failed; `code` is what `eglGetError()` returned right after it.
    case egl(call: String, code: Int32)
    /// No EGL platform gave a usable display; `attempts` holds each platform's failure, in
    /// the order they were tried.
    case noDisplay(attempts: [GLError])
    /// `glGetError()` reported `codes` (every pending error flag) after `call`.
    case gl(call: String, codes: [UInt32])

    /// A one-line message with the call and the symbolic name and value of each code.
    public var description: String {
        switch self {
        case let .egl(call, code):
            return "\(call) failed: \(enameOfGLError(code))"
        case let .noDisplay(attempts):
            return "no headless EGL display (is Mesa's EGL, libegl-mesa0 and libgl1-mesa-dri, or a GPU driver "
                + "installed?): " + attempts.map(\.description).joined(separator: "; ")
        case let .gl(call, codes):
            return "\(call) failed: " + codes.map(nameOfGLError).joined(separator: ", ")
        }
    }
}

private func nameOfGLError(_ code: UInt32) -> String {
    let names: [Int32: String] = [
        GL_INVALID_ENUM: "GL_INVALID_ENUM", GL_INVALID_VALUE: "GL_INVALID_VALUE",
        GL_INVALID_OPERATION: "GL_INVALID_OPERATION", GL_STACK_OVERFLOW: "GL_STACK_OVERFLOW",
        GL_STACK_UNDERFLOW: "GL_STACK_UNDERFLOW", GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY",
        GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION", GL_CONTEXT_LOST: "GL_CONTEXT_LOST",
    ]
    return "\(names[Int32(bitPattern: code)] ?? "unknown GL error") (0x\(String(code, radix: 16)))"
}

private func enameOfGLError(_ code: Int32) -> String {
    let names: [Int32: String] = [
        EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
        EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
        EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE",
        EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
        EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP", EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW",
        EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE", EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
    ]
    return "\(names[code] ?? "unknown EGL error") (0x\(String(code, radix: 16)))"
}
