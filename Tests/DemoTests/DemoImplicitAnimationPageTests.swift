import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The pages of chapter 7 and chapter 8's transitions without a window, driven as the demo
/// drives them: a `CADisplayLink` whose clock the test sets by hand, input through
/// `Page.handling`. Expected values come from the timing rules: an implicit animation runs
/// for the transaction's duration (0.25 s unless set) with the `.default` function
/// (0.25, 0.1), (0.25, 1), which is 0.802403387584857 at half time (its cubic solved by
/// bisection, outside LayerKit); a transition without a function is linear.
final class DemoImplicitAnimationPageTests: XCTestCase {
    private var now = 0.0
    private var link: CADisplayLink!
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    /// The `.default` function at half time.
    private let half = 0.802403387584857

    override func setUp() {
        super.setUp()
        link = CADisplayLink(timeSource: { [unowned self] in now }) { _ in }
    }

    override func tearDown() {
        link.invalidate()
        CATransaction.flush()
        super.tearDown()
    }

    /// A frame of the link at media time `t`: the page updates and its tree is drawn (so its
    /// layers are committed, and their changes animate from then on).
    @discardableResult
    private func frame(_ page: Page, at t: Double) -> Redraw {
        now = t
        XCTAssertTrue(link.step())
        let redraw = page.handling { page.update(clock: DemoClock(frozen: nil, frameTime: t)) }
        _ = page.root.snapshot(atTime: t)
        return redraw
    }

    private func presented(_ layer: CALayer, at t: Double) -> LayerSnapshot {
        layer.superlayer!.snapshot(atTime: t).sublayers.first { $0.properties.name == layer.name }!
    }

    private func assertColor(_ c: CGColor?, _ expected: [CGFloat], file: StaticString = #filePath, line: UInt = #line) {
        guard let c else { return XCTFail("no colour", file: file, line: line) }
        for (a, b) in zip(c.components, expected) { XCTAssertEqual(a, b, accuracy: 1e-6, file: file, line: line) }
    }

