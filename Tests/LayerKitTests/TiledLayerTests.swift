import Foundation
import LayerCompositor
import LayerKitTestSupport
import Synchronization
import XCTest
@testable import LayerKitCore

/// Records each tile's `draw(in:)` call: its clip box, the CTM's scale and the thread, under a
/// lock (tiles are drawn concurrently).
private final class TileRecorder: CATiledLayer {
    struct Call: Equatable {
        let clip: CGRect
        let scale: CGFloat
    }
    let calls = Mutex<[Call]>([])
    let threads = Mutex<Set<String>>([])
    /// When set, each call waits (up to a second) until this many calls have begun together.
    var rendezvous = 0
    private let running = Atomic<Int>(0)
    let mostAtOnce = Atomic<Int>(0)

    override func draw(in ctx: CGContext) {
        let now = running.add(1, ordering: .relaxed).newValue
        _ = mostAtOnce.max(now, ordering: .relaxed)
        if rendezvous > 1 {
            let deadline = Date().addingTimeInterval(1)
            while mostAtOnce.load(ordering: .relaxed) < rendezvous && Date() < deadline { usleep(1000) }
        }
        calls.withLock { $0.append(Call(clip: ctx.boundingBoxOfClipPath, scale: ctx.ctm.a)) }
        threads.withLock { _ = $0.insert("\(Unmanaged.passUnretained(Thread.current).toOpaque())") }
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(ctx.boundingBoxOfClipPath)
        running.subtract(1, ordering: .relaxed)
    }

    /// The calls so far, sorted by clip origin (their order is not defined), and forgets them.
    func take() -> [Call] {
        calls.withLock { c in
            defer { c = [] }
            return c.sorted { ($0.clip.minY, $0.clip.minX) < ($1.clip.minY, $1.clip.minX) }
        }
    }
}

