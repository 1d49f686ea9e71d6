import Foundation
import LayerCompositor
import LayerKitCore
import Synchronization

/// What the HUD reports besides the profiler's timings.
struct HUDInfo {
    /// `3/34 cube — title`.
    var page: String
    /// Whether the page animates (fps means something) or waits for input.
    var animating: Bool
    /// The quads of the page alone, without the HUD's and the stage's.
    var pageQuads: Int
    /// The page's animations within their active duration at the frame's media time.
    var runningAnimations: Int
    /// What the last click's `hitTest` returned.
    var hit: String
    /// A passing message (reload error, screenshot saved), or the keys hint.
    var status: String
}

/// The heads-up display, drawn with layers like everything else: fps, the whole frame's time and
/// its parts — CPU (the app's and the compositor's work, and issuing GL calls), present (the
/// buffer swap, where a software GL such as llvmpipe does its drawing) and GPU (timer queries,
/// which llvmpipe answers with next to nothing) — with a history graph (one bar layer per
/// frame), layer, quad, pass and draw-call counts, the running animations, the page and the last hit. Its numbers come
/// from the demo's `FrameProfiler`: the counters `layers`, `page layers`, `passes` and
/// `draw_calls` of the last frame, and its phases; the page's quads from `HUDInfo`.
///
/// While the page animates, the timings text changes at most four times a second (a text layer
/// is rasterized again whenever its string changes); the graph follows every frame.
final class HUD {
    /// The panel: the HUD's root layer, placed by the stage.
    let layer = CALayer()
    private let header = CATextLayer()
    private let footer = CATextLayer()
    private let graph = CALayer()
    private var cpuBars: [CALayer] = []
    private var gpuBars: [CALayer] = []
    private var lastTextUpdate = -Double.infinity
    private var timings = ""

    /// Frames in the graph.
    static let history = 60
    /// Graph height in points; its top stands for two 60 Hz frame budgets.
    private static let graphHeight: CGFloat = 40
    private static let graphMs = 2 * FrameProfiler.budgetMs
    private static let width: CGFloat = 330
    private static let font = "DejaVu Sans Mono"

    /// Builds the panel's layers.
    init() {
        layer.name = "HUD"
        layer.backgroundColor = CGColor(gray: 0, alpha: 0.72)
        layer.cornerRadius = 6
        layer.bounds = CGRect(x: 0, y: 0, width: Self.width, height: 184)
        layer.anchorPoint = .zero
        for (text, y, height) in [(header, CGFloat(6), CGFloat(46)), (footer, 104, 74)] {
            text.frame = CGRect(x: 8, y: y, width: Self.width - 16, height: height)
            text.font = Self.font
            text.fontSize = 11
            text.foregroundColor = CGColor(gray: 0.95, alpha: 1)
            text.truncationMode = .end
            text.isWrapped = text === footer  // a long reload error wraps onto the lines below
            layer.addSublayer(text)
        }
        graph.frame = CGRect(x: 8, y: 56, width: Self.width - 16, height: Self.graphHeight)
        graph.backgroundColor = CGColor(gray: 1, alpha: 0.08)
        layer.addSublayer(graph)
        let budget = CALayer()
        budget.name = "16.7 ms"
        budget.frame = CGRect(x: 0, y: Self.graphHeight / 2, width: graph.bounds.width, height: 1)
        budget.backgroundColor = CGColor(red: 1, green: 0.3, blue: 0.3, alpha: 0.8)
        let step = graph.bounds.width / CGFloat(Self.history)
        for i in 0..<Self.history {
            let cpu = CALayer(), gpu = CALayer()
            cpu.backgroundColor = CGColor(red: 0.3, green: 0.8, blue: 1, alpha: 0.9)
            gpu.backgroundColor = CGColor(red: 1, green: 0.65, blue: 0.2, alpha: 0.9)
            cpu.frame = CGRect(x: CGFloat(i) * step, y: Self.graphHeight, width: step * 0.5, height: 0)
            gpu.frame = CGRect(x: (CGFloat(i) + 0.5) * step, y: Self.graphHeight, width: step * 0.4, height: 0)
            graph.addSublayer(cpu)
            graph.addSublayer(gpu)
            cpuBars.append(cpu)
            gpuBars.append(gpu)
        }
        graph.addSublayer(budget)
    }