    /// Listings 7.1–7.3: a click fades blue to red implicitly in 0.25 s; in the transaction
    /// mode red to green takes 1 s, and its completion block, run once at the frame where the
    /// colour animation ends, turns the layer 90° in an implicit 0.25 s animation.
    func testColourChangeAndItsTransaction() {
        let page = ImplicitColorPage()
        page.nextColor = { [red] in red }
        frame(page, at: 100)
        page.handling { page.clicked(nil, at: .zero) }
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 100.125), 1, "the HUD's count")
        assertColor(presented(page.colorLayer, at: 100.125).properties.backgroundColor, [half, 0, 1 - half, 1])
        XCTAssertEqual(frame(page, at: 100.125), .everyFrame)
        assertColor(presented(page.colorLayer, at: 100.25).properties.backgroundColor, [1, 0, 0, 1])

        XCTAssertTrue(page.handling { page.typed("t") })
        page.nextColor = { [green] in green }
        frame(page, at: 101)
        XCTAssertTrue(page.handling { page.typed(" ") })
        assertColor(presented(page.colorLayer, at: 101.5).properties.backgroundColor, [1 - half, half, 0, 1])
        frame(page, at: 101.5)
        XCTAssertEqual(page.completions, 0)
        frame(page, at: 102)
        XCTAssertEqual(page.completions, 1)
        // The rotation from 0° to 90° begins at the frame that ran the block: at half time it
        // is 0.802403 · 90° = 72.216°.
        let m = presented(page.colorLayer, at: 102.125).properties.transform
        XCTAssertEqual(m.m11, 0.30542434142738034, accuracy: 1e-6)
        XCTAssertEqual(m.m12, 0.9522163470890693, accuracy: 1e-6)
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 102.125), 1)
        frame(page, at: 102.25)
        XCTAssertEqual(frame(page, at: 103), .onInput)
        XCTAssertEqual(page.completions, 1, "the completion block runs once")
        XCTAssertEqual(presented(page.colorLayer, at: 103).properties.transform.m12, 1, accuracy: 1e-12)
    }

    /// Listing 7.6: the colour change runs the `actions` dictionary's push from the left: at
    /// half of 0.25 s (linear) the old blue is pushed 50 of the square's 100 points right and
    /// the new red follows at −50.
    func testCustomActionPushesTheNewColourIn() {
        let page = CustomActionPage()
        page.nextColor = { [red] in red }
        frame(page, at: 100)
        XCTAssertTrue(page.handling { page.typed(" ") })
        let s = presented(page.colorLayer, at: 100.125)
        let transition = try! XCTUnwrap(s.transition)
        XCTAssertEqual(transition.type, .push)
        XCTAssertEqual(transition.before.properties.backgroundColor, blue)
        XCTAssertEqual(s.properties.backgroundColor, red)
        XCTAssertEqual(transition.progress, 0.5, accuracy: 1e-12)
        let offsets = try! XCTUnwrap(transition.offsets(size: CGSize(width: 100, height: 100)))
        XCTAssertEqual(offsets.old, CGPoint(x: 50, y: 0))
        XCTAssertEqual(offsets.new, CGPoint(x: -50, y: 0))
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 100.125), 1)
        XCTAssertNil(presented(page.colorLayer, at: 100.25).transition)
    }

    /// Listing 7.10: a click at (250, 250) moves the square there in 4 s; after 2 s its centre
    /// is at 150 + 100 · 0.802403 = 230.24, so it covers 180.24…280.24 on screen while the
    /// model covers 200…300. (190, 190) hits it only on screen: the click changes its colour
    /// and leaves the move running; (290, 290) hits only the model: the click moves it.
    func testPresentationHitTest() {
        let page = PresentationHitPage()
        page.nextColor = { [red] in red }
        frame(page, at: 100)
        let target = CGPoint(x: 250, y: 250)
        page.handling { page.clicked(page.hitTest(target), at: target) }
        XCTAssertEqual(page.colorLayer.position, target)
        frame(page, at: 102)
        let p = presented(page.colorLayer, at: 102).properties.position
        XCTAssertEqual(p.x, 230.24033875848568, accuracy: 1e-6)
        XCTAssertEqual(p.y, 230.24033875848568, accuracy: 1e-6)

        let onScreen = CGPoint(x: 190, y: 190)
        XCTAssertFalse(page.root.hitTest(onScreen) === page.colorLayer, "the model is not there yet")
        XCTAssertTrue(page.hitTest(onScreen) === page.colorLayer)
        page.handling { page.clicked(page.hitTest(onScreen), at: onScreen) }
        XCTAssertEqual(page.colorLayer.backgroundColor, red)
        XCTAssertEqual(page.colorLayer.position, target)
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 102.1), 2, "the move and the colour")

        let modelOnly = CGPoint(x: 290, y: 290)
        XCTAssertFalse(page.hitTest(modelOnly) === page.colorLayer)
        page.handling { page.clicked(page.hitTest(modelOnly), at: modelOnly) }
        XCTAssertEqual(page.colorLayer.position, modelOnly)
    }

    /// Chapter 8's transitions: space fades the cat into the star over 0.25 s (linear: ½ at
    /// 0.125 s); `t` then makes the next swap a moveIn from the left, which at a quarter has
    /// the new picture 150 of the 200 points left of its place.
    func testTransitionBetweenImages() throws {
        let page = try TransitionPage(examples: Examples(directory: examplesDirectory))
        let cat = page.imageLayer.contents
        frame(page, at: 100)
        XCTAssertTrue(page.handling { page.typed(" ") })
        let s = presented(page.imageLayer, at: 100.125)
        let fade = try XCTUnwrap(s.transition)
        XCTAssertEqual(fade.type, .fade)
        XCTAssertEqual(fade.progress, 0.5, accuracy: 1e-12)
        XCTAssertTrue(fade.before.properties.contents === cat)
        XCTAssertFalse(s.properties.contents === cat)
        XCTAssertNil(page.imageLayer.animation(forKey: "contents"), "the contents change itself does not animate")
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 100.125), 1)

        XCTAssertTrue(page.handling { page.typed("t") })
        XCTAssertEqual(page.type, .moveIn)
        frame(page, at: 101)
        page.handling { page.clicked(nil, at: .zero) }
        let moveIn = try XCTUnwrap(presented(page.imageLayer, at: 101.0625).transition)
        XCTAssertEqual(moveIn.progress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(moveIn.offsets(size: CGSize(width: 200, height: 200))?.new, CGPoint(x: -150, y: 0))
    }

    /// A page that does not animate implicitly changes its layers with actions disabled even
    /// while the link runs: the compass arrow turns at once, with no implicit animation.
    func testOtherPagesDoNotAnimateImplicitly() throws {
        let page = try CompassPage(examples: Examples(directory: examplesDirectory))
        frame(page, at: 100)
        XCTAssertTrue(page.handling { page.pointerMoved(to: CGPoint(x: 0, y: 0)) })
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 100.1), 0)
    }
}
