import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore
import Synchronization

/// Transactions, actions and the frame clock (Core Animation's `CATransaction`, `CAAction`,
/// `CADisplayLink`), driven by the test's display link (`FrameClockTestCase`).
final class CATransactionTests: FrameClockTestCase {
    /// Runs `changes` in an explicit transaction with linear timing.
    private func linear(_ changes: () -> Void) {
        CATransaction.begin()
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        changes()
        CATransaction.commit()
    }

    private func x(at t: Double) -> CGFloat { root.snapshot(atTime: t).sublayers[0].properties.position.x }

    // MARK: Transactions

    func testDefaultsAndNestedValues() {
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertNil(CATransaction.animationTimingFunction())
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertNil(CATransaction.completionBlock())
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        layer.opacity = 0.5
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "an inner transaction inherits the outer's value")
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setDisableActions(true)
        XCTAssertEqual(CATransaction.value(forKey: kCATransactionAnimationDuration) as? Double, 0.5)
        layer.cornerRadius = 4
        CATransaction.setDisableActions(false)
        layer.position = CGPoint(x: 10, y: 0)
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        XCTAssertFalse(CATransaction.disableActions())
        layer.zPosition = 1
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 2)
        for bad in [-1, Double.nan, .infinity] {
            CATransaction.begin()
            CATransaction.setAnimationDuration(bad)
            XCTAssertEqual(CATransaction.animationDuration(), 0.25, "\(bad)")
            CATransaction.commit()
        }
        XCTAssertNil(layer.animation(forKey: "cornerRadius"), "disabled in the inner transaction")
        XCTAssertEqual(layer.animation(forKey: "position")?.duration, 0.5)
        XCTAssertEqual(layer.animation(forKey: "zPosition")?.duration, 2, "after the inner commit the outer's value again")
        XCTAssertEqual(layer.cornerRadius, 4)
    }

    func testImplicitAnimationDefaults() {
        layer.opacity = 0.25
        let a = layer.animation(forKey: "opacity") as! CABasicAnimation
        XCTAssertEqual(a.keyPath, "opacity")
        XCTAssertEqual(a.duration, 0.25)
        XCTAssertEqual(a.beginTime, 0, "the latest frame's time")
        XCTAssertEqual(a.fromValue as? CGFloat, 1)
        XCTAssertNil(a.toValue)
        XCTAssertEqual(a.timingFunction, CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
        // Ease at 0.1 s: x(s) = 0.4 on the default curve; the model value is the end.
        XCTAssertEqual(root.snapshot(atTime: 0.25).sublayers[0].properties.opacity, 0.25)
        XCTAssertEqual(root.snapshot(atTime: 0).sublayers[0].properties.opacity, 1)
        // Setting the same value again runs nothing.
        layer.removeAllAnimations()
        layer.opacity = 0.25
        XCTAssertNil(layer.animationKeys())
    }

    func testDisableActions() {
        let recorder = RecordingAction()
        layer.actions = ["position": recorder]
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.position = CGPoint(x: 30, y: 0)
        layer.opacity = 0
        CATransaction.commit()
        XCTAssertNil(layer.animationKeys())
        XCTAssertTrue(recorder.events.isEmpty, "disabled actions are not even searched")
        XCTAssertEqual(layer.position, CGPoint(x: 30, y: 0))
        // The implicit transaction's setting lasts until the frame commits it.
        CATransaction.setDisableActions(true)
        layer.opacity = 1
        XCTAssertNil(layer.animationKeys())
        frame(at: 0.1)
        layer.opacity = 0.5
        XCTAssertEqual(layer.animationKeys(), ["opacity"])
    }

    /// Apple's rule: a committed layer animates a change whether or not a display link runs
    /// (paused, invalidated, or none at all); a layer never committed does not.
    func testImplicitAnimationNeedsACommitNotADisplayLink() {
        link.isPaused = true
        layer.position = CGPoint(x: 1, y: 1)
        XCTAssertEqual(layer.animationKeys(), ["position"], "a paused link")
        let fresh = CALayer()
        root.addSublayer(fresh)
        fresh.position = CGPoint(x: 5, y: 5)
        XCTAssertNil(fresh.animationKeys(), "a layer never committed does not animate")
        _ = root.snapshot()
        fresh.position = CGPoint(x: 6, y: 6)
        XCTAssertEqual(fresh.animationKeys(), ["position"])
        // A committed layer taken out of its tree still animates (it was committed).
        fresh.removeFromSuperlayer()
        fresh.opacity = 0
        XCTAssertEqual(fresh.animationKeys(), ["position", "opacity"])
        link.invalidate()
        layer.opacity = 0.3
        XCTAssertEqual(layer.animationKeys(), ["position", "opacity"], "an invalidated link")
    }

    /// A standalone layer with no link: the implicit animation starts at the transaction's time
    /// (`CACurrentMediaTime()`) and runs from the old value to the new one.
    func testStandaloneLayerAnimatesWithoutAnyLink() {
        link.invalidate()
        let standalone = CALayer()
        standalone.position = CGPoint(x: 0, y: 10)
        _ = standalone.snapshot()
        let before = CACurrentMediaTime()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        standalone.position = CGPoint(x: 100, y: 10)
        CATransaction.commit()
        let after = CACurrentMediaTime()
        guard let a = standalone.animation(forKey: "position") as? CABasicAnimation else { return XCTFail("no implicit animation") }
        XCTAssertGreaterThanOrEqual(a.beginTime, before)
        XCTAssertLessThanOrEqual(a.beginTime, after)
        XCTAssertEqual(a.fromValue as? CGPoint, CGPoint(x: 0, y: 10))
        XCTAssertEqual(a.duration, 1)
        // Halfway through, linear: 50; after the end, the model value.
        XCTAssertEqual(standalone.snapshot(atTime: a.beginTime + 0.5).properties.position.x, 50, accuracy: 1e-9)
        XCTAssertEqual(standalone.snapshot(atTime: a.beginTime + 2).properties.position.x, 100)
        // With actions disabled the change is immediate.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        standalone.opacity = 0.5
        CATransaction.commit()
        XCTAssertNil(standalone.animation(forKey: "opacity"))
    }

    // MARK: Action search

    func testSearchOrder() {
        let delegate = ActionDelegate(), fromDictionary = RecordingAction()
        layer.delegate = delegate
        layer.actions = ["position": fromDictionary, "opacity": NSNull()]
        // The delegate's NSNull ends the search: nothing runs, not even the implicit animation.
        delegate.answers["position"] = NSNull()
        layer.position = CGPoint(x: 20, y: 0)
        XCTAssertNil(layer.action(forKey: "position"))
        XCTAssertTrue(fromDictionary.events.isEmpty)
        XCTAssertNil(layer.animationKeys())
        // nil from the delegate: the dictionary's action runs instead of the default.
        delegate.answers["position"] = nil
        layer.position = CGPoint(x: 40, y: 0)
        XCTAssertEqual(fromDictionary.events, ["position"])
        XCTAssertTrue(fromDictionary.objects[0] === layer)
        XCTAssertNil(layer.animationKeys())
        // The delegate's action beats the dictionary's.
        let fromDelegate = RecordingAction()
        delegate.answers["position"] = fromDelegate
        layer.position = CGPoint(x: 50, y: 0)
        XCTAssertEqual(fromDelegate.events, ["position"])
        XCTAssertEqual(fromDictionary.events, ["position"])
        // NSNull in the dictionary disables the key.
        layer.opacity = 0
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(delegate.asked, ["position", "position", "position", "position", "opacity"])
        // Nothing anywhere: action(forKey:) is nil and the implicit animation runs.
        XCTAssertNil(layer.action(forKey: "cornerRadius"))
        layer.cornerRadius = 3
        XCTAssertEqual(layer.animationKeys(), ["cornerRadius"])
    }

    func testDefaultActionOfASubclass() {
        let l = ActionLayer()
        root.addSublayer(l)
        _ = root.snapshot()
        l.opacity = 0.5
        XCTAssertEqual(ActionLayer.recorder.events, ["opacity"])
        XCTAssertNil(l.animationKeys())
        // The dictionary comes before the class.
        let dictionary = RecordingAction()
        l.actions = ["opacity": dictionary]
        l.opacity = 0.25
        XCTAssertEqual(dictionary.events, ["opacity"])
        XCTAssertEqual(ActionLayer.recorder.events, ["opacity"])
        XCTAssertTrue(l.action(forKey: "opacity") as? RecordingAction === dictionary)
        XCTAssertTrue(l.action(forKey: "bounds") as? RecordingAction === ActionLayer.recorder)
        ActionLayer.recorder.events = []
    }

    func testAnimationAsAnActionIsAddedUnderTheKey() {
        let spin = CABasicAnimation(keyPath: "opacity")
        spin.fromValue = 0.0
        spin.duration = 2
        layer.actions = ["opacity": spin]
        layer.opacity = 0.5
        let added = layer.animation(forKey: "opacity") as! CABasicAnimation
        XCTAssertFalse(added === spin)
        XCTAssertEqual(added.duration, 2)
        XCTAssertEqual(added.fromValue as? Double, 0)
        // From 0 to the model's 0.5 over 2 s, linear (an explicit animation's nil function).
        XCTAssertEqual(root.snapshot(atTime: 1).sublayers[0].properties.opacity, 0.25, accuracy: 1e-6)
    }

    /// Listing 7.6: a `CATransition` in `actions` runs on a colour change and pushes the new
    /// colour in over the old one, so its old rendering is the layer before the change (Core
    /// Animation takes it from the last committed tree), not after it.
    func testTransitionAsAnActionShowsTheOldRendering() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.setDisableActions(true)
        layer.backgroundColor = red
        // The red layer is on screen (committed and drawn) before the click changes it.
        frame(at: 0)
        _ = root.snapshot(atTime: 0)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromLeft
        layer.actions = ["backgroundColor": push]
        layer.backgroundColor = blue
        XCTAssertEqual(layer.animationKeys(), ["backgroundColor"])
        // Half way through the 0.25 s the transaction gives it (linear: a transition's nil
        // function): the old red rendering is pushed right by half the 50-point width.
        let s = root.snapshot(atTime: 0.125).sublayers[0]
        let transition = try! XCTUnwrap(s.transition)
        XCTAssertEqual(transition.before.properties.backgroundColor, red)
        XCTAssertEqual(s.properties.backgroundColor, blue)
        XCTAssertEqual(transition.progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(transition.offsets(size: CGSize(width: 50, height: 50))?.old, CGPoint(x: 25, y: 0))
        XCTAssertNil(push.before, "the action itself is left as it was")
    }

    // MARK: Implicit animations

    func testRetargetStartsFromThePresentationValue() {
        linear { layer.position = CGPoint(x: 100, y: 0) }
        // From 0 to 100 over 0.25 s from t = 0: at 0.1, 100 · 0.1/0.25 = 40.
        XCTAssertEqual(x(at: 0.1), 40, accuracy: 1e-9)
        frame(at: 0.1)
        linear { layer.position = CGPoint(x: 200, y: 0) }
        XCTAssertEqual(layer.animationKeys(), ["position"], "the new animation replaces the old one")
        let a = layer.animation(forKey: "position") as! CABasicAnimation
        XCTAssertEqual((a.fromValue as! CGPoint).x, 40, accuracy: 1e-9)
        XCTAssertEqual(a.beginTime, 0.1)
        // From 40 to 200 over 0.25 s from 0.1: at 0.225, 40 + 160 · 0.5 = 120; at 0.3, 40 + 160 · 0.8 = 168.
        XCTAssertEqual(x(at: 0.225), 120, accuracy: 1e-9)
        XCTAssertEqual(x(at: 0.3), 168, accuracy: 1e-9)
        frame(at: 0.4)
        XCTAssertNil(layer.animationKeys(), "removed when it ended")
        XCTAssertEqual(x(at: 0.4), 200)
    }

    func testEveryAnimatablePropertyAnimatesImplicitly() {
        let shape = CAShapeLayer(), gradient = CAGradientLayer(), text = CATextLayer(), replicator = CAReplicatorLayer()
        let emitter = CAEmitterLayer()
        for l in [shape, gradient, text, replicator, emitter] { root.addSublayer(l) }
        _ = root.snapshot()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let changes: [(String, CALayer, () -> Void)] = [
            ("position", layer, { self.layer.position = CGPoint(x: 1, y: 2) }),
            ("bounds", layer, { self.layer.bounds = CGRect(x: 0, y: 0, width: 9, height: 9) }),
            ("anchorPoint", layer, { self.layer.anchorPoint = .zero }),
            ("anchorPointZ", layer, { self.layer.anchorPointZ = 2 }),
            ("zPosition", layer, { self.layer.zPosition = 3 }),
            ("transform", layer, { self.layer.transform = CATransform3DMakeScale(2, 2, 1) }),
            ("sublayerTransform", layer, { self.layer.sublayerTransform = CATransform3DMakeScale(2, 2, 1) }),
            ("opacity", layer, { self.layer.opacity = 0.5 }),
            ("hidden", layer, { self.layer.isHidden = true }),
            ("backgroundColor", layer, { self.layer.backgroundColor = red }),
            ("cornerRadius", layer, { self.layer.cornerRadius = 4 }),
            ("borderWidth", layer, { self.layer.borderWidth = 2 }),
            ("borderColor", layer, { self.layer.borderColor = red }),
            ("masksToBounds", layer, { self.layer.masksToBounds = true }),
            ("doubleSided", layer, { self.layer.isDoubleSided = false }),
            ("contentsRect", layer, { self.layer.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5) }),
            ("contentsCenter", layer, { self.layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5) }),
            ("shadowColor", layer, { self.layer.shadowColor = red }),
            ("shadowOpacity", layer, { self.layer.shadowOpacity = 1 }),
            ("shadowOffset", layer, { self.layer.shadowOffset = CGSize(width: 3, height: 3) }),
            ("shadowRadius", layer, { self.layer.shadowRadius = 5 }),
            ("fillColor", shape, { shape.fillColor = red }),
            ("strokeColor", shape, { shape.strokeColor = red }),
            ("lineWidth", shape, { shape.lineWidth = 4 }),
            ("lineDashPhase", shape, { shape.lineDashPhase = 2 }),
            ("miterLimit", shape, { shape.miterLimit = 4 }),
            ("strokeStart", shape, { shape.strokeStart = 0.5 }),
            ("strokeEnd", shape, { shape.strokeEnd = 0.5 }),
            ("startPoint", gradient, { gradient.startPoint = CGPoint(x: 1, y: 0) }),
            ("endPoint", gradient, { gradient.endPoint = CGPoint(x: 0, y: 0) }),
            ("fontSize", text, { text.fontSize = 20 }),
            ("foregroundColor", text, { text.foregroundColor = red }),
            ("path", shape, { shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil) }),
            ("shadowPath", layer, { self.layer.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil) }),
            ("contents", layer, { self.layer.contents = CGImage(bitmap: Bitmap(width: 1, height: 1)) }),
            ("colors", gradient, { gradient.colors = [red, red] }),
            ("locations", gradient, { gradient.locations = [0, 1] }),
            ("instanceTransform", replicator, { replicator.instanceTransform = CATransform3DMakeTranslation(5, 0, 0) }),
            ("instanceColor", replicator, { replicator.instanceColor = red }),
            ("instanceDelay", replicator, { replicator.instanceDelay = 0.5 }),
            ("instanceRedOffset", replicator, { replicator.instanceRedOffset = -0.1 }),
            ("instanceGreenOffset", replicator, { replicator.instanceGreenOffset = -0.1 }),
            ("instanceBlueOffset", replicator, { replicator.instanceBlueOffset = -0.1 }),
            ("instanceAlphaOffset", replicator, { replicator.instanceAlphaOffset = -0.1 }),
            ("birthRate", emitter, { emitter.birthRate = 2 }),
            ("lifetime", emitter, { emitter.lifetime = 2 }),
            ("velocity", emitter, { emitter.velocity = 2 }),
            ("scale", emitter, { emitter.scale = 2 }),
            ("spin", emitter, { emitter.spin = 2 }),
            ("emitterPosition", emitter, { emitter.emitterPosition = CGPoint(x: 1, y: 2) }),
            ("emitterZPosition", emitter, { emitter.emitterZPosition = 2 }),
            ("emitterSize", emitter, { emitter.emitterSize = CGSize(width: 1, height: 2) }),
            ("emitterDepth", emitter, { emitter.emitterDepth = 2 }),
        ]
        XCTAssertEqual(Set(changes.map(\.0)), Set(AnimatableKeyPath.names.filter { !$0.contains(".") }),
                       "every top-level animatable key path has a setter here")
        for (key, target, change) in changes {
            change()
            XCTAssertEqual((target.animation(forKey: key) as? CABasicAnimation)?.keyPath, key, key)
        }
        // The frame setter moves the position once: one animation, from the old position.
        layer.removeAllAnimations()
        let before = layer.position
        layer.frame = CGRect(x: 100, y: 10, width: 20, height: 20)
        XCTAssertEqual((layer.animation(forKey: "position") as? CABasicAnimation)?.fromValue as? CGPoint, before)
    }

    // MARK: The frame clock

    func testCompletionBlockRunsOnceAfterTheLastAnimation() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        CATransaction.setAnimationDuration(0.5)
        layer.opacity = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        layer.position = CGPoint(x: 10, y: 10)
        CATransaction.commit()
        CATransaction.commit()
        frame(at: 0.25)
        frame(at: 0.5)
        XCTAssertEqual(layer.animationKeys(), ["position"], "the opacity animation ended at 0.5")
        XCTAssertEqual(runs, 0)
        frame(at: 0.75)
        XCTAssertEqual(runs, 0)
        frame(at: 1)
        XCTAssertEqual(runs, 1, "the nested transaction's animation ended at 1")
        frame(at: 2)
        XCTAssertEqual(runs, 1)
    }

    func testCompletionBlockWithRemovalOrNothingAdded() {
        var order: [String] = []
        CATransaction.begin()
        CATransaction.setCompletionBlock { order.append("removed") }
        layer.opacity = 0
        CATransaction.commit()
        frame(at: 0.1)
        layer.removeAnimation(forKey: "opacity")
        XCTAssertEqual(order, [])
        frame(at: 0.15)
        XCTAssertEqual(order, ["removed"])
        // A block set after the changes waits for nothing: it runs at the next delivery.
        CATransaction.begin()
        layer.opacity = 1
        CATransaction.setCompletionBlock { order.append("late") }
        CATransaction.commit()
        CATransaction.flush()
        XCTAssertEqual(order, ["removed", "late"])
    }

    func testDelegateCallbacksInOrder() {
        let delegate = RecordingDelegate()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        a.delegate = delegate
        layer.add(a, forKey: "fade")
        let b = CABasicAnimation(keyPath: "cornerRadius")
        b.toValue = 5.0
        b.duration = 0.1
        b.beginTime = 0.2
        b.delegate = delegate
        b.isRemovedOnCompletion = false
        b.fillMode = .forwards
        layer.add(b, forKey: "round")
        frame(at: 0.1)
        XCTAssertEqual(delegate.log, ["start fade"])
        frame(at: 0.5)
        // b ran from 0.2 to 0.3: both its start and its stop fall in this frame, in order.
        XCTAssertEqual(delegate.log, ["start fade", "start round", "stop round true"])
        XCTAssertEqual(layer.animationKeys(), ["fade", "round"], "not removed on completion")
        frame(at: 1)
        XCTAssertEqual(delegate.log, ["start fade", "start round", "stop round true", "stop fade true"])
        XCTAssertEqual(layer.animationKeys(), ["round"])
        // A removal is told at the next frame, with finished false, once.
        layer.add(a, forKey: "fade")
        frame(at: 1.1)
        layer.removeAllAnimations()
        frame(at: 1.2)
        frame(at: 1.3)
        XCTAssertEqual(delegate.log.suffix(2), ["start fade", "stop fade false"])
        XCTAssertEqual(delegate.log.count, 6)
    }

    func testDelegateChangeShowsInTheSameFrame() {
        let delegate = RecordingDelegate()
        delegate.onStop = { [layer] in
            CATransaction.setDisableActions(true)
            layer.opacity = 0.5
        }
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0
        a.toValue = 0.5
        a.duration = 0.5
        a.delegate = delegate
        layer.add(a, forKey: nil)
        var drawn: [Float] = []
        let drawing = CADisplayLink(timeSource: { [unowned self] in now }) { [root] link in
            drawn.append(root.snapshot(atTime: link.targetTimestamp).sublayers[0].properties.opacity)
        }
        now = 0.5
        drawing.step()
        drawing.invalidate()
        XCTAssertEqual(drawn, [0.5], "the model change made in animationDidStop is drawn, not the 1 before it")
        XCTAssertTrue(TransactionStack.shared.isEmpty, "the delegate's implicit transaction was committed")
    }

    func testALoopDrawingFromTheLinksCallbackAdvancesTheClockOnce() {
        layer.opacity = 0
        let counter = AnimationClock.shared
        frame(at: 0.1)
        let seen = counter.evaluations.load(ordering: .relaxed)
        // The demo's way: the link committed the frame at 0.1, and its callback draws it.
        PresentationTreeSource(root).commit(at: 0.1)
        XCTAssertEqual(counter.evaluations.load(ordering: .relaxed), seen, "the frame at 0.1 was already advanced")
        PresentationTreeSource(root).commit(at: 0.15)
        XCTAssertEqual(counter.evaluations.load(ordering: .relaxed), seen + 1, "a new frame checks the one running animation")
    }

    func testIdleFramesEvaluateNothing() {
        layer.opacity = 0
        let counter = AnimationClock.shared
        var seen = counter.evaluations.load(ordering: .relaxed)
        frame(at: 0.1)
        _ = root.snapshot(atTime: 0.1)
        XCTAssertGreaterThan(counter.evaluations.load(ordering: .relaxed), seen, "a running animation is evaluated")
        frame(at: 0.25)
        XCTAssertNil(layer.animationKeys())
        seen = counter.evaluations.load(ordering: .relaxed)
        frame(at: 0.3)
        frame(at: 0.4)
        _ = root.snapshot(atTime: 0.4)
        XCTAssertEqual(counter.evaluations.load(ordering: .relaxed), seen)
    }

    func testALayerFreedBeforeAFrameDoesNotHideItsSuccessor() {
        // The clock holds layers weakly; a new layer may take a freed one's address.
        for _ in 0..<20 {
            do {
                let gone = CALayer()
                gone.add(CABasicAnimation(keyPath: "opacity"), forKey: "a")
            }
            let next = CALayer()
            next.add(CABasicAnimation(keyPath: "opacity"), forKey: "b")
            now += 1
            link.step()
            XCTAssertNil(next.animationKeys(), "the successor's finished animation was removed")
        }
    }

    func testFreedLayersDoNotPileUpWithoutFrames() {
        for _ in 0..<10_000 { CALayer().add(CABasicAnimation(keyPath: "opacity"), forKey: nil) }
        // Compacted whenever the list doubles past its live length: at most 64 entries here.
        XCTAssertLessThanOrEqual(AnimationClock.shared.layers.count, 64)
    }

    func testLinkTimes() {
        XCTAssertEqual(link.targetTimestamp, 0)
        XCTAssertEqual(link.timestamp, -1.0 / 60, "one nominal frame before the first")
        frame(at: 0.05)
        XCTAssertEqual(link.timestamp, 0)
        XCTAssertEqual(link.targetTimestamp, 0.05)
        XCTAssertEqual(link.duration, 0.05)
        link.preferredFramesPerSecond = 10
        now = 0.1
        XCTAssertFalse(link.step(), "0.05 s after the last frame, under 0.1 s")
        now = 0.1495
        XCTAssertTrue(link.step(), "within a millisecond of 0.1 s")
        now = .nan
        XCTAssertFalse(link.step(), "a time source's NaN is no frame")
        link.isPaused = true
        now = 1
        XCTAssertFalse(link.step())
        XCTAssertEqual(link.targetTimestamp, 0.1495)
        link.isPaused = false
    }

    /// `preferredFrameRateRange` caps frames as `preferredFramesPerSecond` does: at the
    /// preferred rate, or at the maximum without one; the default range leaves the
    /// frames-per-second setting in charge.
    func testPreferredFrameRateRange() {
        XCTAssertEqual(link.preferredFrameRateRange, .default)
        XCTAssertEqual(CAFrameRateRange.default, CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil))
        XCTAssertNil(CAFrameRateRange(minimum: 10, maximum: 60).preferred)
        XCTAssertTrue(CAFrameRateRange(minimum: 1, maximum: 2, preferred: 2).isEqual(to: CAFrameRateRange(minimum: 1, maximum: 2, preferred: 2)))
        /// Which of the steps at 1/60 s apart from `start` (0…10) deliver a frame.
        func frames(from start: Double) -> [Int] {
            (0...10).filter { k in
                now = start + Double(k) / 60
                return link.step()
            }
        }
        // Every step: the setup's frame was at 0, so start a nominal frame later.
        XCTAssertEqual(frames(from: 1.0 / 60), Array(0...10))
        // Preferred 30: every other step (1/60 is under 1/30 − 1 ms; 2/60 is not).
        link.preferredFrameRateRange = CAFrameRateRange(minimum: 10, maximum: 60, preferred: 30)
        XCTAssertEqual(frames(from: 1), [0, 2, 4, 6, 8, 10])
        // No preferred rate: the maximum, 20, every third step.
        link.preferredFrameRateRange = CAFrameRateRange(minimum: 10, maximum: 20)
        XCTAssertEqual(frames(from: 2), [0, 3, 6, 9])
        // The range outranks preferredFramesPerSecond until it is the default again.
        link.preferredFramesPerSecond = 60
        XCTAssertEqual(frames(from: 3), [0, 3, 6, 9])
        link.preferredFrameRateRange = .default
        link.preferredFramesPerSecond = 15
        XCTAssertEqual(frames(from: 4), [0, 4, 8])
        link.preferredFramesPerSecond = 0
    }

    // MARK: Scenes and hit testing

    func testReadingASceneRunsNoActions() throws {
        let scene = try readScene(sceneText(root: #"{"opacity": 0.5, "position": [10, 10], "sublayers": [{"cornerRadius": 2}]}"#))
        XCTAssertNil(scene.root.animationKeys())
        XCTAssertNil(scene.root.sublayers?[0].animationKeys())
        XCTAssertTrue(TransactionStack.shared.isEmpty)
        XCTAssertThrowsError(try readScene(sceneText(root: #"{"opacity": "x"}"#)))
        XCTAssertTrue(TransactionStack.shared.isEmpty, "an error still closes the reader's transaction")
    }

    func testPresentationHitTestSeesTheAnimatedGeometry() {
        layer.position = CGPoint(x: 0, y: 25)
        layer.removeAllAnimations()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0.0
        a.toValue = 200.0
        a.duration = 1
        a.beginTime = 10
        layer.add(a, forKey: "move")
        // At 10.5 the layer's centre is at x = 100, so it spans x 75…125.
        let presented = root.presentation(atTime: 10.5)
        let hit = presented.hitTest(CGPoint(x: 110, y: 25))
        XCTAssertFalse(hit === presented)
        XCTAssertTrue(hit?.model() === layer)
        XCTAssertTrue(presented.hitTest(CGPoint(x: 10, y: 25))?.model() === root, "the model position is empty there")
        XCTAssertTrue(root.hitTest(CGPoint(x: 110, y: 25)) === root, "the model misses the moving layer")
        XCTAssertTrue(root.hitTest(CGPoint(x: 10, y: 25)) === layer)
    }
}

/// An action that records the events it ran for.
private final class RecordingAction: CAAction {
    var events: [String] = []
    var objects: [AnyObject] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        events.append(event)
        objects.append(anObject as AnyObject)
    }
}

/// A layer delegate answering the action search from a table.
private final class ActionDelegate: CALayerDelegate {
    var answers: [String: CAAction] = [:]
    var asked: [String] = []
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        asked.append(event)
        return answers[event]
    }
}

/// A layer class with a default action for every key.
private final class ActionLayer: CALayer {
    nonisolated(unsafe) static let recorder = RecordingAction()
    override class func defaultAction(forKey event: String) -> CAAction? { recorder }
}

/// An animation delegate that logs its callbacks by the animation's key path's key.
private final class RecordingDelegate: CAAnimationDelegate {
    var log: [String] = []
    var onStop: (() -> Void)?
    private func name(_ anim: CAAnimation) -> String {
        ["opacity": "fade", "cornerRadius": "round"][(anim as? CAPropertyAnimation)?.keyPath ?? ""] ?? "?"
    }
    func animationDidStart(_ anim: CAAnimation) { log.append("start \(name(anim))") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        log.append("stop \(name(anim)) \(flag)")
        onStop?()
    }
}
