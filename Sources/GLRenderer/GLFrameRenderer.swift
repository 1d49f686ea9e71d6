import CGL
import LayerCompositor
import LayerKitCore

/// A window a `GLFrameRenderer` presents frames in: its default framebuffer and the swap that
/// shows what was drawn there. A window toolkit's window conforms (the demo's GLFW window does).
public protocol GLWindowSurface: AnyObject {
    /// The framebuffer frames are copied into: the window's default framebuffer, 0, unless the
    /// surface says otherwise.
    var framebuffer: GLuint { get }
    /// The framebuffer's size in pixels.
    var framebufferSize: (width: Int, height: Int) { get }
    /// Shows the frame drawn into the framebuffer.
    func swapBuffers()
}

extension GLWindowSurface {
    /// The default framebuffer.
    public var framebuffer: GLuint { 0 }
}

/// The GL backend as a `FrameLoop` drives it, headless or in a window: one frame type for
/// `layerkit`'s commands and the demo. Every frame is drawn by a `GLRenderer` into its own
/// offscreen canvas, so a frame like the last redraws only its damage on either target; then
/// it is read back (headless), finished with `glFinish` (timing without a read-back), or
/// copied into the window's framebuffer and presented (`present` phase), read back first when
/// asked (a screenshot). With a profiler, each frame's GPU time is measured by timer queries,
/// answered a few frames late and handed to the profiler for the frame they measured.
public final class GLFrameRenderer: FrameRenderer {
    /// The renderer drawing every frame.
    public let renderer: GLRenderer
    /// Measures each profiled frame's GPU time, where the context has timer queries.
    public let gpuTimer: GPUTimer?
    /// Whether frames are read back and returned; otherwise `render` returns an empty bitmap
    /// (and a headless frame ends with `glFinish`, timed as `finish`).
    public var readsBack: Bool
    /// The headless context the renderer draws in, kept as long as the renderer.
    private let context: EGLHeadlessContext?
    /// The window frames are presented in, if any.
    private let window: (any GLWindowSurface)?

    /// A headless renderer on an EGL context of its own, current on this thread (the one that
    /// draws). `fullRedraw` draws every frame in full (no damage).
    ///
    /// - Throws: `GLError` when there is no EGL display or GL driver, `GLRendererError` naming
    ///   what failed.
    public init(readsBack: Bool = true, fullRedraw: Bool = false) throws {
        context = try EGLHeadlessContext()
        renderer = try GLRenderer()
        renderer.tracksDamage = !fullRedraw
        gpuTimer = GPUTimer()
        window = nil
        self.readsBack = readsBack
    }

    /// A renderer presenting in `window`, whose GL context must be current on this thread.
    ///
    /// - Throws: `GLRendererError` or `GLError` when the backend cannot start.
    public init(window: any GLWindowSurface) throws {
        context = nil
        renderer = try GLRenderer()
        gpuTimer = GPUTimer()
        self.window = window
        readsBack = false
    }

    /// `gl`.
    public var name: String { renderer.name }
    /// Cached contents textures plus pooled offscreen targets after the last frame.
    public var texturesHeld: Int? { renderer.texturesHeld }

    /// Draws `list` (see the type's description) and returns its pixels when `readsBack`.
    public func render(_ list: DisplayList, profiler: FrameProfiler?) throws -> Bitmap {
        if let profiler { gpuTimer?.begin(frame: profiler.nextFrameNumber) }  // the frame in progress
        let pixels: Bitmap?
        if let window {
            let fb = window.framebufferSize
            pixels = try renderer.render(list, presentingInto: window.framebuffer, width: fb.width, height: fb.height, readBack: readsBack,
                                         profiler: profiler)
        } else if readsBack {
            pixels = try renderer.render(list, profiler: profiler)
        } else {
            try renderer.renderAndFinish(list, profiler: profiler)
            pixels = nil
        }
        if profiler != nil { gpuTimer?.end() }
        if let window { profiler.map { $0.measure("present") { window.swapBuffers() } } ?? window.swapBuffers() }
        if let profiler { collectGPUTimes(into: profiler) }
        return pixels ?? Bitmap(width: 0, height: 0)
    }

    /// Hands the GPU times answered since the last call to `profiler`, without waiting; returns
    /// the frames they belong to.
    @discardableResult
    public func collectGPUTimes(into profiler: FrameProfiler) -> [Int] {
        let times = gpuTimer?.collect() ?? []
        for (f, ms) in times { profiler.setGPUTime(frame: f, ms: ms) }
        return times.map(\.frame)
    }

    /// Waits for the GPU times still to come and hands them to `profiler`.
    public func finishGPUTimes(profiler: FrameProfiler) {
        for (f, ms) in gpuTimer?.collectAll() ?? [] { profiler.setGPUTime(frame: f, ms: ms) }
    }
}
