import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `masksToBounds` as the compositor records it: a clip to the layer's rounded bounds, in the
/// layer's plane, on the quads of its contents and sublayers (all the way down, nested clips
/// in order) and not on its own background and border, nor on anything outside it.
final class ClipTests: XCTestCase {
    /// On a 2x canvas: p (100 x 50 at (10, 20), corner radius 8, masksToBounds) draws pixels
    /// 2·(x + 10), 2·(y + 20), so its clip maps pixel (px, py) to (px/2 − 10, py/2 − 20). Its
    /// sublayer c (20 x 20 at (5, 5), masksToBounds, square) sits at 2·(x + 15), 2·(y + 25).
    /// c's sublayer g carries both clips, p's first; c's own background only p's.
    func testMasksToBoundsClipsContentsAndSublayersNotBackgroundOrBorder() {
        let g = solid("g", CGRect(x: 1, y: 1, width: 5, height: 5))
        let c = solid("c", CGRect(x: 5, y: 5, width: 20, height: 20))
        c.masksToBounds = true
        c.addSublayer(g)
        let p = solid("p", CGRect(x: 10, y: 20, width: 100, height: 50))
        p.masksToBounds = true
        p.cornerRadius = 8
        p.borderWidth = 2
        p.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        p.contents = solidImage(width: 4, height: 4, CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        p.addSublayer(c)
        let sibling = solid("sibling", CGRect(x: 0, y: 0, width: 10, height: 10))
        let list = compose(container(CGRect(x: 0, y: 0, width: 200, height: 200), [p, sibling]), scale: 2)

        let pClip = Clip(map: PlaneMap(0.5, 0, 0, 0, 0.5, 0, -10, -20, 1),
                         shape: .roundedRect(CGRect(x: 0, y: 0, width: 100, height: 50), corners: Corners(radius: 8), antialiased: false))
        let cClip = Clip(map: PlaneMap(0.5, 0, 0, 0, 0.5, 0, -15, -25, 1),
                         shape: .roundedRect(CGRect(x: 0, y: 0, width: 20, height: 20), corners: .square, antialiased: false))
        let q = list.canvas.quads
        XCTAssertEqual(q.map(\.label), ["p", "p", "c", "g", "p", "sibling"], "background, contents, sublayers, border")
        guard q.count == 6 else { return }
        XCTAssertEqual(q[0].clips, [], "p's background is rounded by its shape, not clipped")
        XCTAssertEqual(q[0].shape, .rect(corners: Corners(radius: 8)))
        guard case .image = q[1].fill else { return XCTFail("p's contents") }
        XCTAssertEqual(q[1].clips, [pClip])
        XCTAssertEqual(q[2].clips, [pClip], "c's background: only the clip above it")
        XCTAssertEqual(q[3].clips, [pClip, cClip])
        XCTAssertEqual(q[4].shape, .border(width: 2, corners: Corners(radius: 8)))
        XCTAssertEqual(q[4].clips, [], "the border is drawn over the clipped sublayers, itself unclipped")
        XCTAssertEqual(q[5].clips, [])
    }

    /// allowsEdgeAntialiasing goes with the layer: its own quads and the straight edges of its
    /// clip are antialiased, a sublayer's quad (which does not allow it) is not.
    func testEdgeAntialiasingFollowsTheLayer() {
        let child = solid("child", CGRect(x: 0, y: 0, width: 10, height: 10))
        let p = solid("p", CGRect(x: 0, y: 0, width: 40, height: 40))
        p.allowsEdgeAntialiasing = true
        p.masksToBounds = true
        p.addSublayer(child)
        let list = compose(p, 40, 40)
        XCTAssertEqual(list.canvasLabels, ["p", "child"])
        XCTAssertEqual(list.canvas.quads.map(\.antialiased), [true, false])
        XCTAssertEqual(list.canvas.quads.last?.clips.map(\.shape),
                       [.roundedRect(CGRect(x: 0, y: 0, width: 40, height: 40), corners: .square, antialiased: true)])
    }

    /// The clip follows the clipping layer's plane, not the clipped one's: a sublayer turned 90°
    /// in z within p (40 x 40 at the canvas origin, 1x) has a matrix of its own, but its clip
    /// maps pixels through p's, the identity.
    func testTheClipIsInTheClippingLayersPlane() {
        let child = solid("child", CGRect(x: 10, y: 10, width: 20, height: 20))
        child.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let p = container(CGRect(x: 0, y: 0, width: 40, height: 40), [child])
        p.masksToBounds = true
        let list = compose(container(CGRect(x: 0, y: 0, width: 40, height: 40), [p]), 40, 40)
        XCTAssertEqual(list.canvasLabels, ["child"])
        guard list.canvas.quads.count == 1 else { return }
        XCTAssertEqual(list.canvas.quads[0].clips.map(\.map), [PlaneMap(1, 0, 0, 0, 1, 0, 0, 0, 1)])
        XCTAssertNotEqual(list.canvas.quads[0].inverse, PlaneMap(1, 0, 0, 0, 1, 0, 0, 0, 1))
    }
}