    /// Sets the text layers' `contentsScale` to the window's, so text is as sharp as the screen
    /// allows (on iOS an app sets it to `UIScreen.main.scale` for the same reason).
    func setScale(_ scale: CGFloat) {
        header.contentsScale = scale
        footer.contentsScale = scale
    }

    /// Shows the latest frames of `profiler` and `info`; `now` (seconds) paces the text updates.
    func update(profiler: FrameProfiler, info: HUDInfo, now: Double) {
        let frames = profiler.frames.suffix(Self.history)
        for (i, f) in frames.enumerated() {
            let slot = Self.history - frames.count + i
            setBar(cpuBars[slot], ms: Self.cpuMs(f))
            setBar(gpuBars[slot], ms: f.gpuMs ?? 0)
        }
        if !info.animating || now - lastTextUpdate >= 0.25 {
            lastTextUpdate = now
            timings = Self.timings(frames, animating: info.animating)
        }
        header.string = info.page + "\n" + timings
        let c = frames.last?.counters ?? [:]
        func n(_ key: String) -> Int { Int(c[key] ?? 0) }
        func n(_ counter: FrameCounter) -> Int { n(counter.rawValue) }
        footer.string = "layers \(n("page layers")) (+\(n(.layers) - n("page layers")))  quads \(info.pageQuads)  "
            + "passes \(n(.passes))  draws \(n(.drawCalls))  animations \(info.runningAnimations)"
            + (n(.instances) > 0 ? "  instances \(n(.instances))" : "")
            + (n(.particles) > 0 ? "  particles \(n(.particles))" : "")
            + (tilesDrawn > 0 ? "  tiles \(n(.tiles)) (\(tilesDrawn) in all)" : "") + "\n"
            + "hit: \(info.hit)\n" + info.status
    }

    /// The tiles of `CATiledLayer`s drawn in this process: shown, with the frame's, once any is.
    private var tilesDrawn: Int { CATiledLayer.tileDrawCount.load(ordering: .relaxed) }

    /// A frame's CPU time: every phase but `present`, which waits for the display.
    static func cpuMs(_ f: FrameProfiler.Frame) -> Double {
        f.phases.filter { $0.name != "present" }.reduce(0) { $0 + $1.ms }
    }

    /// A frame's `present` phase: the buffer swap, which waits for the display and, under a
    /// software GL, draws the frame.
    static func presentMs(_ f: FrameProfiler.Frame) -> Double {
        f.phases.filter { $0.name == "present" }.reduce(0) { $0 + $1.ms }
    }

    /// Two lines over the recent frames (medians): `60.0 fps  frame 15.20 ms` (the whole
    /// frame's wall time), then
    /// `CPU 2.10 ms  present 13.00 ms  GPU 0.84 ms`; fps is `idle` when the page redraws only
    /// on input.
    static func timings(_ frames: ArraySlice<FrameProfiler.Frame>, animating: Bool) -> String {
        let recent = frames.suffix(15)
        func median(_ f: (FrameProfiler.Frame) -> Double) -> Double { FrameProfiler.Statistics(recent.map(f)).median }
        let gpu = recent.compactMap(\.gpuMs)
        var fps = "idle"
        if animating, let first = recent.first, let last = recent.last, recent.count > 1, last.start > first.start {
            fps = String(format: "%.1f fps", Double(recent.count - 1) / (last.start - first.start))
        }
        let gpuText = gpu.isEmpty ? "GPU –" : String(format: "GPU %.2f ms", FrameProfiler.Statistics(gpu).median)
        return fps + String(format: "  frame %.2f ms\nCPU %.2f ms  present %.2f ms  ", median(\.totalMs), median(cpuMs), median(presentMs))
            + gpuText
    }

    /// Sizes a graph bar for `ms` milliseconds, standing on the graph's bottom edge.
    private func setBar(_ bar: CALayer, ms: Double) {
        let h = Self.graphHeight * CGFloat(min(max(ms / Self.graphMs, 0), 1))
        bar.frame = CGRect(x: bar.frame.minX, y: Self.graphHeight - h, width: bar.bounds.width, height: h)
    }
}
