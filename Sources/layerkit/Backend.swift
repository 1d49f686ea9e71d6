import ArgumentParser
import CPURenderer
import Foundation
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

    /// A renderer for this choice.
    func makeRenderer() throws -> FrameRenderer {
        switch self {
        case .cpu: return CPUFrameRenderer()
        case .gl: throw CLIError.badInput("the GL backend is not built yet")
        case .auto:
            do { throw CLIError.badInput("the GL backend is not built yet") } catch {
                FileHandle.standardError.write(Data("layerkit: warning: no GL context (\(error)); using the CPU renderer\n".utf8))
                return CPUFrameRenderer()
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
}

extension FrameRenderer {
    /// Backends without finer phases record the whole frame as `draw`.
    func render(_ list: DisplayList, profiler: FrameProfiler) throws -> Bitmap {
        try profiler.measure("draw") { try render(list) }
    }
}

struct CPUFrameRenderer: FrameRenderer {
    let renderer = CPURenderer()
    var name: String { "cpu" }
    func render(_ list: DisplayList) throws -> Bitmap { renderer.render(list) }
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

/// Refuses canvases over the documented pixel limit before any pixel is allocated.
func checkCanvasSize(_ list: DisplayList, scene: String) throws {
    let limit = Scene.maximumCanvasPixels
    if list.width > limit || list.height > limit {
        throw CLIError.badInput("\(scene): canvas of \(list.width)x\(list.height) px is over the limit of \(limit) px a side")
    }
}

