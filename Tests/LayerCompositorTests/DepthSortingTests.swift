import Foundation
@testable import LayerCompositor
import LayerKitCore
import XCTest

/// The painter's order of a sorting context (`DepthSorter`), read off the canvas quads: flat
/// planes by z with sublayer order breaking ties, only within their context; tilted planes that
/// overlap on screen back to front, split where they cross, each piece carrying the half-plane
/// of its own layer that bounds it; coplanar ones and ones apart on screen in sublayer order;
/// what lies behind the eye clipped away before sorting.
///
/// The tilted scenes stand in a 200 x 200 transform layer at the canvas origin, whose matrix
/// and the root's are the identity, so a layer's quad matrix is its own `local`. A 100 x 100
/// square at frame (50, 50) turned by θ about y (about its centre (100, 100)) maps its point
/// (x, y) to X = (x − 50)·cos θ + 100, Y = y + 50, Z = −(x − 50)·sin θ, without perspective.
final class DepthSortingTests: XCTestCase {
    private let c30 = 3.0.squareRoot() / 2

    private func root(_ sublayers: [CALayer]) -> CALayer { container(CGRect(x: 0, y: 0, width: 200, height: 200), sublayers) }

    private func transformLayer(_ sublayers: [CALayer]) -> CALayer {
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        for s in sublayers { t.addSublayer(s) }
        return root([t])
    }

    private func turned(_ name: String, _ degrees: Double, frame: CGRect = CGRect(x: 50, y: 50, width: 100, height: 100)) -> CALayer {
        let l = solid(name, frame)
        l.transform = rotationY(degrees)
        return l
    }

    /// Flat siblings sort by zPosition, sublayer order breaking ties, whether or not they
    /// overlap: g (z 1), r (z 0), b (z 1), side by side, draw r, g, b.
    func testFlatPlanesSortByZPositionStably() {
        let g = solid("g", CGRect(x: 0, y: 0, width: 10, height: 10)), r = solid("r", CGRect(x: 20, y: 0, width: 10, height: 10))
        let b = solid("b", CGRect(x: 40, y: 0, width: 10, height: 10))
        g.zPosition = 1
        b.zPosition = 1
        XCTAssertEqual(compose(root([g, r, b])).canvasLabels, ["r", "g", "b"])
    }

    /// A plain layer is a sorting context of its own: its sublayer's zPosition of 100 orders it
    /// among its siblings only, not above the parent's sibling. A transform layer is not: its
    /// sublayer at 100 sorts above the sibling at 10 that comes after the transform layer.
    func testZPositionSortsWithinItsContext() {
        let inner = solid("inner", CGRect(x: 0, y: 0, width: 10, height: 10))
        inner.zPosition = 100
        let plain = solid("plain", CGRect(x: 0, y: 0, width: 10, height: 10))
        plain.addSublayer(inner)
        let after = solid("after", CGRect(x: 0, y: 0, width: 10, height: 10))
        after.zPosition = 10
        XCTAssertEqual(compose(root([plain, after])).canvasLabels, ["plain", "inner", "after"])

        let inner3D = solid("inner", CGRect(x: 0, y: 0, width: 10, height: 10))
        inner3D.zPosition = 100
        let t = CATransformLayer()
        t.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        t.addSublayer(inner3D)
        let after3D = solid("after", CGRect(x: 0, y: 0, width: 10, height: 10))
        after3D.zPosition = 10
        XCTAssertEqual(compose(root([t, after3D])).canvasLabels, ["after", "inner"])
    }

