@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The renderer prepares quads in chunks (`CPURenderer.preparationChunk`) on its threads: the
/// prepared quads must come out in the quads' order, without those that draw nothing, and the
/// same for every thread count.
final class ParallelPreparationTests: XCTestCase {
    /// 300 aliased 8 x 8 squares on a 20-column grid of 10-pixel cells, every seventh moved
    /// off the 200 x 200 canvas: five chunks of 64, each with quads that draw nothing.
    private func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        for i in 0..<300 {
            let l = CALayer()
            l.frame = CGRect(x: i % 7 == 0 ? 500 : Double(i % 20) * 10, y: Double(i / 20) * 10, width: 8, height: 8)
            l.backgroundColor = CGColor(red: Double(i) / 300, green: 0.5, blue: 0.25, alpha: 1)
            root.addSublayer(l)
        }
        return root
    }

    func testEveryThreadCountPreparesTheQuadsInOrder() throws {
        let list = displayList(scene(), width: 200, height: 200)
        let quads = list.canvas.quads
        XCTAssertEqual(quads.count, 300)
        XCTAssertGreaterThan(quads.count, 4 * CPURenderer.preparationChunk, "several chunks")
        // Square i (not a multiple of 7) spans x = 10·(i % 20) ..< +8 and y = 10·(i / 20) ..< +8;
        // its pixel box is one pixel wider on each side, clamped at 0.
        let drawn = (0..<300).filter { $0 % 7 != 0 }
        XCTAssertEqual(drawn.count, 257)
        for threads in [1, 2, 3, 7] {
            let renderer = CPURenderer()
            renderer.threadCount = threads
            var used = Set<ObjectIdentifier>()
            let (prepared, bounds) = renderer.prepare(quads, [], list.canvas, &used)
            XCTAssertEqual(prepared.count, drawn.count, "\(threads) threads")
            XCTAssertEqual(bounds.count, 300)
            for (p, i) in zip(prepared, drawn) {
                let (x, y) = ((i % 20) * 10, (i / 20) * 10)
                let box = PixelRect(x0: max(x - 1, 0), x1: x + 9, y0: max(y - 1, 0), y1: y + 9)
                XCTAssertEqual(PixelRect(x0: p.x0, x1: p.x1, y0: p.y0, y1: p.y1), box, "square \(i) on \(threads) threads")
                XCTAssertEqual(p.solid, SIMD4(Float(Double(i) / 300), 0.5, 0.25, 1), "square \(i) on \(threads) threads")
            }
            for i in 0..<300 {
                XCTAssertEqual(bounds[i] == nil, i % 7 == 0, "square \(i)'s bounds on \(threads) threads")
            }
        }
    }

    /// The pixels of a frame of several chunks are the same on 1, 2, 3 and 7 threads.
    func testEveryThreadCountDrawsTheSameBytes() throws {
        let list = displayList(scene(), width: 200, height: 200)
        let one = CPURenderer()
        one.threadCount = 1
        let bytes = try one.render(list)
        for threads in [2, 3, 7] {
            let renderer = CPURenderer()
            renderer.threadCount = threads
            XCTAssertEqual(try renderer.render(list), bytes, "\(threads) threads")
        }
    }
}
