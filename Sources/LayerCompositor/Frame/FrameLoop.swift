import Foundation
import LayerKitCore
import Synchronization

/// Draws frames the way an app's run loop does: commit → snapshot → composite → render →
/// count, each step a phase of `profiler` (`layout`, `snapshot`, `composite`, then the
/// backend's own), with the `FrameCounter`s of the frame. `layerkit bench`, `layerkit soak`
/// and the demo all draw through one.
///
/// The display list is built by a `FrameCompositor`, so a frame where nothing changed reuses
/// the last one's.
public final class FrameLoop {
    /// What one frame drew.
    public struct Frame {
        /// The tree drawn.
        public let snapshot: LayerSnapshot
        /// The display list the backend executed (with `overlay`'s additions, where set).
        public let displayList: DisplayList
        /// The canvas as the backend returned it (empty where it reads no pixels back).
        public let pixels: Bitmap
    }

    /// The backend every frame is drawn with.
    public let renderer: any FrameRenderer
    /// Where the frames' phases and counters are recorded.
    public let profiler: FrameProfiler
    private let compositor = FrameCompositor()
    private var blendedPixels = BlendedPixels()
    /// What is drawn over every frame, from the list the compositor built to the list the
    /// backend draws: a `DebugOverlay` (`withDebugOverlay`), flashed regions (`withHighlights`).
    /// The frame's counters are those of the compositor's list.
    public var overlay: ((DisplayList) -> DisplayList)?

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
        let tree = profiler.measure("snapshot") { source.tree(at: time) }
        let snapshot = tree.snapshot
        profiler.count(.displays, Double(tree.displays))
        let tilesBefore = CATiledLayer.tileDrawCount.load(ordering: .relaxed)
        let list = profiler.measure("composite") {
            compositor.displayList(root: snapshot, width: Double(canvas.width), height: Double(canvas.height),
                                   scale: Double(canvas.scale), background: canvas.background)
        }
        profiler.count(.displayListReused, compositor.lastReused ? 1 : 0)
        profiler.count(.quadsFlattened, Double(list.quadCount - compositor.lastCopiedQuads))
        profiler.count(.instances, Double(compositor.lastInstances))
        profiler.count(.particles, Double(compositor.lastParticles))
        profiler.count(.tiles, Double(CATiledLayer.tileDrawCount.load(ordering: .relaxed) - tilesBefore))
        let drawn = overlay?(list) ?? list
        let pixels = try renderer.render(drawn, profiler: profiler)
        profiler.count(.layers, Double(snapshot.layerCount))
        profiler.count(.quads, Double(list.quadCount))
        profiler.count(.passes, Double(list.passes.count))
        profiler.count(.blendedPixels, blendedPixels.count(list))
        profiler.count(.offscreenPasses, Double(list.passes.count - 1))
        let frame = Frame(snapshot: snapshot, displayList: drawn, pixels: pixels)
        annotate?(frame)
        profiler.endFrame()
        return frame
    }
}
