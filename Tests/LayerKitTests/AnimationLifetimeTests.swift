import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// What finished animations leave behind: nothing. Driven by a display link whose time the
/// test sets; weak references show what is still alive after the frame that removes an
/// animation.
final class AnimationLifetimeTests: XCTestCase {
    private var now = 0.0
    private var link: CADisplayLink!
    private let root = CALayer(), layer = CALayer()

    override func setUp() {
        super.setUp()
        CATransaction.flush()
        link = CADisplayLink(timeSource: { [unowned self] in now }) { _ in }
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.addSublayer(layer)
        frame(at: 0)
    }

    override func tearDown() {
        root.removeAllAnimations()
        layer.removeAllAnimations()
        link.invalidate()
        CATransaction.flush()
        super.tearDown()
    }

    /// A frame at media time `t`, drawn (snapshotted) as a display link's callback would.
    private func frame(at t: Double) {
        now = t
        XCTAssertTrue(link.step())
        _ = root.snapshot(atTime: t)
    }

    func testAFinishedAnimationIsRemovedToldAndFreed() {
        let delegate = StopRecorder()
        weak var added: CAAnimation?
        do {
            let a = CABasicAnimation(keyPath: "opacity")
            (a.fromValue, a.toValue, a.duration, a.delegate) = (0.0, 1.0, 1, delegate)
            layer.add(a, forKey: "fade")
            added = layer.animation(forKey: "fade")
        }
        XCTAssertNotNil(added)
        frame(at: 0.5)
        XCTAssertEqual(layer.animationKeys(), ["fade"])
        XCTAssertTrue(layer.isOnAnimationClock)
        // The active duration, 1 s from 0, has passed at 1: removed, told once, freed.
        frame(at: 1)
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(delegate.stops, [true])
        XCTAssertNil(added, "nothing keeps a finished animation")
        XCTAssertFalse(layer.isOnAnimationClock, "a layer whose animations ended leaves the clock's list")
        XCTAssertFalse(root.containsTimedLayers)
        frame(at: 2)
        XCTAssertEqual(delegate.stops, [true])
    }

    func testAnAnimationKeptAfterCompletionLeavesTheClockButStays() {
        let a = CABasicAnimation(keyPath: "opacity")
        (a.toValue, a.duration, a.isRemovedOnCompletion, a.fillMode) = (0.0, 1, false, .forwards)
        layer.add(a, forKey: "fade")
        frame(at: 1)
        XCTAssertEqual(layer.animationKeys(), ["fade"])
        XCTAssertFalse(layer.isOnAnimationClock, "nothing more to report for it")
        XCTAssertEqual(root.snapshot(atTime: 5).sublayers[0].properties.opacity, 0, "filled forwards")
    }

    func testAFinishedTransitionFreesItsOldRendering() {
        weak var added: CATransition?
        weak var oldImage: CGImage?
        weak var oldRendering: LayerSnapshot?
        do {
            let red = solidImage(width: 2, height: 2, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            oldImage = red
            layer.contents = red
            frame(at: 0.1)
            let t = CATransition()
            t.duration = 1
            layer.add(t, forKey: kCATransition)
            layer.contents = solidImage(width: 2, height: 2, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            added = layer.animation(forKey: kCATransition) as? CATransition
            oldRendering = added?.before
        }
        frame(at: 0.6)
        XCTAssertNotNil(added)
        XCTAssertNotNil(oldRendering?.properties.contents)
        XCTAssertTrue(oldRendering?.properties.contents === oldImage, "the old rendering shows the old image")
        // Added at 0.1 for 1 s: over at 1.1.
        frame(at: 1.1)
        XCTAssertNil(layer.animationKeys())
        XCTAssertNil(added)
        XCTAssertNil(oldRendering, "the old rendering is not kept")
        XCTAssertNil(oldImage, "nor the image it drew")
        XCTAssertFalse(layer.isOnAnimationClock)
    }
}

/// Records `animationDidStop`'s flags.
private final class StopRecorder: CAAnimationDelegate {
    var stops: [Bool] = []
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops.append(flag) }
}
