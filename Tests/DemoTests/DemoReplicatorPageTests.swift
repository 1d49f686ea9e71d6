import Foundation
import LayerKitCore
import LayerKitTestSupport
@testable import layerkit_demo
import XCTest

/// Listings 6.8 and 6.9's pages: the replicators as the listings build them, and what their
/// keys change, in numbers and pixels.
final class DemoReplicatorPageTests: XCTestCase {
    /// The ring starts as the listing's 10 copies 36° apart; `+` makes 12 → 11 copies whose
    /// step is 360° / 11, so the 11th step brings a copy back onto the first; `d` pulses.
    func testRingKeysKeepTheRingClosed() {
        let page = ReplicatorRingPage()
        XCTAssertEqual(page.replicator.instanceCount, 10)
        // The listing's transform turns about (0, 200) from the centre: that point stays put,
        // and the centre (0, 0) goes to 200·(sin 36°, 1 − cos 36°) = (117.557, 38.197).
        let t = page.replicator.instanceTransform
        func apply(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
            CGPoint(x: x * t.m11 + y * t.m21 + t.m41, y: x * t.m12 + y * t.m22 + t.m42)
        }
        XCTAssertEqual(apply(0, 200).x, 0, accuracy: 1e-9)
        XCTAssertEqual(apply(0, 200).y, 200, accuracy: 1e-9)
        XCTAssertEqual(apply(0, 0).x, 117.557, accuracy: 0.001)
        XCTAssertEqual(apply(0, 0).y, 38.197, accuracy: 0.001)
        XCTAssertTrue(page.typed("+"))
        XCTAssertEqual(page.replicator.instanceCount, 11)
        let closed = page.replicator.style.transform(ofInstance: 11, center: CGPoint(x: 150, y: 150))
        let entries = [closed.m11, closed.m12, closed.m21, closed.m22, closed.m41, closed.m42]
        for (a, b) in zip(entries, [1, 0, 0, 1, 0, 0] as [CGFloat]) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        for _ in 0..<20 { _ = page.typed("-") }
        XCTAssertEqual(page.replicator.instanceCount, 1)
        XCTAssertTrue(page.typed("d"))
        XCTAssertEqual(page.replicator.instanceDelay, 0.1)
        XCTAssertNotNil(page.square.animation(forKey: "pulse"))
        XCTAssertEqual(page.update(clock: DemoClock(frozen: nil)), .everyFrame)
        XCTAssertTrue(page.typed("d"))
        XCTAssertNil(page.square.animation(forKey: "pulse"))
        XCTAssertEqual(page.update(clock: DemoClock(frozen: nil)), .onInput)
    }

    /// The reflection of an opaque red square at alpha 1 − 0.6 over white is
    /// 0.4 · (255, 0, 0) + 0.6 · 255 = (255, 153, 153); after `-`, alpha 0.3: (255, 178.5, 178.5).
    func testReflectionAlphaFollowsTheOffset() throws {
        let page = try ReflectionPage(examples: Examples(directory: examplesDirectory))
        let image = try XCTUnwrap(page.reflection.sublayers?.first)
        image.contents = nil
        image.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        func reflected() -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            // The replicator spans y 20…220; its reflection 222…422.
            renderCPU(page.root, width: 300, height: 480, background: .white)[150, 300]
        }
        XCTAssertEqual(reflected().g, 153)
        XCTAssertTrue(page.typed("-"))
        XCTAssertEqual(page.reflection.instanceAlphaOffset, -0.7)
        let g = reflected().g
        XCTAssertTrue(g == 178 || g == 179, "\(g)")
        XCTAssertEqual((page.root.sublayers?.last as? CATextLayer)?.string,
                       "instanceAlphaOffset -0.7: the reflection at alpha 0.3")
        for _ in 0..<10 { _ = page.typed("+") }
        XCTAssertEqual(page.reflection.instanceAlphaOffset, 0)
    }
}
