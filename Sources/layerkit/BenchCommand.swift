import ArgumentParser
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene

/// `layerkit bench`: frame times, phases and counters of a scene on a backend, or MotionMark's
/// ramp: the largest layer count whose animated frames stay within 16.7 ms.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time frames of a scene (phases, GPU time, counters), or ramp a generated scene to the 60 Hz budget.")

    @Argument(help: "The scene file (omit with --ramp or --generated).")
    var scene: String?

    @Option(help: "cpu, gl, or auto.")
    var backend: Backend = .auto

    @Option(parsing: .unconditional, help: "Frames measured.")
    var frames: Int = 60

    @Option(parsing: .unconditional, help: "Frames drawn first and not measured.")
    var warmup: Int = 5

    @Flag(help: "Play the scene's own animations (frame n at n/60 s) when it has any; otherwise change every layer's transform every frame (deterministic), so updates are measured, not a static redraw.")
    var animate = false

    @Flag(name: .customLong("move-one"), help: "Move only one layer per frame (with --animate): measures damage-limited redraws.")
    var moveOne = false

    @Flag(help: "Mark every layer that draws its contents (a scene's \"drawing\") with setNeedsDisplay() before each frame, so every frame redraws it (timed in the snapshot phase).")
    var redisplay = false

    @Flag(name: .customLong("full-redraw"), help: "Draw every frame in full (no damage tracking, either backend), as other renderers' static frames are timed.")
    var fullRedraw = false

    @Flag(name: .customLong("no-readback"), help: "GL backend: end each frame with glFinish instead of reading pixels back, as GPU frames of other renderers are timed.")
    var noReadback = false

    @Flag(help: "GL backend: draw every frame's quads (the same draws, geometry and order, blended) with a constant-colour fragment shader instead of their own, to time the rasteriser's floor for the scene's geometry. Not the scene's picture.")
    var floor = false

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "No progress line on standard error (shown only when it is a terminal).")
    var quiet = false

    @Option(help: "Write a Chrome Trace Event file (Perfetto, chrome://tracing); checked before the benchmark runs, written after its results are printed.")
    var trace: String?

    @Option(help: "leaves, multiply, cube-grid or nested: find the largest layer count (nested: depth) (from 10, doubling, then bisecting) whose median animated frame is within 16.7 ms.")
    var ramp: BenchmarkScene?

    @Option(help: "leaves, multiply, cube-grid or nested: time the scene made in code with --count layers (nested: --count levels deep) instead of a file.")
    var generated: BenchmarkScene?

    @Option(help: "The layer count (nested: depth) of the --generated scene.")
    var count: Int?

    func validate() throws {
        guard frames > 0, frames <= 1_000_000 else { throw ValidationError("--frames must be 1...1000000") }
        guard warmup >= 0, warmup <= 100_000 else { throw ValidationError("--warmup must be 0...100000") }
        switch [scene != nil, ramp != nil, generated != nil].filter({ $0 }).count {
        case 0: throw ValidationError("give a SCENE, --ramp KIND or --generated KIND")
        case 1: break
        default: throw ValidationError("give a SCENE, --ramp KIND or --generated KIND, not several")
        }
        if let generated {
            guard let count, (1...generated.maximumCount).contains(count) else {
                throw ValidationError("--generated \(generated.rawValue) needs --count 1...\(generated.maximumCount)")
            }
        } else if count != nil {
            throw ValidationError("--count goes with --generated")
        }
        // Not with `auto`: a floor timed on the CPU fallback would be no floor at all.
        if floor && backend != .gl { throw ValidationError("--floor goes with --backend gl") }
    }

    func run() throws {
        // Refused before the benchmark runs, not after it has taken minutes.
        if let trace { try checkOutputPath(trace, option: "--trace") }
        let renderer = try backend.makeRenderer(fullRedraw: fullRedraw, skipsReadback: noReadback)
        (renderer as? GLFrameRenderer)?.renderer.drawsFillFloor = floor
        if let ramp {
            try runRamp(ramp, renderer: renderer)
            return
        }
        let path: String, loaded: Scene
        if let generated, let count {
            (path, loaded) = ("\(generated.rawValue)-\(count)", generated.make(count: count))
        } else {
            path = scene!
            loaded = try loadScene(path, use: backend.memoryUse)
        }
        let progress = ProgressLine("benchmarking", total: warmup + frames, unit: "frames", quiet: quiet)
        let profiler = try measure(loaded, renderer: renderer, frames: frames, warmup: warmup, animate: animate, moveOne: moveOne,
                                   redisplay: redisplay ? loaded.drawingLayers : [], progress: progress)
        progress?.clear()
        // The results first: a trace that cannot be written after all loses nothing else.
        if json {
            printJSON(profiler, scene: path, backend: renderer.name)
        } else {
            printTable(profiler, scene: path, backend: label(renderer))
        }
        if let trace {
            try writeOutput([UInt8](profiler.traceEvents(process: "layerkit bench \(path)")), to: trace, option: "--trace")
        }
    }

    /// Draws `warmup + frames` frames, keeping the last `frames` in the profiler. Frame `n` is
    /// drawn at media time n / 60 s, as a 60 Hz display would show it; the `redisplay` layers
    /// are marked for display before each; `progress` shows the frames drawn.
    func measure(_ scene: Scene, renderer: any FrameRenderer, frames: Int, warmup: Int, animate: Bool,
                 moveOne: Bool = false, redisplay: [CALayer] = [], progress: ProgressLine? = nil) throws -> FrameProfiler {
        let loop = FrameLoop(renderer: renderer)
        let (source, animator) = frameSource(for: scene, animate: animate, onlyFirst: moveOne)
        for frame in 0..<(warmup + frames) {
            if frame == warmup { loop.profiler.reset() }
            let update: (() -> Void)? = animator == nil && redisplay.isEmpty ? nil : {
                animator?.step(frame)
                for layer in redisplay { layer.setNeedsDisplay() }
            }
            try loop.drawFrame(source, at: Double(frame) / 60, canvas: scene.canvas, updatePhase: "animate", update: update)
            progress?.update(frame + 1)
        }
        renderer.finishGPUTimes(profiler: loop.profiler)
        return loop.profiler
    }

    private func runRamp(_ kind: BenchmarkScene, renderer: any FrameRenderer) throws {
        let progress = ProgressLine("ramping", total: nil, unit: "steps", quiet: quiet)
        defer { progress?.clear() }
        var steps = 0
        func median(_ n: Int) throws -> Double {
            progress?.update(steps, detail: "measuring \(n) \(kind == .nested ? "levels" : "layers")")
            let p = try measure(kind.make(count: n), renderer: renderer, frames: 10, warmup: 2, animate: true)
            let m = p.frameStatistics.median
            steps += 1
            progress?.clear()
            if !json { print(String(format: "%@ %7d %@: median %8.2f ms", kind.rawValue, n, kind == .nested ? "levels" : "layers", m)) }
            return m
        }
        var good = 0, bad = 0, n = 10
        while n <= kind.maximumCount {
            if try median(n) <= FrameProfiler.budgetMs {
                good = n
                n *= 2
            } else {
                bad = n
                break
            }
        }
        if bad > 0 {
            // Bisect to within 5 % (or one layer).
            while Double(bad - good) > max(1, 0.05 * Double(good)) {
                let mid = (good + bad) / 2
                if try median(mid) <= FrameProfiler.budgetMs { good = mid } else { bad = mid }
            }
        }
        if json {
            let object: [String: Any] = ["ramp": kind.rawValue, "backend": renderer.name, "floor": floor, "budget_ms": FrameProfiler.budgetMs, "layers": good]
            print(String(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!)
        } else {
            print("\(kind.rawValue) on \(label(renderer)): \(kind == .nested ? counted(good, "level") : counted(good, "layer")) within \(String(format: "%.1f", FrameProfiler.budgetMs)) ms"
                  + (bad == 0 ? " (the most tried)" : ""))
        }
    }

    /// The backend as the tables name it: with `--floor`, saying that the frames were not the
    /// scene's picture.
    private func label(_ renderer: any FrameRenderer) -> String {
        renderer.name + (floor ? " (constant-colour floor)" : "")
    }

    private func printTable(_ p: FrameProfiler, scene: String, backend: String) {
        print("\(scene) on \(backend): \(counted(p.frames.count, "frame")), \(p.framesOverBudget) over 16.7 ms")
        print("phase              min   median      p95      p99      max   (ms)")
        func row(_ name: String, _ s: FrameProfiler.Statistics) {
            let label = name.padding(toLength: 12, withPad: " ", startingAt: 0)
            print(label + String(format: " %8.3f %8.3f %8.3f %8.3f %8.3f", s.min, s.median, s.p95, s.p99, s.max))
        }
        row("frame", p.frameStatistics)
        if let g = p.gpuStatistics { row("gpu", g) } else if p.gpuTimesUnknown > 0 { print("gpu          n/a (the driver could not time these frames)") }
        for phase in p.phaseNames { row(phase, p.statistics(phase: phase)) }
        print("counters (per-frame median):")
        for (k, v) in p.counterMedians.sorted(by: { $0.key < $1.key }) { print("  \(k) \(Int(v))") }
    }

    private func printJSON(_ p: FrameProfiler, scene: String, backend: String) {
        var phases: [String: Any] = [:]
        for name in p.phaseNames { phases[name] = p.statistics(phase: name).json }
        let object: [String: Any] = [
            "scene": scene, "backend": backend, "floor": floor, "frames": p.frames.count,
            "frame_ms": p.frameStatistics.json,
            "gpu_ms": p.gpuStatistics.map { $0.json as Any } ?? NSNull(),
            "frames_over_budget": p.framesOverBudget,
            "phases": phases, "counters": p.counterMedians,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        print(String(data: data, encoding: .utf8)!)
    }
}

extension BenchmarkScene: ExpressibleByArgument {}

/// What `--animate` draws for `scene` (bench and soak): the presentation tree at each frame's
/// time when the scene has animations or layer timing of its own, else the model tree, edited
/// each frame by an `Animator` when `animate` is set.
func frameSource(for scene: Scene, animate: Bool, onlyFirst: Bool = false) -> (source: any FrameSource, animator: Animator?) {
    if animate && scene.root.containsTimedLayers { return (PresentationTreeSource(scene.root), nil) }
    return (LayerTreeSource(scene.root), animate ? Animator(scene.root, onlyFirst: onlyFirst) : nil)
}

/// MotionMark-style motion: every layer turns about its own axis at its own deterministic rate
/// (transform layers about y, so cubes show new faces), on top of its original transform.
final class Animator {
    private let layers: [(CALayer, CATransform3D, CGFloat)]

    /// Animates every layer under `root`, or only the first when `onlyFirst`.
    init(_ root: CALayer, onlyFirst: Bool = false) {
        var all: [(CALayer, CATransform3D, CGFloat)] = []
        func walk(_ l: CALayer, _ i: inout Int) {
            guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { walk(l, &i) } }
            for s in l.sublayers ?? [] {
                all.append((s, s.transform, 0.01 + CGFloat(i % 7) * 0.004))
                i += 1
                if !(s is CATransformLayer) { walk(s, &i) }
            }
        }
        var i = 0
        walk(root, &i)
        layers = onlyFirst ? Array(all.prefix(1)) : all
    }

    /// Sets every layer's turn for `frame`, with actions disabled: the motion is the frames'
    /// own, and an implicit animation of each change would draw something else.
    func step(_ frame: Int) {
        CATransaction.begin()
        defer { CATransaction.commit() }
        CATransaction.setDisableActions(true)
        for (l, t, speed) in layers {
            let a = CGFloat(frame) * speed
            l.transform = l is CATransformLayer ? CATransform3DRotate(t, a, 0, 1, 0) : CATransform3DRotate(t, a, 0, 0, 1)
        }
    }
}
