import Foundation
@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import XCTest

/// `GPUTimer` on frames of many passes: a synchronous frame (its pixels read back before the
/// timer is asked) cannot have kept the GPU busy for longer than the wall-clock time from the
/// timer's `begin` to the moment its answer was read, so a reported time above that is wrong
/// (llvmpipe answered elapsed-time queries around such frames with its time since boot), and
/// the timer must report it as unknown (`nil`), never as a number.
final class GPUTimerTests: XCTestCase {
    /// Draws `list` as frame `frame` between the timer's `begin` and `end`, reading it back, and
    /// waits (30 s at most) for the answer; returns it and the wall time it had.
    private func timedFrame(_ list: DisplayList, frame: Int, timer: GPUTimer, renderer: GLRenderer) throws
        -> (answer: (frame: Int, ms: Double?), wallMs: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        timer.begin(frame: frame)
        _ = try renderer.render(list)   // reads back: the frame is finished when it returns
        timer.end()
        var answers = timer.collect()
        while answers.isEmpty && DispatchTime.now().uptimeNanoseconds - start < 30_000_000_000 {
            Thread.sleep(forTimeInterval: 0.001)
            answers = timer.collect()
        }
        let wallMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        return (try XCTUnwrap(answers.first, "frame \(frame): the query is answered once the frame is finished"), wallMs)
    }

    func testGPUTimeNeverExceedsTheSynchronousFrameOnAManyPassScene() throws {
        let h = try GLHarness()
        let timer = try XCTUnwrap(GPUTimer(), "desktop GL has timer queries")
        // 8 levels of group opacity, shadow and mask: 49 passes, each its own framebuffer.
        let list = Compositor.displayList(for: BenchmarkScene.nested.make(count: 8))
        XCTAssertEqual(list.passes.count, 49)
        for frame in 0..<3 {
            let (answer, wallMs) = try timedFrame(list, frame: frame, timer: timer, renderer: h.renderer)
            XCTAssertEqual(answer.frame, frame)
            if let ms = answer.ms {
                XCTAssertGreaterThanOrEqual(ms, 0, "frame \(frame)")
                XCTAssertLessThanOrEqual(ms, wallMs, "frame \(frame): GPU time \(ms) ms over the frame's wall time \(wallMs) ms")
            }
        }
    }

    /// A frame is timed, not only refused: the check throws away only impossible answers.
    func testOnePassFrameIsTimed() throws {
        let h = try GLHarness()
        let timer = try XCTUnwrap(GPUTimer())
        let list = Compositor.displayList(for: BenchmarkScene.multiply.make(count: 100))
        XCTAssertEqual(list.passes.count, 1)
        let (answer, wallMs) = try timedFrame(list, frame: 0, timer: timer, renderer: h.renderer)
        let ms = try XCTUnwrap(answer.ms, "a one-pass frame has a GPU time")
        XCTAssertGreaterThan(ms, 0)
        XCTAssertLessThanOrEqual(ms, wallMs)
    }
}

/// The arithmetic of one answer, by hand: a 32-bit counter that wrapped between the two
/// timestamps, an answer longer than the wall-clock time it had, and a driver with no counter.
final class GPUTimerElapsedTests: XCTestCase {
    func testElapsedTime() {
        XCTAssertEqual(GPUTimer.elapsedMs(first: 1_000_000, last: 3_500_000, counterBits: 64, cpuElapsed: 10_000_000), 2.5)
        // 2^32 − 1000 → 500: 1500 ns.
        XCTAssertEqual(GPUTimer.elapsedMs(first: (1 << 32) - 1000, last: 500, counterBits: 32, cpuElapsed: 2000), 0.0015)
        XCTAssertNil(GPUTimer.elapsedMs(first: 0, last: 4_618_622_000_000, counterBits: 64, cpuElapsed: 8_000_000_000),
                     "77 minutes for a frame of 8 s")
        XCTAssertNil(GPUTimer.elapsedMs(first: 5, last: 6, counterBits: 0, cpuElapsed: 1_000))
    }
}