/// `CATiledLayer`: Apple's names and defaults, the levels of detail and the level chosen on
/// the canvas (numbers worked out by hand from docs/scene-format.md, "tiledLayer"), and which
/// tiles `draw(in:)` is asked for, with what clip and CTM.
final class TiledLayerTests: XCTestCase {
    func testDefaultsKeyValueCodingAndPresentationCopies() {
        let l = CATiledLayer()
        XCTAssertEqual(CATiledLayer.fadeDuration(), 0.25)
        XCTAssertEqual(l.levelsOfDetail, 1)
        XCTAssertEqual(l.levelsOfDetailBias, 0)
        XCTAssertEqual(l.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(l.value(forKey: "levelsOfDetail") as? Int, 1)
        l.setValue(3, forKey: "levelsOfDetail")
        l.setValue(2, forKey: "levelsOfDetailBias")
        l.setValue(CGSize(width: 128, height: 64), forKey: "tileSize")
        XCTAssertEqual([l.levelsOfDetail, l.levelsOfDetailBias], [3, 2])
        XCTAssertEqual(l.tileSize, CGSize(width: 128, height: 64))
        XCTAssertEqual(l.value(forKey: "tileSize") as? CGSize, CGSize(width: 128, height: 64))
        l.tileSize = CGSize(width: CGFloat.nan, height: 1)
        XCTAssertEqual(l.tileSize, CGSize(width: 128, height: 64), "non-finite sizes are ignored")
        let copy = l.presentation(atTime: 0) as? CATiledLayer
        XCTAssertEqual(copy?.levelsOfDetail, 3)
        XCTAssertEqual(copy?.tileSize, CGSize(width: 128, height: 64))
        XCTAssertTrue(copy?.tileStore === l.tileStore, "a presentation copy shows the model's tiles")
        // Not animatable (Apple marks none of them): a change in a committed layer adds no action.
        let root = CALayer()
        root.addSublayer(l)
        _ = root.snapshot()
        l.levelsOfDetail = 4
        XCTAssertNil(l.animationKeys())
    }

    /// Levels 3, bias 1: scales 2, 1, 0.5. Scaled by 0.5 on a scale-1 canvas (σ 0.5): r = 0.5,
    /// ⌈log2 0.5 − 1e−6⌉ = −1, j = 1 + 1 = 2. Scaled by 1.5: ⌈0.585⌉ = 1, j = 0. σ 1: j = 1.
    /// σ 2: ⌈1 − 1e−6⌉ = 1, j = 0. σ 4: j = −1, held at 0 (magnified). σ 0.25: j = 3, held at 2.
    /// With contentsScale 2, σ 2 is r = 1: j = 1.
    func testTheLevelChosenFromTheScaleOnTheCanvas() {
        var s = TiledLayerStyle(tiles: TileStore())
        s.levelsOfDetail = 3
        s.levelsOfDetailBias = 1
        let size = CGSize(width: 100, height: 100)
        XCTAssertEqual((0..<3).map { s.pixelsPerPoint(level: $0, contentsScale: 1) }, [2, 1, 0.5])
        XCTAssertEqual((0..<3).map { s.pixelsPerPoint(level: $0, contentsScale: 2) }, [4, 2, 1])
        let levels = [0.5, 1.5, 1, 2, 4, 0.25].map { s.level(screenScale: $0, size: size, contentsScale: 1) }
        XCTAssertEqual(levels, [2, 0, 1, 0, 0, 2])
        XCTAssertEqual(s.level(screenScale: 2, size: size, contentsScale: 2), 1)
        XCTAssertNil(s.level(screenScale: .nan, size: size, contentsScale: 1))
    }

    /// A 4 x 4 point layer at scale 1: level j is 4 / 2^j pixels a side, so 4, 2, 1 have a
    /// pixel and 0.5 does not: 3 levels, however many are asked for (10^6 included).
    /// 10,000 points with bias 1: level 0 is 20,000 pixels, over 16,384, so drawing starts at
    /// level 1 (10,000), shown magnified where level 0 would be chosen.
    func testLevelsUnderAPixelAndOverTheBoundAreNotDrawn() {
        var s = TiledLayerStyle(tiles: TileStore())
        s.levelsOfDetail = 5
        XCTAssertEqual(s.usableLevels(size: CGSize(width: 4, height: 4), contentsScale: 1), 0..<3)
        s.levelsOfDetail = 1_000_000
        XCTAssertEqual(s.usableLevels(size: CGSize(width: 4, height: 4), contentsScale: 1), 0..<3)
        XCTAssertEqual(s.usableLevels(size: CGSize(width: 4, height: 1), contentsScale: 1), 0..<1)
        s.levelsOfDetail = 2
        s.levelsOfDetailBias = 1
        let huge = CGSize(width: 10_000, height: 100)
        XCTAssertEqual(s.usableLevels(size: huge, contentsScale: 1), 1..<2)
        XCTAssertEqual(s.level(screenScale: 2, size: huge, contentsScale: 1), 1)
        s.levelsOfDetail = 1
        XCTAssertTrue(s.usableLevels(size: huge, contentsScale: 1).isEmpty, "no level fits: nothing is drawn")
        XCTAssertTrue(s.usableLevels(size: .zero, contentsScale: 1).isEmpty)
        s.tileSize = CGSize(width: 0, height: 1e9)
        XCTAssertTrue(s.tilePixels == (1, 4096))
    }

    /// 1-pixel tiles over a 1000-pixel level would be 10^6 tiles; doubled sides give 250,000
    /// (2), 62,500 (4), 15,625 (8), then ⌈1000 / 16⌉² = 63² = 3,969 (16), within 4,096.
    func testALevelIsCutIntoAtMostTheBoundOfTiles() {
        var s = TiledLayerStyle(tiles: TileStore())
        s.tileSize = CGSize(width: 1, height: 1)
        let grid = s.grid(level: 0, bounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), contentsScale: 1)
        XCTAssertEqual([grid.tileWidth, grid.tileHeight, grid.columns, grid.rows], [16, 16, 63, 63])
        s.tileSize = CGSize(width: 256, height: 256)
        XCTAssertEqual(s.grid(level: 0, bounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), contentsScale: 1).tileWidth, 256)
    }

    private func tiledLayer(_ frame: CGRect, levels: Int = 1) -> (root: CALayer, tiled: TileRecorder) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        let t = TileRecorder()
        t.frame = frame
        t.levelsOfDetail = levels
        root.addSublayer(t)
        return (root, t)
    }

    private func frame(_ root: CALayer, scale: Double = 1) { _ = displayList(root, width: 300, height: 300, scale: scale) }

    /// A 512-point layer in 256-pixel tiles on a 300-point canvas: the canvas holds points
    /// 0…300, so tiles (0, 0), (1, 0), (0, 1), (1, 1) and no more, each drawn once with its
    /// own 256-point clip and a CTM of scale 1 (y down: the device space's y runs up, so d is −1).
    func testEachVisibleTileIsDrawnOnceWithItsClipAndScale() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 512, height: 512))
        frame(root)
        let calls = t.take()
        XCTAssertEqual(calls.map(\.clip), [CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256),
                                           CGRect(x: 0, y: 256, width: 256, height: 256), CGRect(x: 256, y: 256, width: 256, height: 256)])
        XCTAssertEqual(calls.map(\.scale), [1, 1, 1, 1])
        XCTAssertEqual(t.tileStore.tileCount, 4)
        frame(root)
        XCTAssertEqual(t.take(), [], "kept tiles are not drawn again")
    }

    /// At 2x, contentsScale 2 makes tiles 128 points: the 300-point canvas needs columns and
    /// rows 0…2 (0–384 points), 9 tiles, with a CTM of scale 2. The right and bottom tiles of a
    /// 300-point layer are cut to the bitmap: 600 − 512 = 88 pixels, 44 points.
    func testTilesAreCutFromTheLevelsBitmapInPixels() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 300, height: 300))
        t.contentsScale = 2
        frame(root, scale: 2)
        let calls = t.take()
        XCTAssertEqual(calls.count, 9)
        XCTAssertEqual(Set(calls.map(\.scale)), [2])
        XCTAssertEqual(calls.last?.clip, CGRect(x: 256, y: 256, width: 44, height: 44))
        XCTAssertEqual(calls.first?.clip, CGRect(x: 0, y: 0, width: 128, height: 128))
    }

    /// Only the top-left tile of a 512-point layer at (−200, −200) lies on the canvas (the
    /// layer's points 200…500 are on it: tiles 0 and 1 each way); moved to (−260, −260), only
    /// tile (1, 1). A layer off the canvas draws nothing.
    func testTilesOffTheCanvasAreNotDrawn() {
        let (root, t) = tiledLayer(CGRect(x: -200, y: -200, width: 512, height: 512))
        frame(root)
        XCTAssertEqual(t.take().count, 4)
        t.position = CGPoint(x: 256 - 260, y: 256 - 260)
        t.setNeedsDisplay()
        frame(root)
        XCTAssertEqual(t.take().map(\.clip), [CGRect(x: 256, y: 256, width: 256, height: 256)])
        t.position = CGPoint(x: 1000, y: 1000)
        t.setNeedsDisplay()
        frame(root)
        XCTAssertEqual(t.take(), [])
        // A masksToBounds ancestor clips what is visible too: a 100-point window shows tile 0.
        let (root2, t2) = tiledLayer(CGRect(x: 0, y: 0, width: 512, height: 512))
        root2.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root2.masksToBounds = true
        frame(root2)
        XCTAssertEqual(t2.take().map(\.clip), [CGRect(x: 0, y: 0, width: 256, height: 256)])
    }

    /// Zooming out by 2 (levels 2: level 1 at 0.5 pixels per point, a 256-pixel bitmap, one
    /// tile with scale 0.5) draws that level once; zooming back to 1 shows level 0's kept
    /// tiles and draws nothing; zooming out again draws nothing either.
    func testZoomingBackDoesNotRedraw() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 512, height: 512), levels: 2)
        frame(root)
        XCTAssertEqual(t.take().count, 4)
        root.sublayerTransform = CATransform3DMakeScale(0.5, 0.5, 1)
        frame(root)
        XCTAssertEqual(t.take(), [TileRecorder.Call(clip: CGRect(x: 0, y: 0, width: 512, height: 512), scale: 0.5)])
        root.sublayerTransform = CATransform3DIdentity
        frame(root)
        XCTAssertEqual(t.take(), [])
        root.sublayerTransform = CATransform3DMakeScale(0.5, 0.5, 1)
        frame(root)
        XCTAssertEqual(t.take(), [])
        XCTAssertEqual(t.tileStore.keptTiles(level: 0), [0, 1, 2, 3])
        XCTAssertEqual(t.tileStore.keptTiles(level: 1), [0])
    }

    /// `setNeedsDisplay(_:)` of (10, 10, 5, 5) touches tile 0 of level 0 and the one tile of
    /// level 1; (256, 0, 1, 1) touches tile 1 of level 0 (pixel 256 is its first) and level
    /// 1's tile. `setNeedsDisplay()` drops all of them.
    func testSetNeedsDisplayInRectRedrawsOnlyTheTilesItTouches() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 512, height: 512), levels: 2)
        frame(root)
        root.sublayerTransform = CATransform3DMakeScale(0.5, 0.5, 1)
        frame(root)
        root.sublayerTransform = CATransform3DIdentity
        frame(root)
        _ = t.take()
        t.setNeedsDisplay(CGRect(x: 10, y: 10, width: 5, height: 5))
        frame(root)
        XCTAssertEqual(t.take().map(\.clip), [CGRect(x: 0, y: 0, width: 256, height: 256)])
        XCTAssertEqual(t.tileStore.keptTiles(level: 1), [], "every level's touched tiles are dropped")
        t.setNeedsDisplay(CGRect(x: 256, y: 0, width: 1, height: 1))
        frame(root)
        XCTAssertEqual(t.take().map(\.clip), [CGRect(x: 256, y: 0, width: 256, height: 256)])
        t.setNeedsDisplay()
        frame(root)
        XCTAssertEqual(t.take().count, 4)
    }

    /// An animated scale switches levels: the animation runs from 10 s to 11 s; the
    /// presentation tree at 9 s shows level 0 (scale 1), at 11 s (held by its fill) level 1
    /// (scale 0.5).
    func testAnAnimatedScaleSwitchesLevels() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 512, height: 512), levels: 2)
        let a = CABasicAnimation(keyPath: "sublayerTransform.scale")
        a.fromValue = 1
        a.toValue = 0.5
        a.duration = 1
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        a.beginTime = 10
        root.add(a, forKey: "zoom")
        _ = Compositor.displayList(root: root.snapshot(atTime: 9), width: 300, height: 300, scale: 1, background: nil)
        XCTAssertEqual(Set(t.take().map(\.scale)), [1])
        _ = Compositor.displayList(root: root.snapshot(atTime: 11), width: 300, height: 300, scale: 1, background: nil)
        XCTAssertEqual(t.take().map(\.scale), [0.5])
    }

    /// Perspective: the parent's sublayerTransform has m34 = −1/500 and the layer sits at
    /// zPosition −500, centred under the parent's centre, so its centre is shrunk by
    /// 500 / (500 + 500) = 0.5: σ 0.5, level 1 (scale 0.5); the 300-point layer's level-1 bitmap
    /// is 150 pixels, one tile, on the canvas.
    func testTheLevelUnderPerspectiveIsTheScaleAtTheCentre() {
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 300, height: 300), levels: 2)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        root.sublayerTransform = p
        t.zPosition = -500
        frame(root)
        XCTAssertEqual(t.take(), [TileRecorder.Call(clip: CGRect(x: 0, y: 0, width: 300, height: 300), scale: 0.5)])
    }

    /// With 8 tiles to draw and a draw(in:) that waits for a second call to begin, two run at
    /// once: tiles are drawn in parallel, on more than one thread.
    func testTilesAreDrawnInParallel() throws {
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "one core: nothing can run in parallel")
        let (root, t) = tiledLayer(CGRect(x: 0, y: 0, width: 300, height: 300))
        t.tileSize = CGSize(width: 150, height: 75)
        t.rendezvous = 2
        frame(root)
        XCTAssertEqual(t.take().count, 8)
        XCTAssertGreaterThanOrEqual(t.mostAtOnce.load(ordering: .relaxed), 2)
        XCTAssertGreaterThanOrEqual(t.threads.withLock { $0.count }, 2)
    }

    /// The tiles of a drawing, assembled, equal the drawing made once into the whole bitmap at
    /// the level's scale, as a plain layer with that contentsScale draws it: exactly, but for
    /// antialiasing rounding on the pixels along a tile's edge (at most 2 levels there).
    func testAssembledTilesEqualTheWholeDrawing() throws {
        final class Art: NSObject, CALayerDelegate {
            func draw(_ layer: CALayer, in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1))
                ctx.fillEllipse(in: CGRect(x: 13.3, y: 7.7, width: 170.5, height: 120.25))
                ctx.setStrokeColor(CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 0.8))
                ctx.setLineWidth(3.5)
                ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 0), CGPoint(x: 150, y: 100), CGPoint(x: 10, y: 90), CGPoint(x: 140, y: 3)])
                ctx.fill(CGRect(x: 50.25, y: 50.25, width: 49.5, height: 24))
            }
        }
        let art = Art()
        let plain = CALayer()
        plain.bounds = CGRect(x: 0, y: 0, width: 150, height: 100)
        plain.contentsScale = 2
        plain.delegate = art
        plain.setNeedsDisplay()
        plain.displayIfNeeded()
        let whole = try XCTUnwrap(plain.contents).bitmap
        let tiled = CATiledLayer()
        tiled.bounds = plain.bounds
        tiled.delegate = art
        tiled.tileSize = CGSize(width: 64, height: 48)
        let grid = TileStore.Grid(level: 0, pixelsPerPoint: 2, bounds: tiled.bounds, tileWidth: 64, tileHeight: 48)
        XCTAssertEqual([grid.columns, grid.rows], [5, 5])
        let region = try XCTUnwrap(tiled.tileStore.region(of: grid, tiles: Array(0..<25), style: tiled.style, contentsScale: 1))
        let assembled = region.image.bitmap
        XCTAssertEqual([assembled.width, assembled.height], [300, 200])
        var edgeDifferences = 0
        for y in 0..<200 {
            for x in 0..<300 {
                let d = zip(whole.rgba(x, y), assembled.rgba(x, y)).map { abs(Int($0) - Int($1)) }.max()!
                guard d > 0 else { continue }
                let onEdge = [x % 64, (x + 1) % 64].contains(0) || [y % 48, (y + 1) % 48].contains(0)
                XCTAssertTrue(onEdge && d <= 2, "pixel (\(x), \(y)) differs by \(d)")
                edgeDifferences += 1
            }
        }
        XCTAssertLessThan(edgeDifferences, 200)
    }
}
