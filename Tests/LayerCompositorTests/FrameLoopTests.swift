import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `FrameLoop` without a GPU: the order of a frame's phases, the counters it records, the media
/// time it hands its source, and that a failed frame is not recorded.
final class FrameLoopTests: XCTestCase {
    /// Remembers what the loop asked of it, in order.
    private final class RecordingSource: FrameSource {
        let root: CALayer
        var calls: [String] = []
        init(_ root: CALayer) { self.root = root }
        func commit(at time: TimeInterval) {
            calls.append("commit \(time)")
            root.layoutIfNeeded()
        }
        func snapshot(at time: TimeInterval) -> LayerSnapshot {
            calls.append("snapshot \(time)")
            return root.snapshot()
        }
    }

    /// Keeps the lists it is given; fails when told to.
    private final class RecordingRenderer: FrameRenderer {
        var lists: [DisplayList] = []
        var fails = false
        struct Failure: Error {}
        var name: String { "recording" }
        func render(_ list: DisplayList, profiler: FrameProfiler?) throws -> Bitmap {
            if fails { throw Failure() }
            lists.append(list)
            profiler?.count(.drawCalls, 7)
            return Bitmap(width: list.width, height: list.height)
        }
    }

    /// A 40x30 root with two coloured sublayers: 3 layers, 2 quads (the root has no
    /// background), 1 pass.
    private func tree() -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        var leaves: [CALayer] = []
        for x in [5.0, 20] {
            let leaf = CALayer()
            leaf.frame = CGRect(x: x, y: 5, width: 10, height: 10)
            leaf.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            root.addSublayer(leaf)
            leaves.append(leaf)
        }
        return (root, leaves[0])
    }

    func testAFrameRunsItsPhasesInOrderAndCountsTheList() throws {
        let (root, leaf) = tree()
        let renderer = RecordingRenderer()
        let loop = FrameLoop(renderer: renderer)
        let source = RecordingSource(root)
        let canvas = Canvas(width: 40, height: 30, scale: 2)
        var updates = 0
        let first = try loop.drawFrame(source, at: 0.5, canvas: canvas, update: { updates += 1 })
        XCTAssertEqual(updates, 1)
        XCTAssertEqual(source.calls, ["commit 0.5", "snapshot 0.5"])
        XCTAssertEqual(loop.profiler.frames.count, 1)
        let f = loop.profiler.frames[0]
        XCTAssertEqual(f.phases.map(\.name), ["update", "layout", "snapshot", "composite"])
        XCTAssertEqual(f[.layers], 3)
        XCTAssertEqual(f[.quads], 2)
        XCTAssertEqual(f[.passes], 1)
        XCTAssertEqual(f[.displayListReused], 0)
        XCTAssertEqual(f[.drawCalls], 7, "the backend's counters land in the same frame")
        XCTAssertEqual(first.displayList.width, 80, "40 points at scale 2")
        XCTAssertEqual(first.displayList.height, 60)
        XCTAssertEqual(first.pixels.width, 80)
        XCTAssertEqual(renderer.lists, [first.displayList])

        // Nothing changed: the same list again, reused.
        let second = try loop.drawFrame(source, at: 0.75, canvas: canvas, updatePhase: "animate")
        XCTAssertEqual(source.calls.suffix(2), ["commit 0.75", "snapshot 0.75"])
        XCTAssertEqual(loop.profiler.frames[1].phases.map(\.name), ["layout", "snapshot", "composite"],
                       "no update closure, no update phase")
        XCTAssertEqual(loop.profiler.frames[1][.displayListReused], 1)
        XCTAssertEqual(second.displayList, first.displayList)

        // A layer moved: a new list.
        var annotated: [Double] = []
        let third = try loop.drawFrame(source, at: 1, canvas: canvas, updatePhase: "animate", update: { leaf.position.x += 1 },
                                       annotate: { frame in annotated.append(Double(frame.snapshot.layerCount)) })
        XCTAssertEqual(loop.profiler.frames[2].phases.map(\.name), ["animate", "layout", "snapshot", "composite"])
        XCTAssertEqual(loop.profiler.frames[2][.displayListReused], 0)
        XCTAssertNotEqual(third.displayList, first.displayList)
        XCTAssertEqual(annotated, [3], "annotate sees the frame drawn")
    }

    func testAFrameWhoseBackendFailsIsNotRecorded() throws {
        let (root, _) = tree()
        let renderer = RecordingRenderer()
        let loop = FrameLoop(renderer: renderer)
        let canvas = Canvas(width: 40, height: 30)
        renderer.fails = true
        XCTAssertThrowsError(try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas))
        XCTAssertEqual(loop.profiler.frames.count, 0)
        renderer.fails = false
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames.count, 1)
        XCTAssertEqual(loop.profiler.frames[0].phases.map(\.name), ["layout", "snapshot", "composite"],
                       "the failed frame's phases are not carried over")
    }

    /// Draws a 10x10 blue square in its own draw(in:) and counts its draws.
    private final class SquareLayer: CALayer {
        var draws = 0
        override func draw(in ctx: CGContext) {
            draws += 1
            ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        }
    }

    func testOnlyAFrameAfterSetNeedsDisplayRedrawsTheLayer() throws {
        let (root, leaf) = tree()
        let drawn = SquareLayer()
        drawn.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.addSublayer(drawn)
        let loop = FrameLoop(renderer: RecordingRenderer())
        let canvas = Canvas(width: 40, height: 30)
        let source = LayerTreeSource(root)
        // Frame 0: never marked, never drawn (a new layer is not marked, as in Core Animation).
        try loop.drawFrame(source, at: 0, canvas: canvas)
        drawn.setNeedsDisplay()
        try loop.drawFrame(source, at: 1, canvas: canvas)
        // Frames 2 and 3: another layer moves, then nothing changes; neither redraws.
        try loop.drawFrame(source, at: 2, canvas: canvas, update: { leaf.position.x += 1 })
        try loop.drawFrame(source, at: 3, canvas: canvas)
        drawn.setNeedsDisplay()
        drawn.setNeedsDisplay()
        try loop.drawFrame(source, at: 4, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames.map { $0[.displays] }, [0, 1, 0, 0, 1], "two marks before one frame are one redraw")
        XCTAssertEqual(drawn.draws, 2)
    }

    /// `quads_flattened`: every quad in the first frame, the moved leaf's alone after it moves,
    /// none when the list is reused.
    func testQuadsFlattenedCountsTheChangedSubtrees() throws {
        let (root, leaf) = tree()
        let loop = FrameLoop(renderer: RecordingRenderer())
        for (n, update) in [nil, { leaf.position.y += 1 }, nil].enumerated() as EnumeratedSequence<[(() -> Void)?]> {
            try loop.drawFrame(LayerTreeSource(root), at: Double(n), canvas: Canvas(width: 40, height: 30), update: update)
        }
        XCTAssertEqual(loop.profiler.frames.map { $0[.quadsFlattened] }, [2, 1, 0])
    }

    /// The `instances` counter: an outer replicator of 2 copies holding an inner one of 3 draws
    /// 2 outer copies and 2 × 3 inner ones, 8 in all, and 6 bars.
    func testInstancesCountsReplicatedCopies() throws {
        let inner = CAReplicatorLayer()
        inner.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        inner.instanceCount = 3
        inner.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
        inner.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 5, height: 5), rgb(255, 0, 0)))
        let outer = CAReplicatorLayer()
        outer.frame = inner.frame
        outer.instanceCount = 2
        outer.instanceTransform = CATransform3DMakeTranslation(0, 10, 0)
        outer.addSublayer(inner)
        let loop = FrameLoop(renderer: RecordingRenderer())
        try loop.drawFrame(LayerTreeSource(outer), at: 0, canvas: Canvas(width: 40, height: 30))
        XCTAssertEqual(loop.profiler.frames.last?[.instances], 8)
        XCTAssertEqual(loop.profiler.frames.last?[.quads], 6)
    }

    /// The `particles` counter: a cell born 10 times a second from time 0, living 1 s, has
    /// particles born at 0, 0.1, …, 0.5 alive at 0.55 (6), and 0.1 … 1.0 at 1.05 (10, the one
    /// born at 0 died at 1.0); a cell without contents draws none.
    func testParticlesCountsWhatEmittersDraw() throws {
        let emitter = CAEmitterLayer()
        emitter.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        let cell = CAEmitterCell()
        cell.birthRate = 10
        cell.lifetime = 1
        cell.contents = CGImage(bitmap: Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)))
        let bare = CAEmitterCell()
        bare.birthRate = 10
        bare.lifetime = 1
        emitter.emitterCells = [cell, bare]
        let loop = FrameLoop(renderer: RecordingRenderer())
        for t in [0.55, 1.05] {
            try loop.drawFrame(PresentationTreeSource(emitter), at: t, canvas: Canvas(width: 40, height: 30))
        }
        XCTAssertEqual(loop.profiler.frames.map { $0[.particles] }, [6, 10])
    }

    func testCounterNamesAreTheBenchKeys() {
        // The documented keys of `layerkit bench --json`'s counters (docs/command-line.md, BENCHMARKS.md).
        XCTAssertEqual(FrameCounter.allCases.map(\.rawValue),
                       ["layers", "quads", "passes", "display_list_reused", "quads_flattened", "displays", "draw_calls", "state_changes", "texture_uploads",
                        "uploaded_bytes", "textures_held", "texture_bytes_held", "records_written",
                        "records_compared", "instances", "particles", "blended_pixels", "offscreen_passes", "tiles"])
    }

    /// `blended_pixels` and `offscreen_passes`: a 10x20 translucent layer covers 200 pixels,
    /// 800 at scale 2, the opaque leaves none; a mask adds two passes (the masked content and
    /// the mask), its drawn-back quad blends over its 10x10 (the leaf's extent, the pass's size).
    func testBlendedPixelsAndOffscreenPasses() throws {
        let (root, leaf) = tree()
        let translucent = solidLayer(CGRect(x: 0, y: 10, width: 10, height: 20), rgb(255, 0, 0, 0.5))
        root.addSublayer(translucent)
        let loop = FrameLoop(renderer: RecordingRenderer())
        let source = LayerTreeSource(root)
        try loop.drawFrame(source, at: 0, canvas: Canvas(width: 40, height: 30))
        try loop.drawFrame(source, at: 1, canvas: Canvas(width: 40, height: 30))
        try loop.drawFrame(source, at: 2, canvas: Canvas(width: 40, height: 30, scale: 2))
        try loop.drawFrame(source, at: 3, canvas: Canvas(width: 40, height: 30), update: { translucent.position.x = 40 })
        try loop.drawFrame(source, at: 4, canvas: Canvas(width: 40, height: 30), update: {
            leaf.mask = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(0, 0, 0))
        })
        let frames = loop.profiler.frames
        XCTAssertEqual(frames.map { $0[.displayListReused] }, [0, 1, 0, 0, 0])
        XCTAssertEqual(frames.map { $0[.blendedPixels] }, [200, 200, 800, 100, 200], "half of it off the canvas at frame 3")
        XCTAssertEqual(frames.map { $0[.offscreenPasses] }, [0, 0, 0, 0, 2])
    }

    /// With `overlay` set, the backend draws what it returns; the counters are the compositor's.
    func testTheOverlayIsDrawnButNotCounted() throws {
        let (root, _) = tree()
        let renderer = RecordingRenderer()
        let loop = FrameLoop(renderer: renderer)
        loop.overlay = { $0.withDebugOverlay(.blended) }
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: Canvas(width: 40, height: 30))
        XCTAssertEqual(renderer.lists.map(\.quadCount), [4], "two quads, each with its tint")
        XCTAssertEqual(frame.displayList, renderer.lists.last)
        XCTAssertEqual(loop.profiler.frames[0][.quads], 2)
    }
}
