import Foundation
import LayerKitCore

/// Where a frame's layer tree comes from: the seam between the model and the frame loop.
///
/// Core Animation draws a frame in two steps, and a source gives the loop both: the app's
/// changes are committed (the implicit transaction: layout, then the tree is handed over), and
/// the render server draws the tree as it looks at the frame's media time (the presentation
/// tree, where animations are sampled). `LayerTreeSource` draws the model tree;
/// `PresentationTreeSource` samples the presentation tree at the frame's time.
public protocol FrameSource {
    /// Commits the model's pending changes before the frame at media time `time` is drawn
    /// (timed as the `layout` phase).
    func commit(at time: TimeInterval)

    /// The layer tree as it appears at media time `time` (timed as the `snapshot` phase).
    func snapshot(at time: TimeInterval) -> LayerSnapshot
}

/// A layer tree drawn as its model says, at any time: commit lays it out
/// (`layoutIfNeeded()`), and the frame draws its `snapshot()`, which first redraws the layers
/// marked by `setNeedsDisplay()` (their drawing is timed in the `snapshot` phase).
public struct LayerTreeSource: FrameSource {
    /// The root of the tree drawn.
    public let root: CALayer

    /// A source drawing the tree under `root`.
    public init(_ root: CALayer) { self.root = root }

    /// Lays the tree out.
    public func commit(at time: TimeInterval) { root.layoutIfNeeded() }

    /// The tree's snapshot; `time` is not read until layers animate.
    public func snapshot(at time: TimeInterval) -> LayerSnapshot { root.snapshot() }
}

/// A layer tree drawn as it appears at each frame's media time: commit is Core Animation's
/// frame commit (the implicit transaction is committed; animations' delegates hear of starts
/// and stops, finished animations are removed and ended completion blocks run, as a
/// `CADisplayLink` frame does; then the tree is laid out), and the frame draws
/// `snapshot(atTime:)`, the presentation tree with the animations sampled there. Only animated
/// subtrees are evaluated again; the rest share their kept snapshots, so a frame where one
/// layer animates costs about one layer's work.
public struct PresentationTreeSource: FrameSource {
    /// The root of the tree drawn.
    public let root: CALayer

    /// A source drawing the tree under `root`; frame times are the root's parent time.
    public init(_ root: CALayer) { self.root = root }

    /// Commits the frame at `time` (see above) and lays the tree out.
    public func commit(at time: TimeInterval) {
        AnimationClock.shared.frame(at: time)
        root.layoutIfNeeded()
    }

    /// The presentation tree at media time `time`.
    public func snapshot(at time: TimeInterval) -> LayerSnapshot { root.snapshot(atTime: time) }
}

/// Draws frames the way an app's run loop does: commit → snapshot → composite → render →
/// count, each step a phase of `profiler` (`layout`, `snapshot`, `composite`, then the
/// backend's own), with the `FrameCounter`s of the frame. `layerkit bench`, `layerkit soak`
/// and the demo all draw through one.
///
/// The display list is built by a `FrameCompositor`, so a frame where nothing changed reuses
/// the last one's.
public final class FrameLoop {
    /// The canvas a frame is drawn to: its size in points, pixels per point and background.
    public typealias Canvas = Scene.Canvas

    /// What one frame drew.
    public struct Frame {
        /// The tree drawn.
        public let snapshot: LayerSnapshot
        /// The display list the backend executed.
        public let displayList: DisplayList
        /// The canvas as the backend returned it (empty where it reads no pixels back).
        public let pixels: Bitmap
    }

    /// The backend every frame is drawn with.
    public let renderer: any FrameRenderer
    /// Where the frames' phases and counters are recorded.
    public let profiler: FrameProfiler
    private let compositor = FrameCompositor()

    /// A loop drawing with `renderer` and recording into `profiler`.
    public init(renderer: any FrameRenderer, profiler: FrameProfiler = FrameProfiler()) {
        self.renderer = renderer
        self.profiler = profiler
    }

    /// Draws the frame at media time `time` of `source` on `canvas`.
    ///
    /// `update`, when given, runs first as the phase `updatePhase`: the app's edits for this
    /// frame. `annotate` runs last, inside the frame, to record the app's own counters.
    @discardableResult
    public func drawFrame(_ source: some FrameSource, at time: TimeInterval, canvas: Canvas,
                          updatePhase: String = "update", update: (() throws -> Void)? = nil,
                          annotate: ((Frame) -> Void)? = nil) throws -> Frame {
        // A frame that throws is never ended, so it is not recorded (the next one replaces it).
        profiler.beginFrame()
        if let update { try profiler.measure(updatePhase, update) }
        profiler.measure("layout") { source.commit(at: time) }
        let displaysBefore = CALayer.displayCount.load(ordering: .relaxed)
        let snapshot = profiler.measure("snapshot") { source.snapshot(at: time) }
        profiler.count(.displays, Double(CALayer.displayCount.load(ordering: .relaxed) - displaysBefore))
        let list = profiler.measure("composite") {
            compositor.displayList(root: snapshot, width: Double(canvas.width), height: Double(canvas.height),
                                   scale: Double(canvas.scale), background: canvas.background)
        }
        profiler.count(.displayListReused, compositor.lastReused ? 1 : 0)
        profiler.count(.quadsFlattened, Double(list.quadCount - compositor.lastCopiedQuads))
        let pixels = try renderer.render(list, profiler: profiler)
        profiler.count(.layers, Double(snapshot.layerCount))
        profiler.count(.quads, Double(list.quadCount))
        profiler.count(.passes, Double(list.passes.count))
        let frame = Frame(snapshot: snapshot, displayList: list, pixels: pixels)
        annotate?(frame)
        profiler.endFrame()
        return frame
    }
}
