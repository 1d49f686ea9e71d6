@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// `CPURenderer.threadCount` (and `LAYERKIT_CPU_THREADS`): how many threads draw, never what
/// they draw.
final class ThreadCountTests: XCTestCase {
    /// A whole number from 1 to 1024 is taken; anything else means every core.
    func testTheEnvironmentVariable() {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        XCTAssertEqual(CPURenderer.threadCount(environment: "1"), 1)
        XCTAssertEqual(CPURenderer.threadCount(environment: "3"), 3)
        XCTAssertEqual(CPURenderer.threadCount(environment: "1024"), 1024)
        for bad in [nil, "", "0", "-2", "1025", "two", "1.5", " 1"] {
            XCTAssertEqual(CPURenderer.threadCount(environment: bad), cores, "\(String(describing: bad))")
        }
    }

    /// The shadowed seed (bands of quads, a blur in two passes) and the nested passes of the
    /// offscreen seed, at 1, 2, 3 and 7 threads, equal their golden images byte for byte.
    func testEveryCountDrawsTheGoldenBytes() throws {
        let entries = try sceneList().filter { ["4.x-shadow", "4.x-group-opacity"].contains($0.name) }
        XCTAssertEqual(entries.count, 2)
        for entry in entries {
            let list = Compositor.displayList(for: try Scene(contentsOfFile: entry.url.path), scale: 2)
            let golden = try Bitmap(contentsOfPNGFile: entry.golden(scale: 2).path)
            for threads in [1, 2, 3, 7] {
                let renderer = CPURenderer()
                renderer.threadCount = threads
                XCTAssertEqual(try renderer.render(list), golden, "\(entry.name) on \(threads) threads")
            }
        }
    }

    /// One thread draws the bytes two do, for full frames (aliased cube faces in perspective,
    /// spanning several bands) and damage redraws alike.
    func testOneThreadDrawsWhatTwoDraw() throws {
        let cubes = BenchmarkScene.cubeGrid.make(count: 240), squares = BenchmarkScene.multiply.make(count: 400)
        let one = CPURenderer(), two = CPURenderer()
        one.threadCount = 1
        two.threadCount = 2
        XCTAssertEqual(try one.render(Compositor.displayList(for: cubes)), try two.render(Compositor.displayList(for: cubes)))
        XCTAssertEqual(try one.render(Compositor.displayList(for: squares)), try two.render(Compositor.displayList(for: squares)))
        XCTAssertEqual(one.lastRedrawnPixels, 1280 * 720, "another scene: a full frame")
        let moved = squares.root.sublayers![137]
        moved.position.x += 7
        moved.transform = CATransform3DRotate(moved.transform, 0.2, 0, 0, 1)
        let redrawn = try one.render(Compositor.displayList(for: squares))
        XCTAssertGreaterThan(one.lastRedrawnPixels, 0)
        XCTAssertLessThan(one.lastRedrawnPixels, 1280 * 720 / 100, "a damage redraw")
        XCTAssertEqual(redrawn, try two.render(Compositor.displayList(for: squares)))
    }
}