    /// a (+30°) and b (−30°) cross along X = 100 (their local x = 50). a is the splitter (the
    /// first plane, neither faces the eye squarely); b is cut in two: its half x ≤ 50 lies at
    /// Z = (x − 50)/2 < 0, behind a, and is drawn first, then a, then b's half x ≥ 50.
    ///
    /// a's plane, by Newell's method over its corners (56.70, 50, 25), (143.30, 50, −25), …: the
    /// unit normal (sin 30°, 0, cos 30°) = (½, 0, √3/2), d = −n·(100, 100, 0) = −50. In b's own
    /// coordinates, n·(X, Y, Z) + d = ½((x − 50)·√3/2 + 100) + (√3/2)(x − 50)/2 − 50
    /// = (√3/2)·x − 25√3: b's front piece keeps (√3/2, 0, −25√3) ≥ 0, its back piece the negation.
    func testIntersectingPlanesAreSplitAlongTheirIntersection() {
        let list = compose(transformLayer([turned("a", 30), turned("b", -30)]))
        XCTAssertEqual(list.passes.count, 1)
        XCTAssertEqual(list.canvasLabels, ["b", "a", "b"])
        let q = list.canvas.quads
        guard q.count == 3 else { return }
        assertEqual(halfPlanes(q[0]).first ?? [], [-c30, 0, 25 * 3.0.squareRoot()], accuracy: 1e-9, "b's back piece: x ≤ 50")
        XCTAssertEqual(halfPlanes(q[1]).count, 0, "a is whole")
        assertEqual(halfPlanes(q[2]).first ?? [], [c30, 0, -25 * 3.0.squareRoot()], accuracy: 1e-9, "b's front piece: x ≥ 50")
        XCTAssertEqual(q[0].clips.count, 1)
        XCTAssertEqual(q[2].clips.count, 1)
        // The half-planes are evaluated in b's plane: their map is the inverse of b's quad matrix,
        // which both pieces keep whole. b = T(−50, −50) · R(−30°) · T(100, 100): cos 30° on the
        // diagonal, m13 = sin 30°, m31 = −sin 30°, and the translation row (100 − 50·cos 30°, 50, −25).
        for piece in [q[0], q[2]] {
            assertTransform(piece, matrix([c30, 0, 0.5, 0], [0, 1, 0, 0], [-0.5, 0, c30, 0], [100 - 50 * c30, 50, -25, 1]))
            XCTAssertEqual(piece.clips[0].map, piece.inverse)
            XCTAssertEqual(piece.rect, CGRect(x: 0, y: 0, width: 100, height: 100))
        }
        assertTransform(q[1], matrix([c30, 0, -0.5, 0], [0, 1, 0, 0], [0.5, 0, c30, 0], [100 - 50 * c30, 50, 25, 1]))
    }

    /// A piece keeps the clips of its context and adds its half-plane after them: under a root
    /// that masks to its bounds (200 x 200 at the origin: its clip maps pixels through the
    /// identity), both of b's pieces carry the root's clip, then their half-plane; a only the
    /// root's.
    func testSplitPiecesKeepTheirContextsClips() {
        let list = compose(transformLayer([turned("a", 30), turned("b", -30)]).with { $0.masksToBounds = true })
        XCTAssertEqual(list.canvasLabels, ["b", "a", "b"])
        let rootClip = Clip(map: PlaneMap(1, 0, 0, 0, 1, 0, 0, 0, 1),
                            shape: .roundedRect(CGRect(x: 0, y: 0, width: 200, height: 200), corners: .square, antialiased: false))
        XCTAssertEqual(list.canvas.quads.map { $0.clips.first }, [rootClip, rootClip, rootClip])
        XCTAssertEqual(list.canvas.quads.map(\.clips.count), [2, 1, 2])
        XCTAssertEqual(list.canvas.quads.map { halfPlanes($0).count }, [1, 0, 1])
    }

    /// The split itself (`DepthSorter.split`): b's corners lie at signed distances −50·cos 30°,
    /// +, +, − from a's plane, so each crossing edge is cut halfway, at (100, 50, 0) and
    /// (100, 150, 0), and each piece is a quadrilateral.
    func testSplitPiecesHaveTheIntersectionAsAnEdge() throws {
        let (a, b) = (turned("a", 30), turned("b", -30))
        let pa = try XCTUnwrap(DepthSorter.Polygon(plane: 0, rect: a.bounds, matrix: a.properties.localTransform))
        let pb = try XCTUnwrap(DepthSorter.Polygon(plane: 1, rect: b.bounds, matrix: b.properties.localTransform))
        assertEqual([pa.normal.x, pa.normal.y, pa.normal.z, pa.d], [0.5, 0, c30, -50], "a's plane")
        let ds = pb.points.map { pa.distance($0) }
        assertEqual(ds, [-50 * c30, 50 * c30, 50 * c30, -50 * c30], "b's corners against a's plane")
        let (front, back) = DepthSorter.split(pb, ds)
        let (left, right) = (100 - 50 * c30, 100 + 50 * c30)
        assertEqual(front.flatMap { [$0.x, $0.y, $0.z] }, [100, 50, 0, right, 50, 25, right, 150, 25, 100, 150, 0], "front piece")
        assertEqual(back.flatMap { [$0.x, $0.y, $0.z] }, [left, 50, -25, 100, 50, 0, 100, 150, 0, left, 150, -25], "back piece")
    }

