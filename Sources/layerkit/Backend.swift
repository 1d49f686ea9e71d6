import ArgumentParser
import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKit

/// Which renderer executes the display list; the command line is where a backend is chosen.
enum Backend: String, ExpressibleByArgument, CaseIterable {
    /// The CPU reference.
    case cpu
    /// OpenGL through headless EGL.
    case gl
    /// GL when a context can be made, else the CPU with a one-line warning.
    case auto

    /// A renderer for this choice. With `gl`, a missing EGL display or GL driver is a one-line
    /// bad-input error naming what failed; with `auto` it is a one-line warning and the CPU.
    func makeRenderer(fullRedraw: Bool = false, skipsReadback: Bool = false) throws -> FrameRenderer {
        switch self {
        case .cpu: return CPUFrameRenderer(fullRedraw: fullRedraw)
        case .gl:
            do { return try GLFrameRenderer(skipsReadback: skipsReadback) } catch { throw CLIError.badInput("cannot use the GL backend: \(error)") }
        case .auto:
            do { return try GLFrameRenderer(skipsReadback: skipsReadback) } catch {
                FileHandle.standardError.write(Data("layerkit: warning: no GL context (\(error)); using the CPU renderer\n".utf8))
                return CPUFrameRenderer(fullRedraw: fullRedraw)
            }
        }
    }
}

/// What the commands need of a backend.
protocol FrameRenderer {
    /// The backend's name, as the options spell it.
    var name: String { get }
    /// Draws one frame and returns its pixels.
    func render(_ list: DisplayList) throws -> Bitmap
    /// Draws one frame, recording the backend's phases and counters in `profiler`.
    func render(_ list: DisplayList, profiler: FrameProfiler) throws -> Bitmap
    /// Textures the backend keeps across frames after the last one, or `nil` when it keeps
    /// none it can count (what `soak` watches for leaks).
    var texturesHeld: Int? { get }
}

extension FrameRenderer {
    /// Backends without finer phases record the whole frame as `draw`.
    func render(_ list: DisplayList, profiler: FrameProfiler) throws -> Bitmap {
        try profiler.measure("draw") { try render(list) }
    }
    /// No texture count by default.
    var texturesHeld: Int? { nil }
}

struct CPUFrameRenderer: FrameRenderer {
    let renderer = CPURenderer()
    /// A CPU renderer; `fullRedraw` turns damage tracking off.
    init(fullRedraw: Bool = false) { renderer.tracksDamage = !fullRedraw }
    var name: String { "cpu" }
    func render(_ list: DisplayList) throws -> Bitmap { try renderer.render(list) }
}

/// The OpenGL backend on a headless EGL context that is current on the thread that made it,
/// the one every command draws on.
final class GLFrameRenderer: FrameRenderer {
    private let context: EGLHeadlessContext
    private let renderer: GLRenderer

    /// Makes the context and compiles the shaders; throws `GLError` (no display, no driver) or
    /// `GLRendererError` naming what failed.
    private let timer: GPUTimer?
    /// Profiled frames end with `glFinish` instead of a readback (and return an empty bitmap).
    var skipsReadback = false

    init(skipsReadback: Bool = false) throws {
        self.skipsReadback = skipsReadback
        context = try EGLHeadlessContext()
        renderer = try GLRenderer()
        timer = GPUTimer()
    }

    var name: String { "gl" }
    func render(_ list: DisplayList) throws -> Bitmap { try renderer.render(list) }

    /// Draw and readback as phases, the renderer's counters, and GPU time from timer queries
    /// (answered a few frames late, attached to the frame they measured).
    func render(_ list: DisplayList, profiler: FrameProfiler) throws -> Bitmap {
        timer?.begin(frame: profiler.nextFrameNumber)   // the frame in progress
        var bitmap = Bitmap(width: 0, height: 0)
        if skipsReadback {
            try renderer.renderAndFinish(list, profiler: profiler)
        } else {
            bitmap = try renderer.render(list, profiler: profiler)
        }
        timer?.end()
        for (f, ms) in timer?.collect() ?? [] { profiler.setGPUTime(frame: f, ms: ms) }
        let s = renderer.lastFrameStats
        for (name, value) in [("draw_calls", s.drawCalls), ("state_changes", s.stateChanges), ("texture_uploads", s.textureUploads),
                              ("uploaded_bytes", s.uploadedBytes), ("textures_held", s.texturesHeld),
                              ("texture_bytes_held", s.textureBytesHeld), ("records_written", s.recordsWritten)] {
            profiler.count(name, Double(value))
        }
        return bitmap
    }
    var texturesHeld: Int? { renderer.lastFrameStats.texturesHeld }
}

/// Errors the commands report with exit code 2 (bad input or usage).
enum CLIError: Error, CustomStringConvertible {
    case badInput(String)
    var description: String {
        switch self { case .badInput(let s): return s }
    }
}

/// Loads a scene file, turning any failure into a one-line bad-input error.
func loadScene(_ path: String) throws -> Scene {
    do { return try Scene(contentsOfFile: path) } catch { throw CLIError.badInput("\(error)") }
}

/// The display list of `scene` (read from `path`) at `scale` (nil: the canvas's own), after
/// refusing a scale that is not a positive number and a canvas over the documented pixel limit,
/// before anything is computed or allocated for it.
func displayList(for scene: Scene, path: String, scale: Double?) throws -> DisplayList {
    if let scale, !(scale > 0 && scale.isFinite) {
        throw CLIError.badInput("--scale must be a positive number, not \(scale)")
    }
    let s = scale ?? Double(scene.canvas.scale)
    do { try CanvasSizeError.check(width: Double(scene.canvas.width), height: Double(scene.canvas.height), scale: s) } catch {
        throw CLIError.badInput("\(path): \(error)")
    }
    return Compositor.displayList(for: scene, scale: s)
}

