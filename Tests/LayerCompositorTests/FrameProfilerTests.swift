import LayerCompositor
import XCTest

/// GPU times reach the frame they measured, whether it has ended or not, and a frame the
/// driver could not time is counted, not given a number.
final class FrameProfilerTests: XCTestCase {
    func testGPUTimesOfFinishedInProgressAndUntimedFrames() {
        let p = FrameProfiler()
        p.beginFrame()
        p.endFrame()                      // frame 0
        p.beginFrame()                    // frame 1, in progress
        p.setGPUTime(frame: 1, ms: 2.5)   // a synchronous frame's answer, before it ends
        p.setGPUTime(frame: 0, ms: 4)     // a late answer
        p.endFrame()
        p.beginFrame()
        p.setGPUTime(frame: 2, ms: nil)   // the driver could not time frame 2
        p.endFrame()
        p.setGPUTime(frame: 7, ms: 1)     // no such frame: ignored
        XCTAssertEqual(p.frames.map(\.gpuMs), [4, 2.5, nil])
        XCTAssertEqual(p.gpuTimesUnknown, 1)
        XCTAssertEqual(p.gpuStatistics?.median, 2.5)
        XCTAssertEqual(p.gpuStatistics?.max, 4)
        p.reset()
        XCTAssertEqual(p.gpuTimesUnknown, 0)
        XCTAssertNil(p.gpuStatistics)
    }
}
