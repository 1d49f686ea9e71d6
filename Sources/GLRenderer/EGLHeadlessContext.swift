// Headless OpenGL through EGL: no window system, no surface, no DISPLAY.
//
// The display comes from Mesa's surfaceless platform when it is there (llvmpipe on machines
// without a GPU, the GPU's Mesa driver otherwise), else from the first EGL device that
// initialises (EGL_EXT_platform_device, which is what NVIDIA's driver offers). Rendering goes
// into framebuffer objects: a surfaceless context has no usable default framebuffer.
//
// EGL hands out one EGLDisplay per platform and device per process, shared by everyone who
// asks; terminating it would pull it from under every other context. So the display is
// initialised once per process and never terminated, and each EGLHeadlessContext owns only its
// context.

import CEGL

/// A headless OpenGL 3.3 core-profile (or OpenGL ES 3.0) context, current on the thread that
/// created it.
///
/// EGL makes a context current per thread: GL calls issued on another thread go nowhere until
/// `makeCurrent()` is called there, and a context should be current on one thread at a time.
/// Release it (let it deinitialise) to destroy the context.
public final class EGLHeadlessContext {
    /// Which client API a context speaks.
    public enum API: Sendable {
        /// Desktop OpenGL 3.3, core profile (drivers may give a later compatible version).
        case openGL33Core
        /// OpenGL ES 3.0 (or a later compatible version).
        case openGLES3
    }

    /// Which EGL platform the process-wide display came from: "Mesa surfaceless" or "EGL device N".
    public let platform: String
    /// The API of the context.
    public let api: API
    private let display: EGLDisplay
    private let context: EGLContext

    /// Creates a context for `api` (OpenGL 3.3 core unless told otherwise) with no surface and
    /// makes it current on the calling thread. The first call in a process also opens and initialises the shared EGL display.
    ///
    /// - Throws: `GLError.noDisplay` listing each platform's failure when no EGL display can be
    ///   initialised (no Mesa EGL, no GPU driver), or `GLError.egl` naming the call that failed.
    public init(api: API = .openGL33Core) throws {
        let shared = try Self.shared.get()
        let es = api == .openGLES3
        // The bound API is per-thread EGL state, so it is set for each context, not once.
        try eglCheck(eglBindAPI(EGLenum(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)),
                     es ? "eglBindAPI(EGL_OPENGL_ES_API)" : "eglBindAPI(EGL_OPENGL_API)")
        let configAttributes: [EGLint] = [
            EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
            EGL_SURFACE_TYPE, 0, // no surface is ever made, so any surface type will do
            EGL_NONE,
        ]
        var config: EGLConfig?
        var configCount: EGLint = 0
        try eglCheck(eglChooseConfig(shared.handle, configAttributes, &config, 1, &configCount), "eglChooseConfig")
        guard configCount > 0 else {
            throw GLError.egl(call: "eglChooseConfig (no config renders \(es ? "OpenGL ES 3" : "desktop OpenGL"))",
                              code: eglGetError())
        }
        let contextAttributes: [EGLint] = es
            ? [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
            : [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
               EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE]
        guard let context = eglCreateContext(shared.handle, config, nil, contextAttributes) else {
            throw GLError.egl(call: "eglCreateContext (\(es ? "OpenGL ES 3" : "OpenGL 3.3 core"))", code: eglGetError())
        }
        self.api = api
        self.platform = shared.platform
        self.display = shared.handle
        self.context = context
        try makeCurrent()
    }

    /// Makes this context current on the calling thread, with no surface.
    ///
    /// - Throws: `GLError.egl` naming `eglMakeCurrent` and the EGL error code.
    public func makeCurrent() throws {
        try eglCheck(eglMakeCurrent(display, nil, nil, context), "eglMakeCurrent (surfaceless)")
    }

    deinit {
        // EGL defers destroying a context that is still current; release it on this thread so
        // that it goes now rather than at thread exit.
        if eglGetCurrentContext() == context { eglMakeCurrent(display, nil, nil, nil) }
        eglDestroyContext(display, context)
    }

    /// The process-wide display, or why none could be had; computed once, on first use.
    private static let shared: Result<SharedDisplay, GLError> = openDisplay()

    private static func openDisplay() -> Result<SharedDisplay, GLError> {
        var failures: [GLError] = []
        do throws(GLError) {
            let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
            return .success(try initialize(display, platform: "Mesa surfaceless"))
        } catch {
            failures.append(error)
        }
        do throws(GLError) {
            for (index, device) in try eglDevices().enumerated() {
                do throws(GLError) {
                    let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)
                    return .success(try initialize(display, platform: "EGL device \(index)"))
                } catch {
                    failures.append(error)
                }
            }
        } catch {
            failures.append(error)
        }
        return .failure(.noDisplay(attempts: failures))
    }

    private static func initialize(_ display: EGLDisplay?, platform: String) throws(GLError) -> SharedDisplay {
        guard let display else {
            throw .egl(call: "eglGetPlatformDisplay (\(platform))", code: eglGetError())
        }
        var major: EGLint = 0, minor: EGLint = 0
        try eglCheck(eglInitialize(display, &major, &minor), "eglInitialize (\(platform))")
        return SharedDisplay(handle: display, platform: platform)
    }

    /// The EGL devices of the system (GPUs, and Mesa's software device).
    private static func eglDevices() throws(GLError) -> [EGLDeviceEXT?] {
        // glvnd's libEGL does not export extension functions; they come only from eglGetProcAddress.
        guard let address = eglGetProcAddress("eglQueryDevicesEXT") else {
            throw .egl(call: "eglGetProcAddress(\"eglQueryDevicesEXT\")", code: eglGetError())
        }
        let queryDevices = unsafeBitCast(address, to: PFNEGLQUERYDEVICESEXTPROC.self)
        var count: EGLint = 0
        try eglCheck(queryDevices(0, nil, &count), "eglQueryDevicesEXT (count)")
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        try eglCheck(queryDevices(count, &devices, &count), "eglQueryDevicesEXT")
        return Array(devices.prefix(Int(count)))
    }
}

/// An initialised EGLDisplay and the platform it came from.
///
/// EGL display handles may be used from any thread, which is what makes sharing one safe.
private struct SharedDisplay: @unchecked Sendable {
    let handle: EGLDisplay
    let platform: String
}

private func eglCheck(_ result: EGLBoolean, _ call: String) throws(GLError) {
    if result == EGLBoolean(EGL_FALSE) { throw .egl(call: call, code: eglGetError()) }
}
