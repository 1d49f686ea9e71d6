import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A tiled layer whose every tile fills the points (10, 10, 20, 20) red.
private final class RedSquare: CATiledLayer {
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 10, y: 10, width: 20, height: 20))
    }
}

/// Tiled layers drawn by the CPU reference and counted by the frame loop (docs/scene-format.md,
/// "tiledLayer"): the level's pixel (x, y) covers the points [x/D, (x+1)/D) from the bounds'
/// top-left corner. Filters are nearest, so every pixel checked is exact.
final class TiledLayerRenderTests: XCTestCase {
    private func square(levels: Int = 1) -> (root: CALayer, tiled: RedSquare) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let t = RedSquare()
        t.anchorPoint = .zero
        t.bounds = CGRect(x: 0, y: 0, width: 512, height: 512)
        t.levelsOfDetail = levels
        t.tileSize = CGSize(width: 16, height: 16)
        t.magnificationFilter = .nearest
        t.minificationFilter = .nearest
        root.addSublayer(t)
        return (root, t)
    }

    private func assertPixel(_ b: Bitmap, _ x: Int, _ y: Int, _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(b.rgba(x, y), expected, "pixel (\(x), \(y))", file: file, line: line)
    }

    private let red: [UInt8] = [255, 0, 0, 255], white: [UInt8] = [255, 255, 255, 255]

    /// Level 0 at scale 1: the square covers canvas pixels 10…29. Scaled by 0.5 with two
    /// levels, level 1 (D 0.5) draws it as level pixels 5…14, shown at 0.5 points each: canvas
    /// pixels 5…14. At canvas scale 2 with one level, level 0 (D 1) is magnified twice:
    /// canvas pixels 20…59.
    func testTheLevelsPixelsLandOnTheirPoints() {
        let (root, t) = square(levels: 2)
        var b = renderCPU(root, width: 100, height: 100, background: rgb(255, 255, 255))
        assertPixel(b, 10, 10, red)
        assertPixel(b, 29, 29, red)
        assertPixel(b, 9, 9, white)
        assertPixel(b, 30, 30, white)
        t.transform = CATransform3DMakeScale(0.5, 0.5, 1)
        b = renderCPU(root, width: 100, height: 100, background: rgb(255, 255, 255))
        assertPixel(b, 5, 5, red)
        assertPixel(b, 14, 14, red)
        assertPixel(b, 4, 4, white)
        assertPixel(b, 15, 15, white)
        XCTAssertEqual(t.tileStore.keptTiles(level: 1).count, 49, "the canvas shows level 1's pixels 0…99: 7 x 7 tiles")
        t.transform = CATransform3DIdentity
        t.levelsOfDetail = 1
        b = renderCPU(root, width: 100, height: 100, scale: 2, background: rgb(255, 255, 255))
        assertPixel(b, 20, 20, red)
        assertPixel(b, 59, 59, red)
        assertPixel(b, 19, 19, white)
        assertPixel(b, 60, 60, white)
    }

    /// A replicator's copies tint a tiled layer's tiles as they tint contents: copy 1, 50
    /// points right, has alpha 1 − 0.5, so its red square is half over white: (255, 128, 128)
    /// (255 · 0.5 = 127.5, either level). The tiles are drawn once for both copies.
    func testReplicatedCopiesTintTheTiles() {
        let (_, t) = square()
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeTranslation(50, 0, 0)
        r.instanceAlphaOffset = -0.5
        t.removeFromSuperlayer()
        r.addSublayer(t)
        let b = renderCPU(r, width: 100, height: 100, background: rgb(255, 255, 255))
        assertPixel(b, 15, 15, red)
        let copy = b.rgba(65, 15).map(Int.init)
        XCTAssertTrue(zip(copy, [255, 128, 128, 255]).allSatisfy { abs($0 - $1) <= 1 }, "pixel (65, 15) is \(copy)")
        assertPixel(b, 45, 15, white)
    }

    /// The frame loop's `tiles`: the 100-point canvas shows 100 / 16 → 7 x 7 = 49 tiles of
    /// the 512-point layer; an unchanged frame draws none; `setNeedsDisplay(_:)` of the square
    /// redraws the tiles it touches, columns and rows 0…1 (pixels 10…29): 4.
    func testTheFrameLoopCountsTheTilesDrawn() throws {
        let (root, t) = square()
        let loop = FrameLoop(renderer: CPURenderer())
        let canvas = Canvas(width: 100, height: 100, background: .white)
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames.last?[.tiles], 49)
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames.last?[.tiles], 0)
        t.setNeedsDisplay(CGRect(x: 10, y: 10, width: 20, height: 20))
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: canvas)
        XCTAssertEqual(loop.profiler.frames.last?[.tiles], 4)
        XCTAssertEqual(loop.profiler.frames.last?[.displays], 1)
        XCTAssertEqual(frame.pixels.rgba(20, 20), red)
    }

    /// A canvas made larger shows tiles the smaller one did not: the flattening memo of a frame
    /// that drew tiles is not copied onto a canvas of another size (50 → 100 points: 4 x 4 →
    /// 7 x 7 tiles, 33 more).
    func testAGrownCanvasDrawsTheTilesItNowShows() throws {
        let (root, t) = square()
        let loop = FrameLoop(renderer: CPURenderer())
        try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: Canvas(width: 50, height: 50, background: .white))
        XCTAssertEqual(loop.profiler.frames.last?[.tiles], 16)
        let frame = try loop.drawFrame(LayerTreeSource(root), at: 0, canvas: Canvas(width: 100, height: 100, background: .white))
        XCTAssertEqual(loop.profiler.frames.last?[.tiles], 33)
        XCTAssertEqual(t.tileStore.tileCount, 49)
        XCTAssertEqual(frame.pixels.width, 100)
    }
}
