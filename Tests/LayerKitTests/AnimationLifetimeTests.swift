import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// What finished animations leave behind: nothing. Driven by the test's display link
/// (`FrameClockTestCase`); weak references show what is still alive after the frame that
/// removes an animation.
final class AnimationLifetimeTests: FrameClockTestCase {
    /// The link's frame at media time `t`, drawn (snapshotted) as a display link's callback would.
    private func drawFrame(at t: Double) {
        frame(at: t)
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
        drawFrame(at: 0.5)
        XCTAssertEqual(layer.animationKeys(), ["fade"])
        XCTAssertTrue(layer.isOnAnimationClock)
        // The active duration, 1 s from 0, has passed at 1: removed, told once, freed.
        drawFrame(at: 1)
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(delegate.stops, [true])
        XCTAssertNil(added, "nothing keeps a finished animation")
        XCTAssertFalse(layer.isOnAnimationClock, "a layer whose animations ended leaves the clock's list")
        XCTAssertFalse(root.containsTimedLayers)
        drawFrame(at: 2)
        XCTAssertEqual(delegate.stops, [true])
    }

    func testAnAnimationKeptAfterCompletionLeavesTheClockButStays() {
        let a = CABasicAnimation(keyPath: "opacity")
        (a.toValue, a.duration, a.isRemovedOnCompletion, a.fillMode) = (0.0, 1, false, .forwards)
        layer.add(a, forKey: "fade")
        drawFrame(at: 1)
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
            drawFrame(at: 0.1)
            let t = CATransition()
            t.duration = 1
            layer.add(t, forKey: kCATransition)
            layer.contents = solidImage(width: 2, height: 2, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            added = layer.animation(forKey: kCATransition) as? CATransition
            oldRendering = added?.before
        }
        drawFrame(at: 0.6)
        XCTAssertNotNil(added)
        XCTAssertNotNil(oldRendering?.properties.contents)
        XCTAssertTrue(oldRendering?.properties.contents === oldImage, "the old rendering shows the old image")
        // Added at 0.1 for 1 s: over at 1.1.
        drawFrame(at: 1.1)
        XCTAssertNil(layer.animationKeys())
        XCTAssertNil(added)
        XCTAssertNil(oldRendering, "the old rendering is not kept")
        XCTAssertNil(oldImage, "nor the image it drew")
        XCTAssertFalse(layer.isOnAnimationClock)
    }

    /// 1,000 frames at 60 per second, each adding one animation in turn: an implicit opacity
    /// change (0.25 s, under its key, so it replaces the last), an explicit animation of 0.1 s
    /// and a fade of 0.05 s with a new image (both without a key, so none replaces another),
    /// with a completion block per 100 frames. Counted, not timed: the layer never holds more
    /// than the animations still running, and afterwards holds none, nor does anything else.
    func testAThousandAnimationsLeaveNothingBehind() {
        let delegate = StopRecorder()
        var added: [Weak<CAAnimation>] = [], images: [Weak<CGImage>] = []
        var peak = 0, completions = 0, heldElsewhere = 0
        let dt = 1.0 / 60
        for i in 0..<1000 {
            if i % 100 == 0 {
                CATransaction.begin()
                CATransaction.setCompletionBlock { completions += 1 }
            }
            switch i % 3 {
            case 0:
                layer.opacity = layer.opacity == 1 ? 0.5 : 1
                added.append(Weak(layer.animation(forKey: "opacity")))
            case 1:
                let a = CABasicAnimation(keyPath: "cornerRadius")
                (a.toValue, a.duration, a.delegate) = (4.0, 0.1, delegate)
                layer.add(a, forKey: nil)
                added.append(Weak(layer.animationList.last?.animation))
            default:
                let fade = CATransition()
                fade.duration = 0.05
                layer.add(fade, forKey: nil)
                added.append(Weak(layer.animationList.last?.animation))
                let image = solidImage(width: 2, height: 2, CGColor(red: Double(i % 256) / 255, green: 0, blue: 0, alpha: 1))
                images.append(Weak(image))
                // Runs the implicit contents animation too, under "contents".
                layer.contents = image
                added.append(Weak(layer.animation(forKey: "contents")))
            }
            if i % 100 == 99 { CATransaction.commit() }
            drawFrame(at: Double(i + 1) * dt)
            peak = max(peak, layer.animationList.count)
            // After each frame, the animations alive are exactly those the layer holds.
            if added.filter({ $0.object != nil }).count != layer.animationList.count { heldElsewhere += 1 }
        }
        // An animation added in loop step i begins at i/60 (the last frame's time); the frame
        // of step j is at (j + 1)/60 and removes what ended by then. So after step j there
        // remain: the 2 keyed implicit ones (opacity, contents); the explicit ones (6 frames
        // long) of steps j − 5 … j, one step in 3: 2; the fades (3 frames) of steps j − 2 … j:
        // 1. 5 at most, however long it runs, and 5 whenever they line up.
        XCTAssertEqual(peak, 5)
        XCTAssertEqual(heldElsewhere, 0, "no frame ends with an animation kept outside the layer")
        for k in 1...30 { drawFrame(at: 1000 * dt + Double(k) * dt) }
        XCTAssertEqual(layer.animationList.count, 0)
        XCTAssertNil(layer.animationKeys())
        XCTAssertFalse(layer.isOnAnimationClock)
        XCTAssertFalse(root.containsTimedLayers)
        XCTAssertEqual(delegate.stops, [Bool](repeating: true, count: 333), "every explicit one ran to its end, told once")
        XCTAssertEqual(completions, 10)
        XCTAssertEqual(added.count, 1000 + 333, "each step's animation, and each fade's implicit contents one")
        XCTAssertEqual(added.filter { $0.object != nil }.count, 0, "no animation is kept")
        XCTAssertEqual(images.filter { $0.object != nil }.count, 1, "only the image shown now is kept")
        XCTAssertTrue(TransactionStack.shared.isEmpty)
    }
}

/// A weak reference, for counting what is still alive.
private struct Weak<T: AnyObject> {
    weak var object: T?
    init(_ object: T?) { self.object = object }
}

/// Records `animationDidStop`'s flags.
private final class StopRecorder: CAAnimationDelegate {
    var stops: [Bool] = []
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops.append(flag) }
}
