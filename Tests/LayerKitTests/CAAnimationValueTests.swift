import Foundation
import XCTest
@testable import LayerKitCore

/// What each animation type computes (scene format, "Values" and "Key paths"), with values
/// worked out by hand. Animations begin at layer time 10 and last 1 s unless stated.
final class CAAnimationValueTests: XCTestCase {
    private func sample(_ layer: CALayer, _ anim: CAAnimation, at t: Double) -> LayerSnapshot {
        if anim.beginTime == 0 { anim.beginTime = 10 }
        if anim.duration == 0 { anim.duration = 1 }
        layer.add(anim, forKey: nil)
        return layer.snapshot(atTime: t)
    }

    private func position(from: CGPoint?, to: CGPoint?, by: CGPoint?) -> CGPoint {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 20)
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = from
        a.toValue = to
        a.byValue = by
        return sample(layer, a, at: 10.5).properties.position
    }

    func testFromToByCombinations() {
        XCTAssertEqual(position(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 50), by: nil), CGPoint(x: 50, y: 25))
        XCTAssertEqual(position(from: CGPoint(x: 0, y: 0), to: nil, by: CGPoint(x: 10, y: 10)), CGPoint(x: 5, y: 5))
        XCTAssertEqual(position(from: nil, to: CGPoint(x: 100, y: 100), by: CGPoint(x: 10, y: 10)), CGPoint(x: 95, y: 95))
        XCTAssertEqual(position(from: CGPoint(x: 0, y: 0), to: nil, by: nil), CGPoint(x: 5, y: 10))
        XCTAssertEqual(position(from: nil, to: CGPoint(x: 30, y: 40), by: nil), CGPoint(x: 20, y: 30))
        XCTAssertEqual(position(from: nil, to: nil, by: CGPoint(x: 10, y: 10)), CGPoint(x: 15, y: 25))
        XCTAssertEqual(position(from: nil, to: nil, by: nil), CGPoint(x: 10, y: 20))
    }

    func testNumbersOfEverySwiftType() {
        for (from, to) in [(0 as Any, 4 as Any), (0.0 as Double, 4.0 as Double), (Float(0), Float(4)), (CGFloat(0), CGFloat(4))] as [(Any, Any)] {
            let layer = CALayer()
            let a = CABasicAnimation(keyPath: "cornerRadius")
            a.fromValue = from
            a.toValue = to
            XCTAssertEqual(sample(layer, a, at: 10.25).properties.cornerRadius, 1)
        }
        // A value of the wrong type animates nothing.
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "cornerRadius")
        a.fromValue = CGPoint(x: 1, y: 1)
        a.toValue = 4
        XCTAssertEqual(sample(layer, a, at: 10.25).properties.cornerRadius, 0)
    }

    func testAdditiveAndCumulative() {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 20)
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = CGPoint.zero
        a.toValue = CGPoint(x: 100, y: 0)
        a.isAdditive = true
        XCTAssertEqual(sample(layer, a, at: 10.5).properties.position, CGPoint(x: 60, y: 20))

        let c = CALayer()
        let b = CABasicAnimation(keyPath: "position.x")
        b.fromValue = 0
        b.toValue = 10
        b.repeatCount = 3
        b.isCumulative = true
        // a = 2.5: iteration 2, u = 0.5: 5 + 2·10.
        XCTAssertEqual(sample(c, b, at: 12.5).properties.position.x, 25)
    }

    /// A cumulative transform repeated past `Int`'s range (0.5 s forever, sampled 2^1000 s in)
    /// once trapped converting the pass count; the transform is applied at most 10,000 times,
    /// and 2^1000 is a whole number of passes, so the pass starts at its from value.
    func testCumulativeTransformPastIntsRangeIsBounded() {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = CATransform3DIdentity
        a.toValue = CATransform3DMakeTranslation(1, 0, 0)
        a.duration = 0.5
        a.repeatCount = .infinity
        a.isCumulative = true
        let t = sample(layer, a, at: 10 + 0x1p1000).properties.transform
        XCTAssertEqual(t.m41, 10_000)
        XCTAssertEqual(t.m42, 0)
    }

    func testAnimationsApplyInOrderAdded() {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        let b = CABasicAnimation(keyPath: "opacity")
        b.fromValue = 0.5
        b.toValue = 0.5
        b.isAdditive = true
        layer.add({
            a.beginTime = 10
            a.duration = 1
            return a
        }(), forKey: "a")
        XCTAssertEqual(sample(layer, b, at: 10.25).properties.opacity, 0.75)
    }

    private func keyframeX(_ configure: (CAKeyframeAnimation) -> Void, at t: Double) -> CGFloat {
        let a = CAKeyframeAnimation(keyPath: "position.x")
        configure(a)
        return sample(CALayer(), a, at: t).properties.position.x
    }

    func testKeyframeLinear() {
        // keyTimes 0, ¼, 1: p = ½ lies ⅓ into the second segment.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.keyTimes = [0, 0.25, 1]
        }, at: 10.5), 10 + 20.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(keyframeX({ $0.values = [0, 10, 30] }, at: 10.75), 20, accuracy: 1e-9)
        // Each segment eased by its own function: easeIn at 0.6575 is ½.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.timingFunctions = [CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(name: .easeIn)]
        },
                                 at: 10.5 + 0.6575 / 2), 20, accuracy: 1e-6)
    }

    func testKeyframeDiscrete() {
        // 3 values, key times 0, ⅓, ⅔, 1.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .discrete
        }, at: 10.3), 0)
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .discrete
        }, at: 10.5), 10)
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .discrete
        }, at: 10.7), 30)
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.keyTimes = [0, 0.5, 0.9, 1]
            $0.calculationMode = .discrete
        }, at: 10.7), 10)
    }

    func testKeyframePaced() {
        // Distances 10 and 30: constant speed 40 per second, whatever keyTimes say.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 40]
            $0.keyTimes = [0, 0.9, 1]
            $0.calculationMode = .paced
        }, at: 10.5), 20, accuracy: 1e-9)
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 40]
            $0.calculationMode = .paced
        }, at: 10.125), 5, accuracy: 1e-9)
    }

    /// Keyframes 1e308 apart (issue 23): their distances overflowed to infinity, so a quarter of
    /// the way was taken as the end of the first segment (1e308). Two equal segments: a quarter
    /// is half of the first, 5e307.
    func testKeyframePacedFarApart() {
        XCTAssertEqual(keyframeX({
            $0.values = [0, 1e308, 0]
            $0.calculationMode = .paced
        }, at: 10.25), 5e307)
        XCTAssertEqual(keyframeX({
            $0.values = [0, 1e308, 0]
            $0.calculationMode = .cubicPaced
        }, at: 10.5), 1e308, accuracy: 1e294, "half way along two mirrored pieces is the peak between them")
    }

    /// Keyframes of empty lists once divided by their zero length (found by the fuzzer): they
    /// mix, and the layer keeps no locations.
    func testKeyframesOfEmptyListsMix() {
        let a = CAKeyframeAnimation(keyPath: "locations")
        a.values = [[NSNumber](), [NSNumber]()]
        a.calculationMode = .cubicPaced
        guard case let .gradient(style) = sample(CAGradientLayer(), a, at: 10.5).kind else { return XCTFail("not a gradient") }
        XCTAssertTrue(style.locations?.isEmpty ?? true)
    }

    func testKeyframeCubic() {
        // Values 0, 10, 30 at key times 0, ½, 1; p = ¼ is s = ½ into the first segment, whose
        // tangents are (10 − 0)/2 = 5 (the start is its own neighbour) and (30 − 0)/2 = 15:
        // ½·0 + ⅛·5 + ½·10 − ⅛·15 = 3.75.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .cubic
        }, at: 10.25), 3.75, accuracy: 1e-9)
        // Tension 1 everywhere: zero tangents, so the midpoint is halfway, 5.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .cubic
            $0.tensionValues = [1, 1, 1]
        }, at: 10.25), 5, accuracy: 1e-9)
        // Bias 1 at the second keyframe: its incoming tangent is 2·½·(10 − 0) = 10: 0.625 + 5 − 1.25.
        XCTAssertEqual(keyframeX({
            $0.values = [0, 10, 30]
            $0.calculationMode = .cubic
            $0.biasValues = [0, 1, 0]
        }, at: 10.25), 4.375, accuracy: 1e-9)
    }

    private func spring(_ configure: (CASpringAnimation) -> Void, at t: Double) -> CGFloat {
        let a = CASpringAnimation(keyPath: "position.x")
        a.fromValue = 0
        a.toValue = 100
        a.duration = 5
        configure(a)
        return sample(CALayer(), a, at: 10 + t).properties.position.x
    }

    func testSpringClosedForm() {
        // ω0 = 10, ζ = ½, ωd = 10·√¾: x = 1 − e^(−5t)(cos ωd t + 5/ωd · sin ωd t).
        XCTAssertEqual(spring({ _ in }, at: 0.1), 34.029984660829826, accuracy: 1e-6)
        XCTAssertEqual(spring({ _ in }, at: 0.3), 112.43547674084116, accuracy: 1e-6)
        // Critical (damping 20): x = 1 − e^(−10t)(1 + 10t); at 0.1, 1 − 2/e.
        XCTAssertEqual(spring({ $0.damping = 20 }, at: 0.1), 26.424111765711533, accuracy: 1e-6)
        XCTAssertEqual(spring({ $0.damping = 40 }, at: 0.1), 26.424111765711533, accuracy: 1e-6)
        // Overdamped ζ = 2, ωd = 10√3: x = 1 − e^(−20t)(cosh ωd t + 20/ωd · sinh ωd t).
        XCTAssertEqual(spring({
            $0.damping = 40
            $0.allowsOverdamping = true
        }, at: 0.1), 17.77365760981905, accuracy: 1e-6)
        // The timing function is not used.
        XCTAssertEqual(spring({ $0.timingFunction = CAMediaTimingFunction(name: .easeIn) }, at: 0.1), 34.029984660829826, accuracy: 1e-6)
        let s = CASpringAnimation()
        XCTAssertEqual([s.mass, s.stiffness, s.damping, s.initialVelocity], [1, 100, 10, 0])
        // Envelope e^(−5t)·√(1 + (5/ωd)²) = 0.001 bounds it: t ≈ 1.41 s; the last crossing is a little before.
        XCTAssertGreaterThan(s.settlingDuration, 1.2)
        XCTAssertLessThanOrEqual(s.settlingDuration, 1.41)
    }

    /// Finite spring parameters at `Double`'s ends give finite positions (issue 23: a mass of
    /// 5e-324 made ω0 = √(k/m) infinite, and the fraction NaN).
    func testExtremeSpringsStayFinite() {
        // m = 5e-324: ω0 = 10 / √5e-324 ≈ 4.5e162, ζ ≈ 2.2e161 counted as 1: there at once.
        XCTAssertEqual(spring({ $0.mass = 5e-324 }, at: 0), 0)
        XCTAssertEqual(spring({ $0.mass = 5e-324 }, at: 0.5), 100)
        // k = 1e308: ω0 = 1e154, ζ = 5e-154, so ζ·ω0 = 5: x = 1 − e^(−5t)(cos ωd t + …), within
        // e^(−2.5) of 1 at t = 0.5, whatever cos(5e153) is.
        let stiff = spring({ $0.stiffness = 1e308 }, at: 0.5)
        XCTAssertEqual(stiff, 100, accuracy: 100 * exp(-2.5) * 1.000001)
        // m = k = 1e308 (k·m overflowed): ω0 = 1, ζ = 10 / (2·1e308), undamped: 1 − cos t.
        XCTAssertEqual(spring({
            $0.mass = 1e308
            $0.stiffness = 1e308
        }, at: 0.5), 100 * (1 - cos(0.5)), accuracy: 1e-9)
        // Damping 1e308, overdamped (ζ = 5e306): the slow mode r1 = −ω0 / 2ζ = −1e-306 barely
        // moves; the fast one, r2 = −1e308, is gone.
        XCTAssertEqual(spring({
            $0.damping = 1e308
            $0.allowsOverdamping = true
        }, at: 0.5), 0, accuracy: 1e-9)
        // The two-mode form agrees with cosh and sinh where they do not overflow: ζ = 1.5, ω0 = 10,
        // 1 − e^(−7.5)(cosh 5.590 + 15/11.180 · sinh 5.590) at t = 0.5.
        XCTAssertEqual(spring({
            $0.damping = 30
            $0.allowsOverdamping = true
        }, at: 0.5), 82.6595349759536, accuracy: 1e-9)
    }

    func testGroupClipsItsChildren() {
        let child = CABasicAnimation(keyPath: "opacity")
        child.fromValue = 0
        child.toValue = 1
        child.duration = 2
        let held = CABasicAnimation(keyPath: "cornerRadius")
        held.fromValue = 0
        held.toValue = 8
        held.duration = 0.5
        held.fillMode = .forwards
        let g = CAAnimationGroup()
        g.animations = [child, held]
        g.duration = 1
        let layer = CALayer()
        layer.opacity = 0.9
        layer.add({
            g.beginTime = 10
            return g
        }(), forKey: nil)
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.opacity, 0.25)
        XCTAssertEqual(layer.snapshot(atTime: 10.25).properties.cornerRadius, 4)
        XCTAssertEqual(layer.snapshot(atTime: 10.75).properties.cornerRadius, 8)
        XCTAssertEqual(layer.snapshot(atTime: 11.2).properties.opacity, 0.9)
        XCTAssertEqual(layer.snapshot(atTime: 11.2).properties.cornerRadius, 0)

        // A child's duration of 0 is the group's.
        let c2 = CABasicAnimation(keyPath: "opacity")
        c2.fromValue = 0
        c2.toValue = 1
        let g2 = CAAnimationGroup()
        g2.animations = [c2]
        g2.duration = 2
        g2.beginTime = 10
        let l2 = CALayer()
        l2.add(g2, forKey: nil)
        XCTAssertEqual(l2.snapshot(atTime: 10.5).properties.opacity, 0.25)
    }

    private func assertTransform(_ t: CATransform3D, _ want: CATransform3D, line: UInt = #line) {
        for (a, b) in zip(t.entries, want.entries) { XCTAssertEqual(a, b, accuracy: 1e-9, line: line) }
    }

    func testTransformInterpolatesRotationBySlerp() {
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = CATransform3D.identity
        a.toValue = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let t = sample(CALayer(), a, at: 10.5).properties.transform
        let r = sqrt(0.5)
        assertTransform(t, CATransform3D(m11: r, m12: r, m13: 0, m14: 0, m21: -r, m22: r, m23: 0, m24: 0,
                                         m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1))
        // Translation and scale interpolate linearly beside the rotation: at ½, translate 5, scale 2.
        let b = CABasicAnimation(keyPath: "transform")
        b.fromValue = CATransform3D.identity
        b.toValue = CATransform3DMakeScale(3, 3, 1).concatenating(CATransform3DMakeTranslation(10, 0, 0))
        let u = sample(CALayer(), b, at: 10.5).properties.transform
        assertTransform(u, CATransform3D(m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 2, m23: 0, m24: 0,
                                         m31: 0, m32: 0, m33: 1, m34: 0, m41: 5, m42: 0, m43: 0, m44: 1))
    }

    func testTransformSubPaths() {
        let a = CABasicAnimation(keyPath: "transform.rotation.z")
        a.fromValue = 0
        a.toValue = CGFloat.pi
        assertTransform(sample(CALayer(), a, at: 10.5).properties.transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        let s = CABasicAnimation(keyPath: "transform.scale")
        s.fromValue = 1
        s.toValue = 3
        assertTransform(sample(CALayer(), s, at: 10.5).properties.transform, CATransform3DMakeScale(2, 2, 2))
        // On a translated layer the rotation replaces only the rotation part.
        let layer = CALayer()
        layer.transform = CATransform3DMakeTranslation(7, 0, 0)
        let r = CABasicAnimation(keyPath: "transform.rotation")
        r.fromValue = 0
        r.toValue = CGFloat.pi
        assertTransform(sample(layer, r, at: 10.5).properties.transform,
                        CATransform3DMakeRotation(.pi / 2, 0, 0, 1).concatenating(CATransform3DMakeTranslation(7, 0, 0)))
        let x = CABasicAnimation(keyPath: "transform.translation.x")
        x.toValue = 17
        assertTransform(sample(CALayer(), {
            x.beginTime = 10
            x.duration = 1
            return x
        }(), at: 10.5).properties.transform,
                        CATransform3DMakeTranslation(8.5, 0, 0))
    }

    func testColoursInterpolateStraightRGBA() {
        let a = CABasicAnimation(keyPath: "backgroundColor")
        a.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        a.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 0)
        XCTAssertEqual(sample(CALayer(), a, at: 10.5).properties.backgroundColor, CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
        let f = CABasicAnimation(keyPath: "fillColor")
        f.toValue = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        guard case let .shape(style) = sample(CAShapeLayer(), f, at: 10.25).kind else { return XCTFail() }
        XCTAssertEqual(style.fillColor, CGColor(red: 0.25, green: 0.25, blue: 0.25, alpha: 1))
    }

    func testBooleansSwitchAtTheEnd() {
        let a = CABasicAnimation(keyPath: "hidden")
        a.fromValue = false
        a.toValue = true
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        let layer = CALayer()
        XCTAssertFalse(sample(layer, a, at: 10.99).properties.isHidden)
        XCTAssertTrue(layer.snapshot(atTime: 11).properties.isHidden)
    }

    // Evaluation keeps what does not change between frames (the key path's entry, the
    // converted values, the decomposition of the transform beneath); these check that what
    // is kept follows a change.

    func testARotationFollowsAModelTransformChangedBetweenFrames() {
        let layer = CALayer()
        // Without an implicit animation of the change.
        func setModelTransform(_ t: CATransform3D) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.transform = t
            CATransaction.commit()
        }
        setModelTransform(CATransform3DMakeTranslation(7, 0, 0))
        let r = CABasicAnimation(keyPath: "transform.rotation.z")
        r.fromValue = 0
        r.toValue = CGFloat.pi
        // Half way: a quarter turn, before the model's translation.
        assertTransform(sample(layer, r, at: 10.5).properties.transform,
                        CATransform3DMakeRotation(.pi / 2, 0, 0, 1).concatenating(CATransform3DMakeTranslation(7, 0, 0)))
        setModelTransform(CATransform3DMakeScale(2, 3, 1))
        // Three quarters of the way: 3π/4, after the new model's scale.
        assertTransform(layer.snapshot(atTime: 10.75).properties.transform,
                        CATransform3DMakeScale(2, 3, 1).concatenating(CATransform3DMakeRotation(3 * .pi / 4, 0, 0, 1)))
    }

    func testAnAddedAnimationsEditsReachTheNextFrame() {
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.beginTime = 10
        a.duration = 1
        // The scene reader's way: the animation itself, not a copy, so edits to it count.
        layer.addCopied(a, forKey: "a")
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.opacity, 0.5)
        a.toValue = 0.5
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.opacity, 0.25)
        a.keyPath = "cornerRadius"
        let s = layer.snapshot(atTime: 10.5)
        XCTAssertEqual(s.properties.cornerRadius, 0.25)
        XCTAssertEqual(s.properties.opacity, 1)
        // Timing: 0.5 s into 2 s is a quarter of the way to 0.5; then 0.25 s in, an eighth.
        a.duration = 2
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.cornerRadius, 0.125)
        a.beginTime = 10.25
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.cornerRadius, 0.0625)
        // Additive: on top of the model's 4 rather than in its place.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.cornerRadius = 4
        CATransaction.commit()
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.cornerRadius, 0.0625)
        a.isAdditive = true
        XCTAssertEqual(layer.snapshot(atTime: 10.5).properties.cornerRadius, 4.0625)
    }

    func testAOneElementListAnimatesAsAList() {
        let g = CAGradientLayer()
        g.locations = [0]
        let a = CABasicAnimation(keyPath: "locations")
        a.fromValue = [0.0]
        a.toValue = [1.0]
        guard case let .gradient(style) = sample(g, a, at: 10.25).kind else { return XCTFail("not a gradient") }
        XCTAssertEqual(style.locations, [0.25])
    }
}
