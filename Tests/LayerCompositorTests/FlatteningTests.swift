import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Where the compositor places each layer, read off the quads' matrices: a layer's matrix is
/// `local · childrenTransform(parent) · flatten(parent's matrix)`, a transform layer passes its
/// matrix on unflattened, a single-sided layer facing away is not drawn with its subtree, and a
/// hidden one neither. Every expected matrix is worked out by hand in its comment.
final class FlatteningTests: XCTestCase {
    /// A root at the canvas origin, whose own matrix is the identity: T(-100, -100) · T(100, 100).
    private func root(_ sublayers: [CALayer]) -> CALayer { container(CGRect(x: 0, y: 0, width: 200, height: 200), sublayers) }

    /// Position, anchor point and the canvas scale: a 40 x 30 layer at frame origin (10, 20) on a
    /// 2x canvas is `T(10, 20) · S(2)`; with anchor point (0, 0) at position (50, 60) it is
    /// `T(50, 60) · S(2)`.
    func testPositionAnchorPointAndScale() {
        let a = solid("a", CGRect(x: 10, y: 20, width: 40, height: 30))
        let b = solid("b", CGRect(x: 0, y: 0, width: 40, height: 30))
        b.anchorPoint = .zero
        b.position = CGPoint(x: 50, y: 60)
        let list = compose(root([a, b]), scale: 2)
        XCTAssertEqual(list.canvasLabels, ["a", "b"])
        guard list.canvas.quads.count == 2 else { return }
        assertTransform(list.canvas.quads[0], matrix([2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0], [20, 40, 0, 1]))
        assertTransform(list.canvas.quads[1], matrix([2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0], [100, 120, 0, 1]))
        XCTAssertEqual(list.canvas.quads[0].rect, CGRect(x: 0, y: 0, width: 40, height: 30), "the quad covers the bounds")
        // The inverse maps pixels back: pixel (20, 40) is the layer's origin, a pixel is half a point.
        XCTAssertEqual(list.canvas.quads[0].inverse.entries, [0.5, 0, 0, 0, 0.5, 0, -10, -20, 1])
    }

    /// A sublayerTransform applies about the anchor point: the parent (0, 0, 100, 100) scaling its
    /// sublayers by 2 about (50, 50) maps x to 2x − 50, so a sublayer at (50, 50) lands at
    /// 2(x + 50) − 50 = 2x + 50.
    func testSublayerTransformScalesAboutTheAnchorPoint() {
        let child = solid("child", CGRect(x: 50, y: 50, width: 10, height: 10))
        let parent = container(CGRect(x: 0, y: 0, width: 100, height: 100), [child])
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let list = compose(root([parent]))
        XCTAssertEqual(list.canvasLabels, ["child"])
        guard list.canvas.quads.count == 1 else { return }
        assertTransform(list.canvas.quads[0], matrix([2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0], [50, 50, 0, 1]))
    }

    /// Perspective in a sublayerTransform (eye at z = 500 above the anchor (50, 50)) reaches the
    /// sublayers' z: a 10-point sublayer at zPosition 250 is halfway to the eye, w = 1 − 250/500
    /// = 0.5, and drawn twice as large about the anchor: its corners (50, 50) and (60, 50) land at
    /// (50, 50) and (70, 50). The matrix is T(50, 50, 250) · T(−50, −50) · P · T(50, 50):
    /// x = (x + 50 − 50) + 50·w, w = 1 − z/500 with z = 250.
    func testPerspectiveSublayerTransformReachesTheSublayersZ() {
        let child = solid("child", CGRect(x: 50, y: 50, width: 10, height: 10))
        child.zPosition = 250
        let parent = container(CGRect(x: 0, y: 0, width: 100, height: 100), [child])
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        parent.sublayerTransform = p
        let list = compose(root([parent]))
        XCTAssertEqual(list.canvasLabels, ["child"])
        guard let q = list.canvas.quads.first else { return }
        // T(−50, −50) · P · T(50, 50) has the rows (1, 0, 0, 0), (0, 1, 0, 0), (−0.1, −0.1, 1, −0.002)
        // and (0, 0, 0, 1): as z lowers w by z/500 it moves x and y by −50·z/500 so that the
        // anchor stays put. T(50, 50, 250) before it makes the last row
        // (50 − 0.1·250, 50 − 0.1·250, 250, 1 − 0.002·250).
        assertTransform(q, matrix([1, 0, 0, 0], [0, 1, 0, 0], [-0.1, -0.1, 1, -0.002], [25, 25, 250, 0.5]))
        for (corner, expected) in [(CGPoint(x: 0, y: 0), [50.0, 50]), (CGPoint(x: 10, y: 0), [70, 50])] {
            let p = q.transform.projecting(corner)!
            assertEqual([p.x, p.y].map(Double.init), expected, "corner \(corner)")
        }
    }

