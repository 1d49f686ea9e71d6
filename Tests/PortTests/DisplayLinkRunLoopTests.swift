import QuartzCore
import XCTest

/// A display link scheduled as an iOS app schedules one: added to the run loop, it fires while
/// the loop runs, until it is removed or invalidated. (The closure stands in for
/// `target:selector:`, which needs Objective-C.)
final class DisplayLinkRunLoopTests: XCTestCase {
    func testLinkFiresWhileTheRunLoopRuns() {
        var frames = 0
        let link = CADisplayLink { _ in frames += 1 }
        link.add(to: RunLoop.current, forMode: .common)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.25))
        // 60 Hz for 0.25 s: at most 16 frames; a loaded machine delivers fewer, not none.
        XCTAssertGreaterThanOrEqual(frames, 2)
        XCTAssertLessThanOrEqual(frames, 16)
        link.remove(from: RunLoop.current, forMode: .common)
        let before = frames
        // Something else keeps the loop running meanwhile, so that it does run.
        let keepAlive = Timer(timeInterval: 0.01, repeats: true) { _ in }
        RunLoop.current.add(keepAlive, forMode: .default)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        keepAlive.invalidate()
        XCTAssertEqual(frames, before, "removed: no more frames")
        link.invalidate()
    }

    func testTheRunLoopKeepsTheLinkUntilItIsInvalidated() {
        weak var weakLink: CADisplayLink?
        var frames = 0
        do {
            let link = CADisplayLink { _ in frames += 1 }
            link.add(to: RunLoop.current, forMode: .default)
            weakLink = link
        }
        XCTAssertNotNil(weakLink, "the run loop keeps an added link")
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        XCTAssertGreaterThan(frames, 0)
        weakLink?.invalidate()
        XCTAssertNil(weakLink, "invalidated: released")
    }

    func testPausedLinkSkipsItsFrames() {
        var frames = 0
        let link = CADisplayLink { _ in frames += 1 }
        link.isPaused = true
        link.add(to: RunLoop.current, forMode: .common)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        XCTAssertEqual(frames, 0)
        link.invalidate()
    }
}
