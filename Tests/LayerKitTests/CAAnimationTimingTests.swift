import Foundation
import XCTest
@testable import LayerKitCore

/// Timing functions and the timing model (scene format, "Timing"), with values worked out by
/// hand from the rules. Animations start at layer time 10, so `add(_:forKey:)` keeps their
/// begin time, and opacity animates 0 → 1 over 1 s on a layer whose model opacity is 0.9.
final class CAAnimationTimingTests: XCTestCase {
    func testNamedTimingFunctions() {
        let linear = CAMediaTimingFunction(name: .linear)
        for x in [0, 0.1, 0.37, 0.5, 0.9, 1] { XCTAssertEqual(linear.evaluate(x), x, accuracy: 1e-12) }
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInEaseOut).evaluate(0.5), 0.5, accuracy: 1e-7)
        // easeIn (0.42, 0, 1, 1) at s = 1/2: x = 3·¼·½·0.42 + 3·½·¼ + ⅛ = 0.6575, y = 3·½·¼ + ⅛ = 0.5.
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn).evaluate(0.6575), 0.5, accuracy: 1e-7)
        // default (0.25, 0.1, 0.25, 1) at s = 1/2: x = 0.3125, y = 0.0375 + 0.375 + 0.125 = 0.5375.
        XCTAssertEqual(CAMediaTimingFunction(name: .default).evaluate(0.3125), 0.5375, accuracy: 1e-7)
        // easeOut (0, 0, 0.58, 1) at s = 1/2: x = 3·⅛·0.58 + ⅛ = 0.3425, y = 0.375 + 0.125 = 0.5.
        XCTAssertEqual(CAMediaTimingFunction(name: .easeOut).evaluate(0.3425), 0.5, accuracy: 1e-7)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn).evaluate(0), 0)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn).evaluate(1), 1, accuracy: 1e-12)
    }

    func testControlPoints() {
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        var v: [Float] = [9, 9]
        f.getControlPoint(at: 1, values: &v)
        XCTAssertEqual(v, [0.42, 0])
        f.getControlPoint(at: 2, values: &v)
        XCTAssertEqual(v, [0.58, 1])
        f.getControlPoint(at: 0, values: &v)
        XCTAssertEqual(v, [0, 0])
        f.getControlPoint(at: 3, values: &v)
        XCTAssertEqual(v, [1, 1])
        XCTAssertEqual(CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1), CAMediaTimingFunction(name: .default))
    }

    private func opacity(_ configure: (CABasicAnimation) -> Void, at times: [Double]) -> [Float] {
        let layer = CALayer()
        layer.opacity = 0.9
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        a.beginTime = 10
        configure(a)
        layer.add(a, forKey: "fade")
        return times.map { layer.snapshot(atTime: $0).properties.opacity }
    }

    private func assertValues(_ got: [Float], _ want: [Float], line: UInt = #line) {
        XCTAssertEqual(got.count, want.count, line: line)
        for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 1e-6, line: line) }
    }

    func testBeginTimeSpeedAndTimeOffset() {
        assertValues(opacity({ _ in }, at: [9.5, 10, 10.25, 10.999, 11, 12]), [0.9, 0, 0.25, 0.999, 0.9, 0.9])
        assertValues(opacity({ $0.speed = 2 }, at: [10.25, 10.5]), [0.5, 0.9])
        // timeOffset 0.5: t = a + 0.5 wraps within the one pass.
        assertValues(opacity({ $0.timeOffset = 0.5 }, at: [10.25, 10.75]), [0.75, 0.25])
        // duration 0 means 0.25 s.
        assertValues(opacity({ $0.duration = 0 }, at: [10.125, 10.25]), [0.5, 0.9])
    }

    func testRepeatCountAndDuration() {
        assertValues(opacity({ $0.repeatCount = 1.5 }, at: [10.25, 11.25, 11.5, 11.6]), [0.25, 0.25, 0.9, 0.9])
        // Held at the end: a = 1.5, u = 0.5.
        assertValues(opacity({
            $0.repeatCount = 1.5
            $0.fillMode = .forwards
            $0.isRemovedOnCompletion = false
        }, at: [12]), [0.5])
        // A whole number of passes ends at u = L, not 0.
        assertValues(opacity({
            $0.repeatCount = 2
            $0.fillMode = .forwards
            $0.isRemovedOnCompletion = false
        }, at: [12, 20]), [1, 1])
        assertValues(opacity({
            $0.repeatDuration = 0.5
            $0.repeatCount = 5
        }, at: [10.25, 10.5]), [0.25, 0.9])
    }

    /// `position.x` 30 → 80 (a step of 50 a pass), `isCumulative`, 0.4 s passes, held after the
    /// end: the iteration and the time within it must agree where a time is a whole number of
    /// passes in decimal but not in binary (2.0 / 0.4 divides to exactly 5, while fmod(2.0, 0.4)
    /// is 0.4 less an ulp).
    private func cumulativeX(_ configure: (CABasicAnimation) -> Void, at t: Double) -> CGFloat {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 30
        a.toValue = 80
        a.duration = 0.4
        a.isCumulative = true
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        a.beginTime = 10
        configure(a)
        layer.add(a, forKey: "x")
        return layer.snapshot(atTime: t).properties.position.x
    }

    func testCumulativeRepeatsEndOnTheLastPass() {
        // 5 passes, 2 s: held at the end of the fifth (iteration 4), 30 + 4·50 + 50.
        XCTAssertEqual(cumulativeX({ $0.repeatCount = 5 }, at: 12), 280, accuracy: 1e-9)
        XCTAssertEqual(cumulativeX({ $0.repeatCount = 5 }, at: 30), 280, accuracy: 1e-9)
        // The same 2 s given as repeatDuration.
        XCTAssertEqual(cumulativeX({ $0.repeatDuration = 2 }, at: 12), 280, accuracy: 1e-9)
        // Mid-run, 2 s into 10 passes: the end of the fifth is the start of the sixth, 280.
        XCTAssertEqual(cumulativeX({ $0.repeatCount = 10 }, at: 12), 280, accuracy: 1e-9)
        // Autoreversing passes of 0.8 s, 5 of them (4 s; fmod(4.0, 0.8) is 0.8 less two ulps):
        // the fifth (iteration 4) has come back to its start, 30 + 4·50.
        XCTAssertEqual(cumulativeX({
            $0.repeatCount = 5
            $0.autoreverses = true
        }, at: 14), 230, accuracy: 1e-9)
    }

    func testAutoreverses() {
        // L = 2: u = 1.25 plays back to 0.75; held at the end the pass has come back to 0.
        assertValues(opacity({ $0.autoreverses = true }, at: [10.5, 11.25, 11.999]), [0.5, 0.75, 0.001])
        assertValues(opacity({
            $0.autoreverses = true
            $0.fillMode = .both
            $0.isRemovedOnCompletion = false
        }, at: [13]), [0])
    }

    func testFillModes() {
        assertValues(opacity({ $0.fillMode = .removed }, at: [9, 12]), [0.9, 0.9])
        assertValues(opacity({ $0.fillMode = .backwards }, at: [9, 12]), [0, 0.9])
        assertValues(opacity({ $0.fillMode = .forwards }, at: [9, 12]), [0.9, 0.9])
        assertValues(opacity({
            $0.fillMode = .forwards
            $0.isRemovedOnCompletion = false
        }, at: [9, 12]), [0.9, 1])
        assertValues(opacity({
            $0.fillMode = .both
            $0.isRemovedOnCompletion = false
        }, at: [9, 12]), [0, 1])
        assertValues(opacity({
            $0.fillMode = .removed
            $0.isRemovedOnCompletion = false
        }, at: [12]), [0.9])
    }

    func testTimingFunctionEasesProgress() {
        assertValues(opacity({ $0.timingFunction = CAMediaTimingFunction(name: .easeIn) }, at: [10.6575]), [0.5])
    }

    func testNestedLayerTimes() {
        let root = CALayer(), parent = CALayer(), child = CALayer()
        root.addSublayer(parent)
        parent.addSublayer(child)
        parent.beginTime = 1
        parent.speed = 2
        child.speed = 3
        child.timeOffset = 0.5
        // child time = ((tm − 1)·2)·3 + 0.5.
        XCTAssertEqual(child.convertTime(4, from: nil), 18.5, accuracy: 1e-12)
        XCTAssertEqual(child.convertTime(18.5, to: nil), 4, accuracy: 1e-12)
        XCTAssertEqual(parent.convertTime(6, from: child), 5.5 / 3, accuracy: 1e-12)
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        a.beginTime = 10.5
        child.add(a, forKey: nil)
        // Child time 10.8 at media time 1 + 10.3/6.
        XCTAssertEqual(root.snapshot(atTime: 1 + 10.3 / 6).sublayers[0].sublayers[0].properties.opacity, 0.3, accuracy: 1e-5)
    }

    func testAddCopiesAndZeroBeginTimeMeansNow() {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 100
        let before = CACurrentMediaTime()
        layer.add(a, forKey: "x")
        let after = CACurrentMediaTime()
        a.duration = 1
        let added = layer.animation(forKey: "x")!
        XCTAssertFalse(added === a)
        XCTAssertEqual(added.duration, 100)
        XCTAssertGreaterThanOrEqual(added.beginTime, before)
        XCTAssertLessThanOrEqual(added.beginTime, after)
        XCTAssertEqual(a.beginTime, 0)
    }

    func testAnimationKeys() {
        let layer = CALayer()
        XCTAssertNil(layer.animationKeys())
        let a = CABasicAnimation(keyPath: "opacity"), b = CABasicAnimation(keyPath: "position")
        layer.add(a, forKey: "a")
        layer.add(b, forKey: "b")
        layer.add(a, forKey: nil)
        XCTAssertEqual(layer.animationKeys(), ["a", "b"])
        layer.add(b, forKey: "a")
        XCTAssertEqual(layer.animationKeys(), ["b", "a"])
        XCTAssertEqual((layer.animation(forKey: "a") as? CABasicAnimation)?.keyPath, "position")
        layer.removeAnimation(forKey: "b")
        XCTAssertEqual(layer.animationKeys(), ["a"])
        layer.removeAllAnimations()
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(layer.timedLayerCount, 0)
    }

    func testUnanimatedSubtreesShareTheirSnapshots() {
        let root = CALayer(), still = CALayer(), moving = CALayer(), leaf = CALayer()
        root.addSublayer(still)
        still.addSublayer(leaf)
        root.addSublayer(moving)
        XCTAssertTrue(root.snapshot(atTime: 5) === root.snapshot())
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        a.beginTime = 1
        moving.add(a, forKey: nil)
        let s1 = root.snapshot(atTime: 1.5), s2 = root.snapshot(atTime: 1.75)
        XCTAssertTrue(s1.sublayers[0] === s2.sublayers[0])
        XCTAssertTrue(s1.sublayers[0] === root.snapshot().sublayers[0])
        XCTAssertEqual(s1.sublayers[1].properties.opacity, 0.5)
        XCTAssertEqual(s2.sublayers[1].properties.opacity, 0.75)
        // Moving the animated layer elsewhere moves its count with it.
        leaf.addSublayer(moving)
        XCTAssertEqual(root.timedLayerCount, 1)
        XCTAssertEqual(still.timedLayerCount, 1)
        moving.removeFromSuperlayer()
        XCTAssertEqual(root.timedLayerCount, 0)
    }

    func testPresentationAndModel() {
        let layer = CAShapeLayer()
        layer.lineWidth = 2
        let a = CABasicAnimation(keyPath: "lineWidth")
        a.fromValue = 4
        a.toValue = 8
        a.duration = 1000
        layer.add(a, forKey: nil)
        let p = layer.presentation()!
        XCTAssertGreaterThanOrEqual(p.lineWidth, 4)
        XCTAssertLessThan(p.lineWidth, 4.1)
        XCTAssertEqual(layer.lineWidth, 2)
        XCTAssertTrue(p.model() === layer)
        XCTAssertTrue(layer.model() === layer)
    }

    /// Running animations are those within their active duration, in each layer's own time: a
    /// 1 s animation begun at 10 runs over [10, 11); under a sublayer of speed 2 begun at 0 one
    /// begun at its time 10 runs over media [5, 5.5) — fill modes do not make it run.
    func testRunningAnimationCount() {
        let root = CALayer(), fast = CALayer()
        fast.speed = 2
        root.addSublayer(fast)
        for layer in [root, fast] {
            let a = CABasicAnimation(keyPath: "opacity")
            a.beginTime = 10
            a.duration = 1
            a.fillMode = .both
            a.isRemovedOnCompletion = false
            layer.add(a, forKey: "fade")
        }
        XCTAssertEqual([4.99, 5, 5.49, 5.5, 9.99, 10, 10.99, 11].map { root.runningAnimationCount(atTime: $0) }, [0, 1, 1, 0, 0, 1, 1, 0])
        XCTAssertEqual(CALayer().runningAnimationCount(atTime: 0), 0)
    }
}
