import Foundation
import LayerKitCore
import LayerKitTestSupport
@testable import layerkit_demo
import XCTest

/// Listing 6.13's page: the emitter as the listing builds it, its particles counted as the
/// model has them, and `a` switching to figure 6.14's unordered fire.
final class DemoFirePageTests: XCTestCase {
    func testTheListingsEmitterAndItsParticleCount() throws {
        let page = try FirePage(examples: Examples(directory: examplesDirectory))
        XCTAssertEqual(page.emitter.renderMode, CAEmitterLayerRenderMode.additive)
        XCTAssertEqual(page.emitter.emitterPosition, CGPoint(x: 200, y: 180))
        let cell = try XCTUnwrap(page.emitter.emitterCells?.first)
        XCTAssertEqual([cell.birthRate, cell.lifetime, cell.alphaSpeed], [150, 5, -0.4])
        // Frozen at 2 s: births every 1/150 s from 0, all younger than 5 s: 301 alive.
        _ = page.update(clock: DemoClock(frozen: 2))
        XCTAssertEqual(page.particleCount(atTime: 2), 301)
        XCTAssertEqual((page.root.sublayers?.last as? CATextLayer)?.string, "301 particles, renderMode additive (a: switch)")
        XCTAssertTrue(page.typed("a"))
        XCTAssertEqual(page.emitter.renderMode, CAEmitterLayerRenderMode.unordered)
    }
}
