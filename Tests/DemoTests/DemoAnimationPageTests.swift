import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The animation pages of chapters 8–10 without a window: each builds, draws a frame of its
/// presentation tree, and shows at a fixed media time the value its listing gives, worked out
/// by hand. A frozen clock (`--time T`) makes the pages begin their animations at media time T.
final class DemoAnimationPageTests: XCTestCase {
    private func examples() throws -> Examples { try Examples(directory: examplesDirectory) }

    /// The presentation values of `layer` at media time `t`.
    private func presented(_ layer: CALayer, at t: Double) -> LayerProperties { layer.snapshot(atTime: t).properties }

    /// Every animation page renders a frame of its presentation tree on the CPU reference, and
    /// its animations run there: the frame differs from the model's.
    func testEachAnimationPageRendersItsPresentationTree() throws {
        let pages = try Gallery.pages(examples: examples()).filter { $0 is AnimationPage || $0 is AnimatedClockPage }
        XCTAssertEqual(pages.map(\.id), ["8.4-clock-animated", "8.7-ship-path", "9.4-door-scrub", "10.4-easing",
                                         "10.6-bouncing-ball", "spring"])
        for page in pages {
            XCTAssertNotNil(page.caption, page.id)
            // The clock animates from its second tick on: shown at 99, it ticks at 100.
            if page is AnimatedClockPage { _ = page.update(clock: DemoClock(frozen: 99)) }
            _ = page.update(clock: DemoClock(frozen: 100))
            if page is DoorPage { _ = page.pointerMoved(to: CGPoint(x: 200, y: 0)) }
            let c = page.canvas
            func render(_ s: LayerSnapshot) throws -> Bitmap {
                try CPURenderer().render(Compositor.displayList(root: s, width: Double(c.width), height: Double(c.height), scale: 1,
                                                                background: c.background))
            }
            let frame = try render(page.root.snapshot(atTime: 100.25)), model = try render(page.root.snapshot())
            XCTAssertGreaterThan(BitmapDifference(frame, model).pixelsOver, 0, "\(page.id): the animation changes nothing on screen")
            XCTAssertGreaterThan(page.root.runningAnimationCount(atTime: 100.25), 0, page.id)
        }
    }

