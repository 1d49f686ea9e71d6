import Foundation
import LayerKitCore
import LayerKitTestSupport
import Synchronization
@testable import layerkit_demo
import XCTest

/// Listings 6.11–6.12's page: the wheel zooms the tiled layer through its levels, and zooming
/// back to a level already drawn draws no tile.
final class DemoTiledPageTests: XCTestCase {
    /// Tiles drawn by one frame of the page's tree (every tiled layer in the process counted).
    private func tilesDrawn(_ page: TiledPage) -> Int {
        let before = CATiledLayer.tileDrawCount.load(ordering: .relaxed)
        _ = displayList(page.root, width: 400, height: 400)
        return CATiledLayer.tileDrawCount.load(ordering: .relaxed) - before
    }

    /// Zoom 1/4 on a scale-1 canvas: r = 1/4, j = 1 − ⌈−2 − 1e−6⌉ = 3 (D 1/4, a 512-pixel
    /// bitmap, 2 x 2 tiles, all in view). The wheel zooms to 1/2, level 2; back to 1/4 draws
    /// nothing, and `r` redraws.
    func testTheWheelZoomsThroughTheLevelsAndZoomingBackDrawsNothing() {
        let page = TiledPage()
        XCTAssertEqual(page.zoom, 0.25)
        XCTAssertEqual(tilesDrawn(page), 4)
        XCTAssertTrue(page.wheeled(by: 1, at: CGPoint(x: 200, y: 200)))
        XCTAssertEqual(page.zoom, 0.5)
        XCTAssertGreaterThan(tilesDrawn(page), 0)
        XCTAssertTrue(page.wheeled(by: -1, at: CGPoint(x: 200, y: 200)))
        XCTAssertEqual(tilesDrawn(page), 0)
        XCTAssertTrue(page.typed("r"))
        XCTAssertEqual(tilesDrawn(page), 4)
        _ = page.update(clock: DemoClock(frozen: 0))
        XCTAssertEqual((page.root.sublayers?.last as? CATextLayer)?.string?.hasPrefix("zoom 0.25: level 3 of 5"), true)
        XCTAssertFalse(page.wheeled(by: 0, at: .zero))
    }
}
