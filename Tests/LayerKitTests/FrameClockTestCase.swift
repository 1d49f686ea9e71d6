import Foundation
import XCTest
@testable import LayerKitCore

/// Tests driven by a display link whose time source the test sets, so every expected value is
/// worked out by hand from the timing rules: `layer` in `root`, drawn once at time 0, so that
/// its changes animate implicitly as on screen.
class FrameClockTestCase: XCTestCase {
    var now = 0.0
    var link: CADisplayLink!
    let root = CALayer(), layer = CALayer()

    override func setUp() {
        super.setUp()
        CATransaction.flush()
        XCTAssertTrue(TransactionStack.shared.isEmpty)
        link = CADisplayLink(timeSource: { [unowned self] in now }) { _ in }
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 100)
        root.position = CGPoint(x: 200, y: 50)
        layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        root.addSublayer(layer)
        frame(at: 0)
        _ = root.snapshot()
    }

    override func tearDown() {
        // The test case outlives its run: stop its animations so later frames skip them.
        var pending = [root]
        while let l = pending.popLast() {
            l.removeAllAnimations()
            pending += l.sublayers ?? []
        }
        link.invalidate()
        CATransaction.flush()
        XCTAssertTrue(TransactionStack.shared.isEmpty, "a test left a transaction open")
        super.tearDown()
    }

    /// The link's frame at media time `t`.
    func frame(at t: Double) {
        now = t
        XCTAssertTrue(link.step())
    }
}
