import Foundation
import XCTest
@testable import LayerKitCore

/// `CAScrollLayer` and `CALayer`'s scrolling methods, with the positions worked out by hand
/// from the rules (docs/scene-format.md, "scrollLayer").
final class ScrollLayerTests: XCTestCase {
    private func scroller(_ mode: CAScrollLayerScrollMode = .both) -> CAScrollLayer {
        let s = CAScrollLayer()
        s.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        s.scrollMode = mode
        return s
    }

    func testDefaults() {
        let s = CAScrollLayer()
        XCTAssertEqual(s.scrollMode, .both)
        XCTAssertTrue(s.masksToBounds)
        XCTAssertEqual(CAScrollLayer.defaultValue(forKey: "masksToBounds") as? Bool, true)
        XCTAssertEqual(CALayer.defaultValue(forKey: "masksToBounds") as? Bool, false)
        XCTAssertEqual(s.value(forKey: "scrollMode") as? String, "both")
        s.setValue("vertically", forKey: "scrollMode")
        XCTAssertEqual(s.scrollMode, .vertically)
        // A presentation copy keeps the mode.
        XCTAssertEqual((s.presentation(atTime: 0) as? CAScrollLayer)?.scrollMode, .vertically)
    }

    func testScrollToPointFollowsTheMode() {
        let p = CGPoint(x: 30, y: 40)
        XCTAssertEqual(scroller(.both).scrolled(to: p), CGPoint(x: 30, y: 40))
        XCTAssertEqual(scroller(.horizontally).scrolled(to: p), CGPoint(x: 30, y: 0))
        XCTAssertEqual(scroller(.vertically).scrolled(to: p), CGPoint(x: 0, y: 40))
        XCTAssertEqual(scroller(.none).scrolled(to: p), CGPoint(x: 0, y: 0))
        let s = scroller()
        s.scroll(to: p)
        XCTAssertEqual(s.bounds.size, CGSize(width: 100, height: 50))
    }

    /// Bounds 100 x 50 at the origin. x: [150, 170] ends past 100, so o = 170 − 100 = 70; y:
    /// [10, 20] is in view, so y stays 0. Then from (70, 0): x [20, 40] starts before 70, so
    /// o = 20; y [30, 110] is 80 high, more than 50, so o = 30. A rectangle in view moves nothing.
    func testScrollToRectMovesAsLittleAsItTakes() {
        let s = scroller()
        s.scroll(to: CGRect(x: 150, y: 10, width: 20, height: 10))
        XCTAssertEqual(s.bounds.origin, CGPoint(x: 70, y: 0))
        s.scroll(to: CGRect(x: 20, y: 30, width: 20, height: 80))
        XCTAssertEqual(s.bounds.origin, CGPoint(x: 20, y: 30))
        s.scroll(to: CGRect(x: 25, y: 35, width: 10, height: 10))
        XCTAssertEqual(s.bounds.origin, CGPoint(x: 20, y: 30))
        let v = scroller(.vertically)
        v.scroll(to: CGRect(x: 150, y: 60, width: 20, height: 10))
        XCTAssertEqual(v.bounds.origin, CGPoint(x: 0, y: 20))
    }

    /// A sublayer at position (200, 100) with bounds 40 x 40 (its origin at (180, 80) in the
    /// scroll layer's space) asks to scroll its point (10, 10): the scroll layer's origin
    /// becomes (190, 90). Without a scroll layer above, nothing happens.
    func testLayerScrollConvertsIntoTheNearestScrollLayer() {
        let s = scroller()
        let content = CALayer()
        content.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        content.position = CGPoint(x: 200, y: 100)
        s.addSublayer(content)
        content.scroll(CGPoint(x: 10, y: 10))
        XCTAssertEqual(s.bounds.origin, CGPoint(x: 190, y: 90))
        // scrollRectToVisible of the whole sublayer (180…220 × 80…120 in the scroll layer):
        // on x it starts before 190, so o.x = 180; on y before 90, so o.y = 80.
        content.scrollRectToVisible(content.bounds)
        XCTAssertEqual(s.bounds.origin, CGPoint(x: 180, y: 80))
        let lone = CALayer()
        lone.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        lone.scroll(CGPoint(x: 5, y: 5))
        lone.scrollRectToVisible(CGRect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(lone.bounds.origin, .zero)
    }

    /// The scroll layer shows 100 x 50 from (190, 90): the sublayer's bounds in its space,
    /// (180…220, 80…120), meet it in (190…220, 90…120), which is (10, 10, 30, 30) in the
    /// sublayer's own space. A layer without a scroll layer above sees its whole bounds, the
    /// scroll layer itself its bounds, and a sublayer scrolled out of view `.zero`.
    func testVisibleRect() {
        let s = scroller()
        let content = CALayer()
        content.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        content.position = CGPoint(x: 200, y: 100)
        s.addSublayer(content)
        s.scroll(to: CGPoint(x: 190, y: 90))
        XCTAssertEqual(content.visibleRect, CGRect(x: 10, y: 10, width: 30, height: 30))
        XCTAssertEqual(s.visibleRect, s.bounds)
        s.scroll(to: CGPoint(x: 0, y: 0))
        XCTAssertEqual(content.visibleRect, .zero)
        let lone = CALayer()
        lone.bounds = CGRect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertEqual(lone.visibleRect, lone.bounds)
    }
}

private extension CAScrollLayer {
    func scrolled(to p: CGPoint) -> CGPoint {
        scroll(to: p)
        return bounds.origin
    }
}
