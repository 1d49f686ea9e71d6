import LayerKitCore
import XCTest

/// `CATransition`'s API and the offsets each type and subtype give, worked out by hand.
final class CATransitionTests: XCTestCase {
    func testDefaultsAreCoreAnimations() {
        let t = CATransition()
        XCTAssertEqual(t.type, .fade)
        XCTAssertNil(t.subtype)
        XCTAssertEqual(t.startProgress, 0)
        XCTAssertEqual(t.endProgress, 1)
        XCTAssertEqual(kCATransition, "transition")
        XCTAssertEqual(CATransitionType.moveIn.rawValue, "moveIn")
        XCTAssertEqual(CATransitionSubtype.fromBottom.rawValue, "fromBottom")
    }

    func testCopyKeepsTheFields() throws {
        let t = CATransition()
        (t.type, t.subtype, t.startProgress, t.endProgress) = (.reveal, .fromTop, 0.2, 0.8)
        let c = try XCTUnwrap(t.copy() as? CATransition)
        XCTAssertEqual([c.type.rawValue, c.subtype?.rawValue], ["reveal", "fromTop"])
        XCTAssertEqual([c.startProgress, c.endProgress], [0.2, 0.8])
    }

    func testAddCapturesTheLayerAsItWas() throws {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.opacity = 0.5
        let t = CATransition()
        (t.beginTime, t.duration) = (100, 2)
        layer.add(t, forKey: kCATransition)
        layer.opacity = 0.25
        XCTAssertTrue(layer.animation(forKey: kCATransition) is CATransition)
        // Half way: the old rendering is the layer at opacity 0.5; the presentation's own is 0.25.
        let mid = layer.snapshot(atTime: 101)
        let drawn = try XCTUnwrap(mid.transition)
        XCTAssertEqual(drawn.before.properties.opacity, 0.5)
        XCTAssertEqual(mid.properties.opacity, 0.25)
        XCTAssertEqual(drawn.progress, 0.5)
        // No timing function is linear: 0.25 s of 2 is progress 0.125. Removed at the end: no
        // transition at 102.5.
        XCTAssertEqual(try XCTUnwrap(layer.snapshot(atTime: 100.25).transition).progress, 0.125)
        XCTAssertNil(layer.snapshot(atTime: 102.5).transition)
    }

    /// Core Animation's old rendering is the layer as last committed, before the transaction's
    /// changes, whether they come before or after the add.
    func testBothOrdersInATransactionStartFromTheLastDrawnState() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        for changeFirst in [false, true] {
            let layer = CALayer(), sublayer = CALayer()
            layer.addSublayer(sublayer)
            (layer.backgroundColor, sublayer.opacity) = (red, 1)
            _ = layer.snapshot()
            let t = CATransition()
            (t.beginTime, t.duration) = (100, 2)
            CATransaction.begin()
            if changeFirst { (layer.backgroundColor, sublayer.opacity) = (blue, 0.5) }
            layer.add(t, forKey: kCATransition)
            if !changeFirst { (layer.backgroundColor, sublayer.opacity) = (blue, 0.5) }
            CATransaction.commit()
            let mid = layer.snapshot(atTime: 101)
            let before = try XCTUnwrap(mid.transition).before
            XCTAssertEqual(before.properties.backgroundColor, red, "changeFirst \(changeFirst)")
            XCTAssertEqual(before.sublayers[0].properties.opacity, 1, "a sublayer's change is in the new rendering only")
            XCTAssertEqual(mid.properties.backgroundColor, blue)
            XCTAssertEqual(mid.sublayers[0].properties.opacity, 0.5)
        }
    }

    /// A transition added while another runs starts from the layer as last drawn, not from the
    /// state the first transition captured.
    func testASecondTransitionStartsFromTheStateDrawnLast() throws {
        let colors = [0, 1, 2].map { CGColor(red: Double($0) / 2, green: 0, blue: 0, alpha: 1) }
        let layer = CALayer()
        layer.backgroundColor = colors[0]
        _ = layer.snapshot()
        let t = CATransition()
        (t.beginTime, t.duration) = (100, 2)
        layer.backgroundColor = colors[1]
        layer.add(t, forKey: "first")
        // Drawn mid-way: the layer is animating; its model state drawn is colours[1].
        _ = layer.snapshot(atTime: 101)
        layer.backgroundColor = colors[2]
        t.beginTime = 101
        layer.add(t, forKey: "second")
        let drawn = try XCTUnwrap(layer.snapshot(atTime: 101.5).transition)
        XCTAssertEqual(drawn.before.properties.backgroundColor, colors[1])
        XCTAssertEqual(drawn.progress, 0.25, "the second one, 0.5 s into its 2 s")
    }

    func testProgressOutOfRangeIsClampedAndNaNIsTheDefault() throws {
        func progress(_ start: Float, _ end: Float, at t: Double) throws -> Double {
            let layer = CALayer()
            let transition = CATransition()
            (transition.beginTime, transition.duration, transition.startProgress, transition.endProgress) = (100, 1, start, end)
            layer.add(transition, forKey: nil)
            return try XCTUnwrap(layer.snapshot(atTime: t).transition).progress
        }
        // −1 → 0 and 2 → 1: a quarter of the way is 0.25.
        XCTAssertEqual(try progress(-1, 2, at: 100.25), 0.25)
        // NaN start is 0, NaN end is 1: the same.
        XCTAssertEqual(try progress(.nan, .nan, at: 100.25), 0.25)
        // An end before the start runs backwards: 0.8 → 0.4, a quarter of the way is 0.7.
        XCTAssertEqual(try progress(0.8, 0.4, at: 100.25), 0.8 + (0.4 - 0.8) * 0.25, accuracy: 1e-7)
    }

    func testOffsetsFollowTypeAndSubtype() {
        func make(_ type: CATransitionType, _ subtype: CATransitionSubtype, _ p: Double) -> LayerTransition {
            LayerTransition(before: LayerSnapshot(properties: LayerProperties()), type: type, subtype: subtype, progress: p)
        }
        let size = CGSize(width: 100, height: 50)
        XCTAssertNil(make(.fade, .fromLeft, 0.5).offsets(size: size))
        // push from the right at 0.25: old 25 left, new 75 right of its place.
        var o = make(.push, .fromRight, 0.25).offsets(size: size)!
        XCTAssertEqual([o.old, o.new], [CGPoint(x: -25, y: 0), CGPoint(x: 75, y: 0)])
        // push from the bottom at 0.25: old 12.5 up, new 37.5 below.
        o = make(.push, .fromBottom, 0.25).offsets(size: size)!
        XCTAssertEqual([o.old, o.new], [CGPoint(x: 0, y: -12.5), CGPoint(x: 0, y: 37.5)])
        // moveIn from the top at 0.5: old stays, new 25 above.
        o = make(.moveIn, .fromTop, 0.5).offsets(size: size)!
        XCTAssertEqual([o.old, o.new], [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: -25)])
        // reveal from the left at 0.5: old 50 right, new stays.
        o = make(.reveal, .fromLeft, 0.5).offsets(size: size)!
        XCTAssertEqual([o.old, o.new], [CGPoint(x: 50, y: 0), CGPoint(x: 0, y: 0)])
    }
}
