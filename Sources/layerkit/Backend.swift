import ArgumentParser
import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import Synchronization

/// Which renderer executes the display list; the command line is where a backend is chosen.
enum Backend: String, ExpressibleByArgument, CaseIterable {
    /// The CPU reference.
    case cpu
    /// OpenGL through headless EGL.
    case gl
    /// GL when a context can be made, else the CPU with a one-line warning.
    case auto

    /// What drawing a scene with this choice costs in memory (`auto` may be GL, the dearer).
    var memoryUse: Scene.MemoryUse { self == .cpu ? .cpuDrawing : .glDrawing }

    /// A renderer for this choice. With `gl`, a missing EGL display or GL driver is a one-line
    /// bad-input error naming what failed; with `auto` it is a one-line warning and the CPU.
    func makeRenderer(fullRedraw: Bool = false, skipsReadback: Bool = false) throws -> any FrameRenderer {
        func cpu() -> CPURenderer {
            let renderer = CPURenderer()
            renderer.tracksDamage = !fullRedraw
            return renderer
        }
        switch self {
        case .cpu:
            return cpu()
        case .gl:
            do {
                return try GLFrameRenderer(readsBack: !skipsReadback, fullRedraw: fullRedraw)
            } catch {
                throw CLIError.badInput("cannot use the GL backend: \(error)")
            }
        case .auto:
            do {
                return try GLFrameRenderer(readsBack: !skipsReadback, fullRedraw: fullRedraw)
            } catch {
                FileHandle.standardError.write(Data("layerkit: warning: no GL context (\(error)); using the CPU renderer\n".utf8))
                return cpu()
            }
        }
    }
}

/// Writes `error` as one bad-input line on standard error, `layerkit: …` as every command's
/// errors read, for commands that go on to the next file rather than stop (`validate`, `probes`).
func reportBadInput(_ error: Error) {
    FileHandle.standardError.write(Data("layerkit: \(error)\n".utf8))
}

/// Errors the commands report with exit code 2 (bad input or usage).
enum CLIError: Error, CustomStringConvertible {
    case badInput(String)
    var description: String {
        switch self {
        case .badInput(let s): return s
        }
    }
}

/// Refuses an output path that cannot be written, before any work is done for it: a directory,
/// a file without write permission, or a new file in a folder that does not exist or takes no
/// new file (`OutputFile.check`). Names the option, the path and why; leaves nothing behind.
func checkOutputPath(_ path: String, option: String) throws {
    do { try OutputFile.check(path) } catch { throw CLIError.badInput("cannot write \(option) \(path): \(error.reason)") }
}

/// Writes `bytes` to the output `path` through `OutputFile` (whole or not at all; a file that
/// was there is unchanged on failure), naming the option, the path and why when it fails.
func writeOutput(_ bytes: [UInt8], to path: String, option: String) throws {
    do { try writeOutputFile(bytes, to: path) } catch { throw CLIError.badInput("cannot write \(option) \(path): \(error.reason)") }
}

/// Refuses an output directory that cannot be written: a path that is not a directory, a
/// directory without write permission, or a new directory in a folder that does not exist or
/// takes no new entry. Names the option, the path and why (nothing is created here).
func checkOutputDirectory(_ path: String, option: String) throws {
    var isDirectory: ObjCBool = false
    guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return try checkOutputPath(path, option: option)
    }
    func refuse(_ why: String) -> CLIError { CLIError.badInput("cannot write \(option) \(path): \(why)") }
    if !isDirectory.boolValue { throw refuse("it is not a directory") }
    if access(path, W_OK | X_OK) != 0 { throw refuse(String(cString: strerror(errno))) }
}

/// Loads a scene file, turning any failure into a one-line bad-input error. From then on, an
/// animated value of the scene that is not finite where it is drawn (the layer is hidden
/// there) is reported once per layer and key path, as a warning on standard error naming the
/// layer's path, the key path and the layer's time. `use` is what the command does with the
/// scene, for the memory budget (`Scene.estimatedMemory`).
func loadScene(_ path: String, use: Scene.MemoryUse) throws -> Scene {
    let scene: Scene
    do {
        scene = try Scene(contentsOfFile: path, memoryUse: use)
    } catch {
        throw CLIError.badInput("\(error)")
    }
    let reported = Mutex<Set<String>>([])
    CALayer.setNonFiniteAnimationValueHandler { v in
        let layerPath = scene.path(of: v.layer) ?? scene.describe(v.layer)
        guard reported.withLock({ $0.insert(layerPath + " " + v.keyPath).inserted }) else { return }
        FileHandle.standardError.write(Data(("layerkit: warning: \(path): \(layerPath): the animated \"\(v.keyPath)\" is not finite at "
            + "layer time \(v.time); the layer is not drawn there\n").utf8))
    }
    return scene
}

/// `scene`'s canvas at `scale` (nil: the canvas's own), after refusing a scale that is not a
/// positive number and a canvas over the documented pixel limit, before anything is computed or
/// allocated for it.
func canvas(of scene: Scene, path: String, scale: Double?) throws -> Canvas {
    if let scale, !(scale > 0 && scale.isFinite) {
        throw CLIError.badInput("--scale must be a positive number, not \(scale)")
    }
    var canvas = scene.canvas
    canvas.scale = scale.map { CGFloat($0) } ?? canvas.scale
    do { try CanvasSizeError.check(width: Double(canvas.width), height: Double(canvas.height), scale: Double(canvas.scale)) } catch {
        throw CLIError.badInput("\(path): \(error)")
    }
    return canvas
}

/// The display list of `scene` (read from `path`) at `scale` (nil: the canvas's own) and scene
/// time `time` (nil: the scene's `time`), once `canvas(of:path:scale:)` accepts it.
func displayList(for scene: Scene, path: String, scale: Double?, time: Double? = nil) throws -> DisplayList {
    let canvas = try canvas(of: scene, path: path, scale: scale)
    return Compositor.displayList(for: scene, scale: Double(canvas.scale), time: time)
}