    /// The splitter is the first plane that faces the eye squarely, not the first plane: flat p
    /// (after tilted t in sublayer order) splits t, whose half x ≥ 50 lies behind z = 0. Against
    /// p's plane (normal (0, 0, 1), d = 0) t's half-planes are ±Z in t's coordinates:
    /// Z = x·m13 + m43 = −x/2 + 25, so the back piece keeps x/2 − 25 ≥ 0. (Were t the
    /// splitter, p would be the one cut in two.)
    func testTheSplitterIsThePlaneFacingTheEye() {
        let list = compose(transformLayer([turned("t", 30), solid("p", CGRect(x: 50, y: 50, width: 100, height: 100))]))
        XCTAssertEqual(list.canvasLabels, ["t", "p", "t"])
        guard list.canvas.quads.count == 3 else { return }
        assertEqual(halfPlanes(list.canvas.quads[0]).first ?? [], [0.5, 0, -25], "t behind p")
        assertEqual(halfPlanes(list.canvas.quads[2]).first ?? [], [-0.5, 0, 25], "t before p")
    }

    /// What is in front of the splitter is drawn after it, whichever way the planes coplanar with
    /// it face: p (flat, facing the eye) splits; f, 10 points nearer the eye, is on its front side
    /// and k, 10 points further, behind it; m, turned 180.001° about y, lies within 100·sin 0.001°
    /// ≈ 0.0017 of p's plane (coplanar, drawn in sublayer order with p) but faces away (normal z
    /// = cos 180.001° < 0) and, not squarely (|z| < 1 − 10⁻¹²), is not the splitter though it comes
    /// first. Back to front: k, m, p, f.
    func testTheSplittersFrontIsDrawnLastWhateverItsCoplanarPlanesFace() {
        let (square, near, far) = squareBetweenNearAndFar()
        let m = solid("m", CGRect(x: 50, y: 50, width: 100, height: 100))
        m.transform = rotationY(180.001)
        XCTAssertEqual(compose(transformLayer([m, square, near, far])).canvasLabels, ["k", "m", "p", "f"])
    }

    /// p, the centred 100 x 100 square; f, smaller, 10 points nearer the eye; k, larger, 10
    /// points further: all flat and overlapping on screen.
    private func squareBetweenNearAndFar() -> (p: CALayer, f: CALayer, k: CALayer) {
        let f = solid("f", CGRect(x: 60, y: 60, width: 80, height: 80)), k = solid("k", CGRect(x: 40, y: 40, width: 120, height: 120))
        f.zPosition = 10
        k.zPosition = -10
        return (solid("p", CGRect(x: 50, y: 50, width: 100, height: 100)), f, k)
    }

    /// The same with a splitter facing away: p turned 180° about y faces −z squarely (the first
    /// such plane, so the splitter), its front side the one away from the eye, where k lies; f
    /// is behind p's back, nearer the eye. Back to front: k, p, f.
    func testASplitterFacingAwayDrawsItsFrontSideFirst() {
        let (p, f, k) = squareBetweenNearAndFar()
        p.transform = rotationY(180)
        XCTAssertEqual(compose(transformLayer([p, f, k])).canvasLabels, ["k", "p", "f"])
    }

    /// Coplanar planes keep sublayer order. Here q is the left half of s in s's plane (pivot at
    /// X = 100 like s: anchor (1, ½) at position (100, 100)), so q lies nearer the eye on average
    /// (Z from 0 to 25) and a sort by depth would draw it last.
    func testCoplanarPlanesKeepSublayerOrder() {
        func q() -> CALayer {
            let l = turned("q", 30, frame: CGRect(x: 0, y: 0, width: 50, height: 100))
            l.anchorPoint = CGPoint(x: 1, y: 0.5)
            l.position = CGPoint(x: 100, y: 100)
            return l
        }
        XCTAssertEqual(compose(transformLayer([q(), turned("s", 30)])).canvasLabels, ["q", "s"])
        XCTAssertEqual(compose(transformLayer([turned("s", 30), q()])).canvasLabels, ["s", "q"])
    }

