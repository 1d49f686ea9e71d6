import Foundation
import XCTest
@testable import LayerKitCore

/// `CAReplicatorLayer`'s model: Apple's defaults, the copies' geometry and colours computed by
/// hand from the rules (docs/scene-format.md, "replicatorLayer"), key-value coding, implicit
/// and explicit animations, presentation copies and the copies' shifted time.
final class ReplicatorLayerTests: XCTestCase {
    func testAppleDefaults() {
        let r = CAReplicatorLayer()
        XCTAssertEqual(r.instanceCount, 1)
        XCTAssertFalse(r.preservesDepth)
        XCTAssertEqual(r.instanceDelay, 0)
        XCTAssertEqual(r.instanceTransform, CATransform3DIdentity)
        XCTAssertEqual(r.instanceColor, CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        XCTAssertEqual([r.instanceRedOffset, r.instanceGreenOffset, r.instanceBlueOffset, r.instanceAlphaOffset], [0, 0, 0, 0])
        XCTAssertEqual(r.snapshotKind, .replicator(ReplicatorStyle()))
        XCTAssertEqual(CAReplicatorLayer.defaultValue(forKey: "instanceCount") as? Int, 1)
        XCTAssertEqual(CAReplicatorLayer.defaultValue(forKey: "instanceColor") as! CGColor, CGColor(gray: 1, alpha: 1))
    }

    /// Listing 6.8's offsets: blue and green −0.1 a copy. Copy 3's modulation colour is
    /// (1, 1 − 0.3, 1 − 0.3, 1); Float(−0.1) is −0.100000001490116, so 0.699999995529652.
    /// Alpha −0.6 a copy: copy 1 has 0.4, copy 2 would have −0.2 and is clamped to 0.
    func testModulationColourAddsOffsetsAndClamps() {
        var s = ReplicatorStyle()
        s.instanceGreenOffset = -0.1
        s.instanceBlueOffset = -0.1
        s.instanceAlphaOffset = -0.6
        let m3 = s.modulation(ofInstance: 3)
        XCTAssertEqual(m3.r, 1)
        XCTAssertEqual(m3.g, 0.699999995529652, accuracy: 1e-12)
        XCTAssertEqual(m3.b, 0.699999995529652, accuracy: 1e-12)
        XCTAssertEqual(s.modulation(ofInstance: 1).a, 0.399999976158142, accuracy: 1e-12)
        XCTAssertEqual(s.modulation(ofInstance: 2).a, 0)
        // The base colour applies to copy 0; a positive offset is clamped at 1.
        s.instanceColor = CGColor(red: 0.5, green: 0.25, blue: 1, alpha: 1)
        s.instanceRedOffset = 0.25
        XCTAssertEqual(s.modulation(ofInstance: 0).r, 0.5)
        XCTAssertEqual(s.modulation(ofInstance: 0).g, 0.25)
        XCTAssertEqual(s.modulation(ofInstance: 3).r, 1)
        // nil is opaque white.
        s.instanceColor = nil
        XCTAssertEqual(s.modulation(ofInstance: 0).g, 1)
    }

    /// I_k = T(−c) · Tᵏ · T(c): with T a quarter turn and c = (150, 150), the point (150, 50)
    /// (100 above the centre) goes to (250, 150) in copy 1 and to (150, 250) in copy 2; copy
    /// 0 leaves it where it is.
    func testInstanceTransformActsAboutTheBoundsCentre() {
        var s = ReplicatorStyle()
        s.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let c = CGPoint(x: 150, y: 150), p = CGPoint(x: 150, y: 50)
        func moved(_ k: Int) -> CGPoint {
            let m = s.transform(ofInstance: k, center: c)
            return CGPoint(x: p.x * m.m11 + p.y * m.m21 + m.m41, y: p.x * m.m12 + p.y * m.m22 + m.m42)
        }
        XCTAssertEqual(moved(0), p)
        XCTAssertEqual(moved(1).x, 250, accuracy: 1e-9)
        XCTAssertEqual(moved(1).y, 150, accuracy: 1e-9)
        XCTAssertEqual(moved(2).x, 150, accuracy: 1e-9)
        XCTAssertEqual(moved(2).y, 250, accuracy: 1e-9)
        // Copy 5 of a translation by 7 moves 35 (Tᵏ by squaring agrees with k products).
        s.instanceTransform = CATransform3DMakeTranslation(7, 0, 0)
        XCTAssertEqual(s.transform(ofInstance: 5, center: c).m41, 35)
    }

    func testKeyValueCodingReachesEveryProperty() {
        let r = CAReplicatorLayer()
        r.setValue(10, forKey: "instanceCount")
        r.setValue(0.25, forKey: "instanceDelay")
        r.setValue(Float(-0.1), forKey: "instanceBlueOffset")
        r.setValue(true, forKey: "preservesDepth")
        r.setValue(CATransform3DMakeTranslation(0, 10, 0), forKey: "instanceTransform")
        r.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKey: "instanceColor")
        XCTAssertEqual(r.instanceCount, 10)
        XCTAssertEqual(r.instanceDelay, 0.25)
        XCTAssertEqual(r.instanceBlueOffset, -0.1)
        XCTAssertTrue(r.preservesDepth)
        XCTAssertEqual(r.instanceTransform.m42, 10)
        XCTAssertEqual(r.instanceColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(r.value(forKey: "instanceCount") as? Int, 10)
        XCTAssertEqual(r.value(forKey: "instanceBlueOffset") as? Float, -0.1)
        XCTAssertEqual(r.value(forKey: "instanceDelay") as? Double, 0.25)
        // A count far beyond Int is held, not a trap.
        r.setValue(1e300, forKey: "instanceCount")
        XCTAssertEqual(r.instanceCount, 9_000_000_000_000_000_000)
        // Non-finite values are ignored, as by every numeric setter.
        r.instanceDelay = .nan
        r.instanceRedOffset = .infinity
        XCTAssertEqual(r.instanceDelay, 0.25)
        XCTAssertEqual(r.instanceRedOffset, 0)
    }

    func testAnimatableKeyPathsAreApples() {
        for key in ["instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset",
                    "instanceAlphaOffset", "instanceDelay"] {
            XCTAssertNotNil(AnimatableKeyPath.named(key), key)
        }
        XCTAssertNil(AnimatableKeyPath.named("instanceCount"))
        XCTAssertNil(AnimatableKeyPath.named("preservesDepth"))
    }

    /// A committed replicator's changes animate implicitly from the old value, over the
    /// transaction's duration; `instanceCount` does not animate.
    func testImplicitAnimations() {
        let r = CAReplicatorLayer()
        r.instanceAlphaOffset = -0.2
        _ = r.snapshot()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        r.instanceAlphaOffset = -0.6
        r.instanceCount = 4
        CATransaction.commit()
        guard let a = r.animation(forKey: "instanceAlphaOffset") as? CABasicAnimation else { return XCTFail("no implicit animation") }
        XCTAssertEqual((a.fromValue as? NSNumber)?.floatValue, -0.2)
        XCTAssertNil(r.animation(forKey: "instanceCount"))
        // Halfway: −0.4 (single precision values, widened).
        guard case let .replicator(s) = r.snapshot(atTime: a.beginTime + 0.5).kind else { return XCTFail("not a replicator") }
        XCTAssertEqual(s.instanceAlphaOffset, -0.4, accuracy: 1e-6)
        XCTAssertEqual(s.instanceCount, 4)
    }

    /// The presentation copy is a `CAReplicatorLayer` with the animated values: an
    /// instanceTransform from a translation by 0 to one by 100 is at 25 a quarter of the way.
    func testPresentationCopyHasAnimatedValues() {
        let r = CAReplicatorLayer()
        r.instanceCount = 3
        let a = CABasicAnimation(keyPath: "instanceTransform")
        a.fromValue = CATransform3DIdentity
        a.toValue = CATransform3DMakeTranslation(100, 0, 0)
        a.beginTime = 10
        a.duration = 1
        r.add(a, forKey: nil)
        let p = r.presentation(atTime: 10.25) as? CAReplicatorLayer
        XCTAssertNotNil(p)
        XCTAssertEqual(p?.instanceTransform.m41 ?? 0, 25, accuracy: 1e-9)
        XCTAssertEqual(p?.instanceCount, 3)
        XCTAssertEqual(r.instanceTransform, CATransform3DIdentity)
    }

    /// Copy k lives at t − k · instanceDelay: with a delay of 0.25 s, an opacity animation of
    /// the sublayer from 0 to 1 over 1 s from time 10 reads 0.5 in copy 0 at 10.5, 0.25 in copy
    /// 1 and 0 in copy 2; copy 3 (at 9.75, before the animation) shows the model value 0.9.
    func testInstanceDelayShiftsEachCopysTime() {
        let r = CAReplicatorLayer()
        r.instanceCount = 4
        r.instanceDelay = 0.25
        let sub = CALayer()
        sub.opacity = 0.9
        r.addSublayer(sub)
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.beginTime = 10
        a.duration = 1
        sub.add(a, forKey: nil)
        let s = r.snapshot(atTime: 10.5)
        XCTAssertEqual(s.sublayers[0].properties.opacity, 0.5)
        let copies = s.instanceSublayers?.map { $0[0].properties.opacity }
        XCTAssertEqual(copies, [0.25, 0, 0.9])
        // No delay: the copies are copy 0, and none is evaluated.
        r.instanceDelay = 0
        XCTAssertNil(r.snapshot(atTime: 10.5).instanceSublayers)
        // A replicator without animated sublayers has no shifted copies either.
        r.instanceDelay = 0.25
        sub.removeAllAnimations()
        XCTAssertNil(r.snapshot(atTime: 10.5).instanceSublayers)
    }

    /// Replicators of two copies with a delay, nested 10,000 deep over an animated layer, ask
    /// for 2^10000 shifted evaluations; the snapshot stops at `maximumDrawnLayers` of them.
    func testDeeplyNestedDelayedReplicatorsAreBounded() {
        let leaf = CALayer()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.duration = 1
        leaf.add(a, forKey: nil)
        var top: CALayer = leaf
        for _ in 0..<10_000 {
            let r = CAReplicatorLayer()
            r.instanceCount = 2
            r.instanceDelay = 0.1
            r.addSublayer(top)
            top = r
        }
        let start = Date()
        let before = AnimationClock.shared.evaluations.load(ordering: .relaxed)
        _ = top.snapshot(atTime: 0.5)
        let evaluated = AnimationClock.shared.evaluations.load(ordering: .relaxed) - before
        XCTAssertLessThanOrEqual(evaluated, LayerSnapshot.maximumDrawnLayers + 20_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 60)
    }

    /// Hit testing sees the first copy only: the point where copy 1 of a sublayer is drawn hits
    /// the replicator's own bounds, not the sublayer.
    func testHitTestingSeesTheFirstCopyOnly() {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 300, height: 100)
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(100, 0, 0)
        let sub = CALayer()
        sub.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        r.addSublayer(sub)
        XCTAssertTrue(r.hitTest(CGPoint(x: 50, y: 50)) === sub)
        XCTAssertTrue(r.hitTest(CGPoint(x: 150, y: 50)) === r)
    }

    /// `nil` through key-value coding means what the property's setter makes of it: opaque
    /// white (CAReplicatorLayer.h: "Defaults to opaque white"), not a colour kind's "none",
    /// transparent black, which would hide every copy.
    func testKeyValueCodingOfNilInstanceColorIsOpaqueWhite() {
        let r = CAReplicatorLayer()
        r.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKey: "instanceColor")
        r.setValue(nil, forKey: "instanceColor")
        XCTAssertEqual(r.instanceColor, CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        let shown = r.value(forKey: "instanceColor") as! CGColor
        XCTAssertEqual(shown.components, [1, 1, 1, 1])
    }
}

