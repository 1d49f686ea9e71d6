import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `CATransition` drawn by the reference renderer: a 100 x 100 red layer turning blue
/// (`redToBlueTransition`), its pixels worked out by hand from each type's rule.
final class TransitionRenderTests: XCTestCase {
    static let red = [255, 0, 0, 255], blue = [0, 0, 255, 255], nothing = [0, 0, 0, 0]

    static func pixels(_ list: DisplayList, _ points: [(Int, Int)]) throws -> [[Int]] {
        let b = try CPURenderer().render(list)
        return points.map { b[$0.0, $0.1] }.map { [Int($0.r), Int($0.g), Int($0.b), Int($0.a)] }
    }

    private func assertPixel(_ got: [Int], _ want: [Double], file: StaticString = #filePath, line: UInt = #line) {
        for (g, w) in zip(got, want) { XCTAssertEqual(Double(g), w, accuracy: 1, "\(got)", file: file, line: line) }
    }

    func testFadeCrossFadesTheRenderings() throws {
        // p = 0.25: red × 0.75 + blue × 0.25 = (191.25, 0, 63.75), opaque.
        let quarter = try Self.pixels(redToBlueTransition(transition(.fade), at: 10.25), [(50, 50), (0, 0), (99, 99)])
        for p in quarter { assertPixel(p, [191.25, 0, 63.75, 255]) }
        // p = 0.75: (63.75, 0, 191.25).
        assertPixel(try Self.pixels(redToBlueTransition(transition(.fade), at: 10.75), [(50, 50)])[0], [63.75, 0, 191.25, 255])
        // Outside the layer nothing is drawn.
        XCTAssertEqual(try Self.pixels(redToBlueTransition(transition(.fade), at: 10.25), [(150, 50)])[0], Self.nothing)
    }

    func testFadeIsADissolveOfTranslucentRenderings() throws {
        // Half-transparent red fading to nothing: at p = 0.5 the premultiplied red (127.5, 0,
        // 0, 127.5) is halved, (63.75, 0, 0, 63.75); a fade of the old rendering under the new
        // one would keep more of the old (nothing's alpha is 0).
        // The layer's opacity, 0.5, applies once to the result: (31.875, 0, 0, 31.875).
        let list = translucentFade(at: 10.5)
        assertPixel(try Self.pixels(list, [(5, 5)])[0], [31.875, 0, 0, 31.875])
    }

    func testEitherOrderInATransactionFadesFromTheLastCommit() throws {
        // Red was drawn; the transaction turns it blue and adds the fade, in either order.
        // p = 0 at 10: red; p = 0.5 at 10.5: red × 0.5 + blue × 0.5 = (127.5, 0, 127.5);
        // at 11 the fade is over (removed on completion): blue.
        for changeFirst in [false, true] {
            let order = changeFirst ? "change, then add" : "add, then change"
            XCTAssertEqual(try Self.pixels(redToBlueInOneTransaction(changeFirst: changeFirst, at: 10), [(50, 50)])[0], Self.red, order)
            assertPixel(try Self.pixels(redToBlueInOneTransaction(changeFirst: changeFirst, at: 10.5), [(50, 50)])[0],
                        [127.5, 0, 127.5, 255])
            XCTAssertEqual(try Self.pixels(redToBlueInOneTransaction(changeFirst: changeFirst, at: 11), [(50, 50)])[0], Self.blue, order)
        }
    }

    func testProgressRangeMapsTheTimedFraction() throws {
        // Half way through, startProgress 0.5 → endProgress 1 is at 0.75: (63.75, 0, 191.25).
        let t = transition(.fade)
        (t.startProgress, t.endProgress) = (0.5, 1)
        assertPixel(try Self.pixels(redToBlueTransition(t, at: 10.5), [(50, 50)])[0], [63.75, 0, 191.25, 255])
    }

    func testPushFromRightSlidesBothHalfWay() throws {
        // p = 0.5: the old rendering has moved 50 points left, the new one comes in from the
        // right to x = 50; nothing shows beyond the layer's right edge.
        let list = redToBlueTransition(transition(.push, .fromRight), at: 10.5)
        XCTAssertEqual(try Self.pixels(list, [(0, 50), (49, 50), (50, 50), (99, 0), (100, 50), (149, 50)]),
                       [Self.red, Self.red, Self.blue, Self.blue, Self.nothing, Self.nothing])
        // p = 0.25 from the left: new rendering over x < 25, old beyond.
        let left = redToBlueTransition(transition(.push, .fromLeft), at: 10.25)
        XCTAssertEqual(try Self.pixels(left, [(24, 50), (25, 50), (99, 50)]), [Self.blue, Self.red, Self.red])
    }

    func testMoveInAndRevealFromTopAndBottom() throws {
        // moveIn from the top, p = 0.25: the new rendering covers y < 25 over the old one.
        let moveIn = redToBlueTransition(transition(.moveIn, .fromTop), at: 10.25)
        XCTAssertEqual(try Self.pixels(moveIn, [(50, 24), (50, 25), (50, 99)]), [Self.blue, Self.red, Self.red])
        // reveal from the bottom, p = 0.25: the old rendering has moved 25 points up,
        // uncovering the new one at y ≥ 75.
        let reveal = redToBlueTransition(transition(.reveal, .fromBottom), at: 10.25)
        XCTAssertEqual(try Self.pixels(reveal, [(50, 0), (50, 74), (50, 75), (50, 99)]), [Self.red, Self.red, Self.blue, Self.blue])
    }

    func testNoTransitionOutsideItsActiveTime() throws {
        // After the end (removed on completion) the layer draws its new state, in one pass.
        let after = redToBlueTransition(transition(.push, .fromRight), at: 11.5)
        XCTAssertEqual(after.passes.count, 1)
        XCTAssertEqual(try Self.pixels(after, [(10, 50), (90, 50)]), [Self.blue, Self.blue])
        // A moving transition: the two renderings, their composition, the canvas.
        let during = redToBlueTransition(transition(.push, .fromRight), at: 10.5)
        XCTAssertEqual(during.passes.map(\.purpose), [.transitionFrom, .transitionTo, .transition, .canvas])
        // A fade cross-fades the two straight onto the canvas, as its dump says.
        let fade = redToBlueTransition(transition(.fade), at: 10.25)
        XCTAssertEqual(fade.passes.map(\.purpose), [.transitionFrom, .transitionTo, .canvas])
        XCTAssertTrue(fade.dump().contains("pass 0 at 1 px/pt faded 0.25 into pass 1"), fade.dump())
    }
}
