import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A layer whose tiles draw a drawing that crosses tile edges: a circle, a diagonal and a
/// gradient, so that seams or misplaced tiles would show.
private final class Art: CATiledLayer {
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1))
        ctx.fillEllipse(in: CGRect(x: 10.5, y: 8.25, width: 150, height: 110))
        ctx.setStrokeColor(CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8))
        ctx.setLineWidth(3)
        ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 0), CGPoint(x: 180, y: 140)])
    }
}

/// Tiled layers on GL equal the CPU reference within the standard budget: a level magnified,
/// minified under a turn, and tinted by a replicator's copies (the modulation applied where
/// the tiles are sampled).
final class GLTiledLayerTests: XCTestCase {
    func testTiledLayersMatchTheReference() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 160)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 2
        r.instanceTransform = CATransform3DConcat(CATransform3DMakeScale(0.4, 0.4, 1), CATransform3DMakeRotation(0.3, 0, 0, 1))
        r.instanceGreenOffset = -0.5
        r.instanceAlphaOffset = -0.3
        let art = Art()
        art.frame = CGRect(x: 5, y: 5, width: 180, height: 140)
        art.tileSize = CGSize(width: 64, height: 48)
        art.levelsOfDetail = 3
        r.addSublayer(art)
        root.addSublayer(r)
        for s in [1.0, 2.0] {
            let list = displayList(root, width: 200, height: 160, scale: s, background: rgb(240, 240, 240))
            let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "tiled@\(Int(s))x")
            print(tableRow("tiled", s, d))
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "scale \(s): \(d)")
        }
        XCTAssertGreaterThan(art.tileStore.keptTiles(level: 1).count, 0, "the copy scaled by 0.4 shows level 1")
    }
}