    /// Listing 8.4: at 10:08:42 the hands are set; the tick to :43 turns the second hand from
    /// 252° to 258° in 0.5 s with easeInEaseOut, which is ½ at half time: 255° there (to 1e-7:
    /// the control points are Floats, as in Core Animation, and Float(0.42) + Float(0.58) is
    /// not exactly 1, so the curve is symmetric only to Float precision).
    func testClockTickAnimatesTheHand() throws {
        let page = try AnimatedClockPage(examples: examples())
        _ = page.update(clock: DemoClock(frozen: 36522))
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 36522), 0)
        XCTAssertEqual(page.update(clock: DemoClock(frozen: 36523)), .onInput)
        let half = presented(page.secondHand, at: 36523.25).transform
        XCTAssertEqual(half.m11, -0.25881904510252074, accuracy: 1e-7)  // cos 255°
        XCTAssertEqual(half.m12, -0.9659258262890683, accuracy: 1e-7)   // sin 255°
        // At 0.5 s the animation is over and the model's 258° shows.
        let end = presented(page.secondHand, at: 36523.5).transform
        XCTAssertEqual(end.m12, -0.9781476007338056, accuracy: 1e-9)    // sin 258°
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 36523.25), 1)
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 36523.5), 0)
    }

    /// Listing 8.6's curve from (50, 200) with control points (125, 50), (275, 350) to
    /// (350, 200): at 2 s of 4 (u = ½) the ship is at (50 + 1200/8, 50 + 1200/8)... i.e.
    /// ((50 + 3·125 + 3·275 + 350)/8, (200 + 3·50 + 3·350 + 200)/8) = (200, 200), heading along
    /// the derivative 3·(¼(75, −150) + ½(150, 300) + ¼(75, −150)) = (337.5, 225): tan = 2/3.
    func testShipFollowsThePathAndTurnsToItsTangent() {
        let page = ShipPathPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        let p = presented(page.ship, at: 102)
        XCTAssertEqual(p.position.x, 200, accuracy: 1e-9)
        XCTAssertEqual(p.position.y, 200, accuracy: 1e-9)
        XCTAssertEqual(p.transform.m12 / p.transform.m11, 2.0 / 3, accuracy: 1e-12)
        XCTAssertGreaterThan(p.transform.m11, 0)
        // Without rotationMode the ship keeps its model transform.
        XCTAssertTrue(page.typed("r"))
        XCTAssertEqual(presented(page.ship, at: 102).transform, .identity)
    }

    /// The pointer halfway across sets timeOffset 0.5: the door is 45° open (rotation.y −π/4:
    /// m11 = cos, m13 = −sin(−π/4)) whatever the media time, since its speed is 0.
    func testDoorIsScrubbedByThePointer() {
        let page = DoorPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 200, y: 10)))
        for t in [100.0, 250] {
            let m = presented(page.door, at: t).transform
            XCTAssertEqual(m.m11, 0.5.squareRoot(), accuracy: 1e-12)
            XCTAssertEqual(m.m13, 0.5.squareRoot(), accuracy: 1e-12)
        }
        XCTAssertEqual(page.update(clock: DemoClock(frozen: nil)), .onInput)
    }

    /// The curve is drawn from the control points (easeIn: (0.42, 0), (1, 1)) in the 200-point
    /// graph at (50, 60), y up; with easeInEaseOut (key 4), which is ½ at half time (to Float
    /// precision: its control points are Floats), the square is halfway up after 1 s of 2.
    func testEasingCurveIsDrawnFromItsControlPointsAndPlayed() {
        let page = EasingPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        let elements = page.curve.path!.elements
        XCTAssertEqual(elements.count, 2)
        guard case let .curveTo(end, c1, c2) = elements[1] else { return XCTFail("not a curve: \(elements)") }
        XCTAssertEqual(elements[0], .moveTo(CGPoint(x: 50, y: 260)))
        XCTAssertEqual(end, CGPoint(x: 250, y: 60))
        XCTAssertEqual(c1.x, 50 + 0.42 * 200, accuracy: 1e-5)  // Float control points
        XCTAssertEqual(c1.y, 260)
        XCTAssertEqual(c2, CGPoint(x: 250, y: 60))
        XCTAssertTrue(page.typed("4"))
        XCTAssertEqual(presented(page.square, at: 101).position.y, 160, accuracy: 1e-5)
        // The dot is on the curve: x linear (150 at half time), y the square's.
        let dot = presented(page.dot, at: 101).position
        XCTAssertEqual(dot.x, 150, accuracy: 1e-9)
        XCTAssertEqual(dot.y, 160, accuracy: 1e-5)
        // `c` then the pointer at the graph's top-left corner moves control point 1 to (0, 1).
        XCTAssertTrue(page.typed("c"))
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 50, y: 60)))
        XCTAssertEqual(EasingPage.controlPoint(page.function, 1), CGPoint(x: 0, y: 1))
    }

    /// Listing 10.6's keyframes land at their key times: 268 (floor) at 0.3 s, 140 at 0.5 s, 250
    /// at 0.95 s; the first fall is eased in, and easeIn is ½ at 0.6575 (hand-solved), so at
    /// 0.3 × 0.6575 s the ball is halfway down, at 150.
    func testBallBouncesThroughTheKeyframes() {
        let page = BouncingBallPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        for (t, y) in [(100.3, 268.0), (100.5, 140), (100.95, 250)] {
            XCTAssertEqual(presented(page.ball, at: t).position.y, y, accuracy: 1e-9, "at \(t)")
        }
        XCTAssertEqual(presented(page.ball, at: 100 + 0.3 * 0.6575).position.y, 150, accuracy: 1e-3)
        // A click drops it again from the top.
        _ = page.update(clock: DemoClock(frozen: 200))
        page.clicked(nil, at: .zero)
        XCTAssertEqual(presented(page.ball, at: 200).position.y, 32)
    }

    /// The pointer at (100, 140) of the 400 x 280 canvas sets stiffness 100 and damping 20:
    /// ζ = 20 / (2·√100) = 1, critically damped, x(t) = 1 − e^(−10t)(1 + 10t). The weight
    /// starts at the right end and springs to the left one when the page starts; 0.1 s after
    /// space, springing back from 60 to 340, it is 280·(1 − 2/e) on its way.
    func testSpringFollowsThePointersParameters() {
        let page = SpringPage()
        _ = page.update(clock: DemoClock(frozen: 100))
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 100, y: 140)))
        XCTAssertEqual(page.stiffness, 100)
        XCTAssertEqual(page.damping, 20)
        XCTAssertTrue(page.typed(" "))
        XCTAssertEqual(presented(page.weight, at: 100.1).position.x, 60 + 280 * (1 - 2 / M_E), accuracy: 1e-9)
    }
}