    /// Two parallel tilted planes, the second 100 points further back (zPosition −100): where
    /// they overlap on screen the far one is drawn first, whatever the sublayer order; apart on
    /// screen (x centres 50 and 150: the tilted squares span 50 ± 43.3 and 150 ± 43.3) they
    /// cannot hide each other and keep sublayer order, although the far one is still behind the
    /// near one's plane (signed distance ½·100 − (√3/2)·100 < 0).
    func testOnlyPlanesOverlappingOnScreenAreOrderedByDepth() {
        func pair(apart: Bool) -> CALayer {
            let near = turned("near", 30, frame: CGRect(x: 0, y: 50, width: 100, height: 100))
            let far = turned("far", 30, frame: CGRect(x: apart ? 100 : 0, y: 50, width: 100, height: 100))
            far.zPosition = -100
            return transformLayer([near, far])
        }
        XCTAssertEqual(compose(pair(apart: false)).canvasLabels, ["far", "near"])
        XCTAssertEqual(compose(pair(apart: true)).canvasLabels, ["near", "far"])
    }

    /// Under perspective (eye at z = 200 above the root's centre) a tilted plane at zPosition
    /// 300 lies wholly behind the eye (w = 1 − 300/200 < 0 at every corner, the tilt moving z by
    /// at most 50·sin 10° < 9): it is clipped away before sorting and draws nothing, while its
    /// tilted sibling at z = 0 is drawn.
    func testPlanesBehindTheEyeAreNotDrawn() {
        let front = turned("front", 10), behind = turned("behind", -10)
        behind.zPosition = 300
        let r = root([front, behind])
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 200
        r.sublayerTransform = p
        XCTAssertEqual(compose(r).canvasLabels, ["front"])
        behind.zPosition = 100
        XCTAssertEqual(Set(compose(r).canvasLabels), ["front", "behind"], "in front of the eye it is drawn")
    }

    /// The near clip (`clipToFront`, w ≥ 10⁻⁵), on a strip 200 x 10 whose w = 1 − x/100 runs from 1
    /// to −1 (z = x): each edge crossing w = 10⁻⁵ is cut where w reaches it, at x = 100·(1 − 10⁻⁵)
    /// = 99.999, keeping the corners in front in their order. Divided by w the kept polygon
    /// reaches x = 99.999 / 10⁻⁵ = 9,999,900 and y = 10 / 10⁻⁵ = 10⁶: far, but in front of the eye,
    /// never mirrored.
    func testTheNearClipCutsWhereWReachesItsLimit() throws {
        var m = CATransform3DIdentity
        m.m13 = 1
        m.m14 = -0.01
        let corners = [(0.0, 0.0), (200, 0), (200, 10), (0, 10)].map { c -> SIMD4<Double> in
            let h = m.apply(x: CGFloat(c.0), y: CGFloat(c.1), z: 0)
            return SIMD4(Double(h.x), Double(h.y), Double(h.z), Double(h.w))
        }
        assertEqual(corners.map(\.w), [1, -1, -1, 1])
        let kept = clipToFront(corners)
        assertEqual(kept.flatMap { [$0.x, $0.y, $0.z, $0.w] },
                    [0, 0, 0, 1, 99.999, 0, 99.999, 1e-5, 99.999, 10, 99.999, 1e-5, 0, 10, 0, 1], accuracy: 1e-9)
        let polygon = try XCTUnwrap(DepthSorter.Polygon(plane: 0, rect: CGRect(x: 0, y: 0, width: 200, height: 10), matrix: m))
        assertEqual(polygon.points.flatMap { [$0.x, $0.y, $0.z] },
                    [0, 0, 0, 9_999_900, 0, 9_999_900, 9_999_900, 1e6, 9_999_900, 0, 10, 0], accuracy: 1e-3)
        // Wholly behind: nothing is left to sort.
        m.m44 = -2
        XCTAssertNil(DepthSorter.Polygon(plane: 0, rect: CGRect(x: 0, y: 0, width: 200, height: 10), matrix: m))
    }
    /// Past its split budget a context is ordered by the depth of each plane's centre alone,
    /// back (most negative z) to front, sublayer order breaking ties: unit squares at z 5, −3,
    /// 5 and 0 draw as planes 1, 3, 0, 2.
    func testPastTheSplitBudgetPlanesAreOrderedByTheirCentresDepth() {
        let polys = [5.0, -3, 5, 0].enumerated().map { i, z in
            DepthSorter.Polygon(plane: i, rect: CGRect(x: 0, y: 0, width: 1, height: 1), matrix: CATransform3DMakeTranslation(0, 0, z))!
        }
        XCTAssertEqual(DepthSorter.order(polys, budget: 0).map(\.plane), [1, 3, 0, 2])
    }
}