    /// Listing 5.8: an outer layer turned 60° about y holds an inner one turned back by −60°
    /// (anchor points (0, 0) at the origin, so each matrix is its rotation). A plain outer
    /// layer flattens: flatten(R(60°)) keeps only m11 = cos 60° = ½ of the rotation's plane
    /// part, and R(−60°) · diag(½, 1, 1, 1) has m11 = ½·½ = ¼, m13 = sin 60°, m31 = −sin 60°·½,
    /// m33 = ½: the inner square is drawn a quarter as wide. A transform layer does not flatten:
    /// R(−60°) · R(60°) is the identity, and the square is drawn upright.
    func testPlainLayersFlattenAndTransformLayersDoNot() {
        func tree(_ outer: CALayer) -> CALayer {
            outer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            outer.anchorPoint = .zero
            outer.position = .zero
            outer.transform = rotationY(60)
            let inner = solid("inner", CGRect(x: 0, y: 0, width: 100, height: 100))
            inner.anchorPoint = .zero
            inner.position = .zero
            inner.transform = rotationY(-60)
            outer.addSublayer(inner)
            return root([outer])
        }
        let s = 3.0.squareRoot() / 2
        let flat = compose(tree(CALayer())), threeD = compose(tree(CATransformLayer()))
        XCTAssertEqual(flat.canvasLabels, ["inner"])
        XCTAssertEqual(threeD.canvasLabels, ["inner"])
        guard flat.canvas.quads.count == 1, threeD.canvas.quads.count == 1 else { return }
        assertTransform(flat.canvas.quads[0], matrix([0.25, 0, s, 0], [0, 1, 0, 0], [-s / 2, 0, 0.5, 0], [0, 0, 0, 1]))
        assertTransform(threeD.canvas.quads[0], matrix([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]))
    }

    /// A single-sided layer turned 180° about y faces away and is dropped with its sublayers
    /// (which face the same way); double-sided it is drawn. A mirror in x alone is not a back
    /// face. Whether a layer faces away is decided on its whole matrix: under a transform layer
    /// turned 180° a single-sided sublayer faces away, and turned back by another 180° of its
    /// own it faces the eye again.
    func testBackFacingSingleSidedLayersAreCulled() {
        func turned(_ name: String, doubleSided: Bool, _ transform: CATransform3D) -> CALayer {
            let l = solid(name, CGRect(x: 0, y: 0, width: 100, height: 100))
            l.isDoubleSided = doubleSided
            l.transform = transform
            l.addSublayer(solid(name + ".child", CGRect(x: 0, y: 0, width: 50, height: 100)))
            return l
        }
        XCTAssertEqual(compose(root([turned("back", doubleSided: false, rotationY(180))])).canvasLabels, [])
        XCTAssertEqual(compose(root([turned("back", doubleSided: true, rotationY(180))])).canvasLabels, ["back", "back.child"])
        XCTAssertEqual(compose(root([turned("mirror", doubleSided: false, CATransform3DMakeScale(-1, 1, 1))])).canvasLabels,
                       ["mirror", "mirror.child"])

        let away = solid("away", CGRect(x: 0, y: 0, width: 100, height: 100))
        away.isDoubleSided = false
        let again = solid("again", CGRect(x: 0, y: 0, width: 100, height: 100))
        again.isDoubleSided = false
        again.transform = rotationY(180)
        let turner = CATransformLayer()
        turner.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        turner.transform = rotationY(180)
        turner.addSublayer(away)
        turner.addSublayer(again)
        XCTAssertEqual(compose(root([turner])).canvasLabels, ["again"])
    }

    /// isGeometryFlipped mirrors a layer's sublayers about its bounds' mid-line: in p (100 x 50)
    /// the sublayer at (0, 0) is placed by S(1, −1) · T(0, 50), its top edge at y = 50. Contents
    /// are mirrored back so that they display the same (`contentsAreFlipped`): the sublayer's
    /// 4 x 4 image runs from texel row 4 at its y = 0 to row 0 at y = 10, while p's own contents,
    /// not under a flip, run 0 to 4; under two flips they run 0 to 4 again.
    func testGeometryFlippedMirrorsSublayersButNotTheirContents() {
        let image = solidImage(width: 4, height: 4, CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        let twice = CALayer()
        twice.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        twice.contents = image
        twice.name = "twice"
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        child.contents = image
        child.name = "child"
        child.isGeometryFlipped = true
        child.addSublayer(twice)
        let p = container(CGRect(x: 0, y: 0, width: 100, height: 50), [child], name: "p")
        p.contents = image
        p.isGeometryFlipped = true
        let list = compose(root([p]))
        XCTAssertEqual(list.canvasLabels, ["p", "child", "twice"])
        guard list.canvas.quads.count == 3 else { return }
        assertTransform(list.canvas.quads[1], matrix([1, 0, 0, 0], [0, -1, 0, 0], [0, 0, 1, 0], [0, 50, 0, 1]))
        let rows = list.canvas.quads.map { q -> [Double] in
            guard case .image(let fill) = q.fill else { return [] }
            return fill.y.stops + fill.y.texels
        }
        XCTAssertEqual(rows, [[0, 50, 0, 4], [0, 10, 4, 0], [0, 10, 0, 4]], "stops, then texels")
    }

    /// Hidden layers draw nothing, their sublayers neither; the opacity of a transform layer
    /// multiplies into its sublayers' quads (it draws nothing itself), as a plain layer's does.
    func testHiddenLayersAndTransformLayerOpacity() {
        let hidden = solid("hidden", CGRect(x: 0, y: 0, width: 10, height: 10))
        hidden.isHidden = true
        hidden.addSublayer(solid("hidden.child", CGRect(x: 0, y: 0, width: 10, height: 10)))
        let leaf = solid("leaf", CGRect(x: 0, y: 0, width: 10, height: 10))
        leaf.opacity = 0.5
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        t.opacity = 0.5
        t.addSublayer(leaf)
        let list = compose(root([hidden, t]))
        XCTAssertEqual(list.canvasLabels, ["leaf"])
        XCTAssertEqual(list.canvas.quads.first?.opacity, 0.25)
    }
}
