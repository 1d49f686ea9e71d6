import Foundation
import XCTest
@testable import LayerKitCore

/// `hitTest(_:)` as Core Animation defines it (research/ca-semantics.md §6, scene-format
/// "Probes"): the point is in the superlayer's space; sublayers are searched in reverse
/// sublayer order (not zPosition); hidden layers are skipped with their subtrees; opacity 0 is
/// still hit; `masksToBounds` clips the sublayers' hit area; a `CATransformLayer` passes the
/// test to its sublayers and is never returned; points travel through the same matrices as
/// rendering (a homography under perspective); back faces are hit; behind the eye nothing is.
final class CALayerHitTestingTests: XCTestCase {
    private let half = (0.5).squareRoot() // sin and cos of 45°

    private func layer(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, in parent: CALayer? = nil,
                       name: String? = nil) -> CALayer {
        let l = CALayer()
        l.name = name
        l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        l.position = CGPoint(x: x + w / 2, y: y + h / 2)
        parent?.addSublayer(l)
        return l
    }

    private func transformLayer(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, in parent: CALayer, name: String) -> CATransformLayer {
        let l = CATransformLayer()
        l.name = name
        l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        l.position = CGPoint(x: x + w / 2, y: y + h / 2)
        parent.addSublayer(l)
        return l
    }

    /// A root whose bounds space is the space it is hit-tested in.
    private func root(_ size: CGFloat = 400) -> CALayer { layer(0, 0, size, size, name: "root") }

    private func assertHit(_ hit: CALayer?, _ expected: CALayer?, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(hit === expected, "hit \(hit?.debugName ?? "nothing"), expected \(expected?.debugName ?? "nothing")",
                      file: file, line: line)
    }

    private func perspectiveRotationY(_ angle: CGFloat, d: CGFloat) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1 / d
        return CATransform3DRotate(t, angle, 0, 1, 0)
    }

    // MARK: Order

    func testReverseSublayerOrderNotZPosition() {
        let r = root()
        let a = layer(0, 0, 100, 100, in: r, name: "a"), b = layer(50, 50, 100, 100, in: r, name: "b")
        assertHit(r.hitTest(CGPoint(x: 75, y: 75)), b)
        assertHit(r.hitTest(CGPoint(x: 25, y: 25)), a)
        assertHit(r.hitTest(CGPoint(x: 125, y: 125)), b)
        a.zPosition = 10
        assertHit(r.hitTest(CGPoint(x: 75, y: 75)), b)
        b.zPosition = -10
        assertHit(r.hitTest(CGPoint(x: 75, y: 75)), b)
    }

    func testSelfWhenNoSublayerContainsThePointAndNilOutside() {
        let r = root()
        _ = layer(0, 0, 100, 100, in: r, name: "a")
        assertHit(r.hitTest(CGPoint(x: 300, y: 300)), r)
        assertHit(r.hitTest(CGPoint(x: 450, y: 10)), nil)
        assertHit(r.hitTest(CGPoint(x: 400, y: 10)), nil)
        assertHit(r.hitTest(CGPoint(x: 0, y: 0)), r.sublayers![0])
    }

    func testDeepestLayerWins() {
        let r = root()
        let a = layer(0, 0, 200, 200, in: r, name: "a")
        let a1 = layer(10, 10, 100, 100, in: a, name: "a1")
        let a11 = layer(10, 10, 20, 20, in: a1, name: "a11")
        assertHit(r.hitTest(CGPoint(x: 25, y: 25)), a11)
        assertHit(r.hitTest(CGPoint(x: 15, y: 15)), a1)
        assertHit(r.hitTest(CGPoint(x: 150, y: 150)), a)
    }

    func testPointIsInTheSuperlayersSpace() {
        let r = CALayer()
        r.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        r.position = CGPoint(x: 100, y: 100)
        assertHit(r.hitTest(CGPoint(x: 10, y: 10)), nil)
        assertHit(r.hitTest(CGPoint(x: 60, y: 60)), r)
        assertHit(r.hitTest(CGPoint(x: 149, y: 149)), r)
        assertHit(r.hitTest(CGPoint(x: 150, y: 150)), nil)
    }

    func testBoundsOriginShiftsSublayers() {
        let r = root()
        let p = CALayer()
        p.name = "p"
        p.bounds = CGRect(x: 50, y: 50, width: 100, height: 100)
        p.position = CGPoint(x: 50, y: 50)
        r.addSublayer(p)
        let c = layer(50, 50, 10, 10, in: p, name: "c")
        // c sits at p's top-left corner, which is at r's (0, 0).
        assertHit(r.hitTest(CGPoint(x: 5, y: 5)), c)
        assertHit(r.hitTest(CGPoint(x: 15, y: 15)), p)
    }

    // MARK: Visibility

    func testHiddenLayersAreSkippedWithTheirSubtree() {
        let r = root()
        let a = layer(0, 0, 100, 100, in: r, name: "a"), b = layer(50, 50, 100, 100, in: r, name: "b")
        b.isHidden = true
        assertHit(r.hitTest(CGPoint(x: 75, y: 75)), a)
        assertHit(r.hitTest(CGPoint(x: 125, y: 125)), r)

        let p = layer(200, 200, 100, 100, in: r, name: "p")
        let child = layer(10, 10, 20, 20, in: p, name: "child")
        assertHit(r.hitTest(CGPoint(x: 215, y: 215)), child)
        p.isHidden = true
        assertHit(r.hitTest(CGPoint(x: 215, y: 215)), r)
        assertHit(r.hitTest(CGPoint(x: 250, y: 250)), r)

        r.isHidden = true
        assertHit(r.hitTest(CGPoint(x: 10, y: 10)), nil)
    }

    func testOpacityZeroIsStillHit() {
        let r = root()
        _ = layer(0, 0, 100, 100, in: r, name: "a")
        let b = layer(50, 50, 100, 100, in: r, name: "b")
        b.opacity = 0
        assertHit(r.hitTest(CGPoint(x: 75, y: 75)), b)
    }

    func testZeroSizedLayerIsNotHit() {
        let r = root()
        _ = layer(10, 10, 0, 0, in: r, name: "empty")
        assertHit(r.hitTest(CGPoint(x: 10, y: 10)), r)
    }

    func testMaskIsNotHitTested() {
        let r = root()
        r.mask = layer(0, 0, 1000, 1000, name: "mask")
        assertHit(r.hitTest(CGPoint(x: 450, y: 10)), nil)
        assertHit(r.hitTest(CGPoint(x: 10, y: 10)), r)
    }

    // MARK: masksToBounds

    func testSublayersOutsideTheParentAreHitWithoutMasksToBounds() {
        let r = root()
        let p = layer(0, 0, 100, 100, in: r, name: "p")
        let outside = layer(150, 150, 50, 50, in: p, name: "outside")
        assertHit(r.hitTest(CGPoint(x: 160, y: 160)), outside)
    }

    func testMasksToBoundsClipsSublayers() {
        let r = root()
        let p = layer(0, 0, 100, 100, in: r, name: "p")
        p.masksToBounds = true
        _ = layer(150, 150, 50, 50, in: p, name: "outside")
        let straddling = layer(80, 80, 50, 50, in: p, name: "straddling")
        assertHit(r.hitTest(CGPoint(x: 160, y: 160)), r)
        assertHit(r.hitTest(CGPoint(x: 90, y: 90)), straddling)
        assertHit(r.hitTest(CGPoint(x: 110, y: 110)), r)
        assertHit(r.hitTest(CGPoint(x: 100, y: 50)), r) // the maximum edge is outside
        // cornerRadius does not round the hit area.
        p.cornerRadius = 50
        assertHit(r.hitTest(CGPoint(x: 1, y: 1)), p)
    }

    /// Core Animation's hit area is the rectangular bounds (`contains(_:)`; research/ca-semantics.md,
    /// "Ambiguities", 4): `cornerRadius` does not round it, so neither `maskedCorners` nor `cornerCurve`
    /// changes it. In every corner, rounded (in the mask) or square, continuous or circular, a
    /// point in the part a rounded corner cuts away still hits the layer, and with
    /// `masksToBounds` a sublayer there is still hit, as in Core Animation.
    func testMaskedCornersAndCornerCurveDoNotChangeTheHitArea() {
        let corners: [(CACornerMask, CGPoint)] = [(.layerMinXMinYCorner, CGPoint(x: 1, y: 1)), (.layerMaxXMinYCorner, CGPoint(x: 99, y: 1)),
                                                  (.layerMinXMaxYCorner, CGPoint(x: 1, y: 99)), (.layerMaxXMaxYCorner, CGPoint(x: 99, y: 99))]
        for curve in CALayerCornerCurve.allCases {
            for (mask, _) in corners {
                let r = root()
                let p = layer(0, 0, 100, 100, in: r, name: "p")
                p.cornerRadius = 40
                p.cornerCurve = curve
                p.maskedCorners = mask
                // (1, 1) is √(39² + 39²) = 55 pt from a rounded corner's arc centre, (40, 40).
                for (_, point) in corners {
                    assertHit(r.hitTest(point), p)
                }
                p.masksToBounds = true
                let c = layer(0, 0, 100, 100, in: p, name: "c")
                for (_, point) in corners {
                    assertHit(r.hitTest(point), c)
                }
                assertHit(r.hitTest(CGPoint(x: 101, y: 50)), r)
            }
        }
    }

    // MARK: sublayerTransform

    func testSublayerTransformMovesTheSublayersHitArea() {
        let r = root()
        let p = layer(0, 0, 200, 200, in: r, name: "p")
        p.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let c = layer(110, 110, 10, 10, in: p, name: "c")
        // About p's anchor (100, 100): c covers 120…140.
        assertHit(r.hitTest(CGPoint(x: 130, y: 130)), c)
        assertHit(r.hitTest(CGPoint(x: 139, y: 121)), c)
        assertHit(r.hitTest(CGPoint(x: 112, y: 112)), p)
        assertHit(r.hitTest(CGPoint(x: 141, y: 130)), p)
    }

    func testZPositionUnderAPerspectiveSublayerTransformEnlargesTheHitArea() {
        let r = root()
        let p = layer(0, 0, 200, 200, in: r, name: "p")
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        p.sublayerTransform = perspective
        let c = layer(50, 50, 100, 100, in: p, name: "c")
        assertHit(r.hitTest(CGPoint(x: 40, y: 40)), p)
        // 100 towards the eye at 500: w = 0.8, so c spans 100 ± 50/0.8 = 37.5…162.5.
        c.zPosition = 100
        assertHit(r.hitTest(CGPoint(x: 40, y: 40)), c)
        assertHit(r.hitTest(CGPoint(x: 162, y: 100)), c)
        assertHit(r.hitTest(CGPoint(x: 163, y: 100)), p)
        assertHit(r.hitTest(CGPoint(x: 37, y: 100)), p)
    }

    // MARK: Transform layers

    func testTransformLayerPassesThroughAndIsNeverReturned() {
        let r = root()
        let t = transformLayer(0, 0, 100, 100, in: r, name: "t")
        let c = layer(10, 10, 20, 20, in: t, name: "c")
        assertHit(r.hitTest(CGPoint(x: 15, y: 15)), c)
        assertHit(r.hitTest(CGPoint(x: 50, y: 50)), r)
        assertHit(t.hitTest(CGPoint(x: 50, y: 50)), nil)
        assertHit(t.hitTest(CGPoint(x: 15, y: 15)), c)
    }

    func testTransformLayerIgnoresMasksToBounds() {
        let r = root()
        let t = transformLayer(0, 0, 100, 100, in: r, name: "t")
        t.masksToBounds = true
        let far = layer(150, 150, 10, 10, in: t, name: "far")
        assertHit(r.hitTest(CGPoint(x: 155, y: 155)), far)
    }

    func testHiddenTransformLayerHidesItsSublayers() {
        let r = root()
        let t = transformLayer(0, 0, 100, 100, in: r, name: "t")
        _ = layer(10, 10, 20, 20, in: t, name: "c")
        t.isHidden = true
        assertHit(r.hitTest(CGPoint(x: 15, y: 15)), r)
    }

    func testTransformLayerComposesIn3DWhereAPlainLayerFlattens() {
        // Parent turned +45° about y, child turned −45° about y, no perspective.
        func build(_ makeParent: (CALayer) -> CALayer) -> (CALayer, CALayer, CALayer) {
            let r = root(300)
            let p = makeParent(r)
            p.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            p.position = CGPoint(x: 150, y: 150)
            p.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
            let c = layer(0, 0, 200, 200, in: p, name: "c")
            c.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
            return (r, p, c)
        }
        // In a transform layer the rotations cancel: c is 200 wide, x 50…250.
        let (r1, t, c1) = build { r in self.transformLayer(0, 0, 1, 1, in: r, name: "t") }
        assertHit(r1.hitTest(CGPoint(x: 245, y: 150)), c1)
        assertHit(r1.hitTest(CGPoint(x: 205, y: 150)), c1)
        assertHit(r1.hitTest(CGPoint(x: 55, y: 150)), c1)
        XCTAssertTrue(t is CATransformLayer)

        // A plain parent flattens c into its plane: c is squeezed twice, 200·cos²45° = 100 wide
        // (x 100…200), inside p's 200·cos45° ≈ 141.4 (x 79.3…220.7).
        let (r2, p, c2) = build { r in self.layer(0, 0, 1, 1, in: r, name: "p") }
        assertHit(r2.hitTest(CGPoint(x: 190, y: 150)), c2)
        assertHit(r2.hitTest(CGPoint(x: 205, y: 150)), p)
        assertHit(r2.hitTest(CGPoint(x: 245, y: 150)), r2)
    }

    // MARK: 3D

    func testPerspectiveLayerIsHitThroughTheHomography() {
        let r = root()
        let c = layer(100, 100, 200, 200, in: r, name: "c")
        c.transform = perspectiveRotationY(.pi / 4, d: 500)
        // Screen offset X' from the anchor comes from u: X' = u·c / (1 + u·s/500), so
        // u = X' / (c − X'·s/500); Y' = v / w. The right edge (u = 100) is at x ≈ 261.95, the
        // left (u = −100) at ≈ 117.64.
        assertHit(r.hitTest(CGPoint(x: 258, y: 200)), c)
        assertHit(r.hitTest(CGPoint(x: 265, y: 200)), r)
        assertHit(r.hitTest(CGPoint(x: 120, y: 200)), c)
        assertHit(r.hitTest(CGPoint(x: 115, y: 200)), r)
        // Near the top right corner the far edge is shorter: at x = 255 it is at y ≈ 111.
        assertHit(r.hitTest(CGPoint(x: 255, y: 112)), c)
        assertHit(r.hitTest(CGPoint(x: 255, y: 110)), r)
        // The same point converted: the exact preimage.
        let xPrime: CGFloat = 55, yPrime: CGFloat = -88
        let u = xPrime / (half - xPrime * half / 500)
        let v = yPrime * (1 + u * half / 500)
        let local = c.convert(CGPoint(x: 255, y: 112), from: r)
        XCTAssertEqual(local.x, 100 + u, accuracy: 1e-6)
        XCTAssertEqual(local.y, 100 + v, accuracy: 1e-6)
        XCTAssertEqual(local.y, 1.1235955056, accuracy: 1e-6)
    }

    func testPointBehindTheEyeHitsNothing() {
        let r = root()
        // 600 wide, turned 60° about y with the eye at 100: the part with u < −100/sin60° is
        // behind the eye. Its preimage of X' = u·c/w with u = −200 is X' ≈ 136.60, with w < 0.
        let c = layer(-100, 150, 600, 100, in: r, name: "c")
        c.transform = perspectiveRotationY(.pi / 3, d: 100)
        let s = (3.0).squareRoot() / 2
        let w = 1 - 200 * s / 100
        XCTAssertLessThan(w, 0)
        let xPrime = -200 * 0.5 / w
        assertHit(r.hitTest(CGPoint(x: 200 + xPrime, y: 200)), r)
        assertHit(c.hitTest(CGPoint(x: 200 + xPrime, y: 200)), nil)
        // The visible part is hit: X' = 30 comes from u = 30 / (c − 30·s/100) ≈ 124.9, w > 0.
        assertHit(r.hitTest(CGPoint(x: 230, y: 200)), c)
        assertHit(r.hitTest(CGPoint(x: 200, y: 200)), c)
    }

    func testBackFacesAreHit() {
        let r = root()
        let c = layer(100, 100, 100, 100, in: r, name: "c")
        c.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        c.isDoubleSided = false
        assertHit(r.hitTest(CGPoint(x: 120, y: 150)), c)
        // Seen from behind, left and right swap.
        let local = c.convert(CGPoint(x: 120, y: 150), from: r)
        XCTAssertEqual(local.x, 80, accuracy: 1e-6)
        XCTAssertEqual(local.y, 50, accuracy: 1e-6)
    }

    // MARK: Involutions and near-singular transforms

    /// Asserts that `point` (root space) hits `expected` and converts to `local` in `layer`'s
    /// bounds space, and back.
    private func assertThrough(_ r: CALayer, _ point: CGPoint, hits expected: CALayer, in layer: CALayer, at local: CGPoint,
                               accuracy: CGFloat = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        assertHit(r.hitTest(point), expected, file: file, line: line)
        let c = layer.convert(point, from: r)
        XCTAssertEqual(c.x, local.x, accuracy: accuracy, "x of \(point) in \(layer.debugName)", file: file, line: line)
        XCTAssertEqual(c.y, local.y, accuracy: accuracy, "y of \(point) in \(layer.debugName)", file: file, line: line)
        let back = r.convert(local, from: layer)
        XCTAssertEqual(back.x, point.x, accuracy: accuracy * 1e3, file: file, line: line)
        XCTAssertEqual(back.y, point.y, accuracy: accuracy * 1e3, file: file, line: line)
    }

    /// scale(−1, −1, 1) is its own inverse, which the singularity test used to take for "no
    /// inverse". 100x50 at (100, 100): anchor (50, 25) at position (150, 125), so local u lands
    /// at (200 − u.x, 150 − u.y) and the half-open edges flip: screen x = 200 is local x = 0.
    func testPointReflectionIsHitAndConverts() {
        let r = root()
        let c = layer(100, 100, 100, 50, in: r, name: "c")
        let d = layer(0, 0, 20, 10, in: c, name: "d")
        c.transform = CATransform3DMakeScale(-1, -1, 1)
        assertThrough(r, CGPoint(x: 110, y: 140), hits: c, in: c, at: CGPoint(x: 90, y: 10))
        assertThrough(r, CGPoint(x: 190, y: 145), hits: d, in: d, at: CGPoint(x: 10, y: 5))
        assertThrough(r, CGPoint(x: 200, y: 120), hits: c, in: c, at: CGPoint(x: 0, y: 30))
        assertThrough(r, CGPoint(x: 100, y: 120), hits: r, in: c, at: CGPoint(x: 100, y: 30))
        assertHit(c.hitTest(CGPoint(x: 110, y: 140)), c)
    }

    /// A mirror with a translation is an involution too: x ↦ 30 − x about the anchor puts local
    /// u.x at 230 − u.x; a y mirror with a shift of 10 puts u.y at 160 − u.y.
    func testMirrorAndTranslationPairsAreHitAndConvert() {
        let r = root()
        let c = layer(100, 100, 100, 50, in: r, name: "c")
        c.setAffineTransform(CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 30, ty: 0))
        assertThrough(r, CGPoint(x: 225, y: 110), hits: c, in: c, at: CGPoint(x: 5, y: 10))
        assertThrough(r, CGPoint(x: 135, y: 110), hits: c, in: c, at: CGPoint(x: 95, y: 10))
        assertThrough(r, CGPoint(x: 130, y: 110), hits: r, in: c, at: CGPoint(x: 100, y: 10))
        c.setAffineTransform(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 10))
        // y: −(u.y − 25) + 10 + 125 = 160 − u.y; x: u.x + 100.
        assertThrough(r, CGPoint(x: 105, y: 155), hits: c, in: c, at: CGPoint(x: 5, y: 5))
        assertThrough(r, CGPoint(x: 105, y: 110), hits: r, in: c, at: CGPoint(x: 5, y: 50))
    }

    /// Half turns about x, y and z without perspective: (u.x + 100, 150 − u.y),
    /// (200 − u.x, u.y + 100) and (200 − u.x, 150 − u.y) for the 100x50 layer at (100, 100).
    func testHalfTurnsAboutEachAxisAreHitAndConvert() {
        let cases: [(CATransform3D, (CGPoint) -> CGPoint)] = [
            (CATransform3DMakeRotation(.pi, 1, 0, 0), { CGPoint(x: $0.x + 100, y: 150 - $0.y) }),
            (CATransform3DMakeRotation(.pi, 0, 1, 0), { CGPoint(x: 200 - $0.x, y: $0.y + 100) }),
            (CATransform3DMakeRotation(.pi, 0, 0, 1), { CGPoint(x: 200 - $0.x, y: 150 - $0.y) }),
        ]
        for (t, toScreen) in cases {
            let r = root()
            let c = layer(100, 100, 100, 50, in: r, name: "c")
            c.transform = t
            for local in [CGPoint(x: 5, y: 5), CGPoint(x: 95, y: 45), CGPoint(x: 0, y: 0)] {
                assertThrough(r, toScreen(local), hits: c, in: c, at: local)
            }
            // Just past the maximum edge (sin π, 1.2e-16, rounds the edge itself either way).
            assertThrough(r, toScreen(CGPoint(x: 100.001, y: 20)), hits: r, in: c, at: CGPoint(x: 100.001, y: 20))
        }
    }

    /// Half turns under a perspective sublayerTransform (eye at 500 about the container's
    /// anchor (200, 200)), the layer at zPosition 100: w = 1 − 100/500 = 0.8, so offsets from
    /// the anchor grow by 1.25. The 100x100 layer centred at (200, 200) turned π about y puts
    /// local u at (200 + 1.25·(50 − u.x), 200 + 1.25·(u.y − 50)); about x at
    /// (200 + 1.25·(u.x − 50), 200 + 1.25·(50 − u.y)); about z both flip.
    func testHalfTurnsUnderPerspectiveAreHitAndConvert() {
        let cases: [(CATransform3D, (CGPoint) -> CGPoint)] = [
            (CATransform3DMakeRotation(.pi, 0, 1, 0), { CGPoint(x: 200 + 1.25 * (50 - $0.x), y: 200 + 1.25 * ($0.y - 50)) }),
            (CATransform3DMakeRotation(.pi, 1, 0, 0), { CGPoint(x: 200 + 1.25 * ($0.x - 50), y: 200 + 1.25 * (50 - $0.y)) }),
            (CATransform3DMakeRotation(.pi, 0, 0, 1), { CGPoint(x: 200 + 1.25 * (50 - $0.x), y: 200 + 1.25 * (50 - $0.y)) }),
        ]
        for (t, toScreen) in cases {
            let r = root()
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 500
            r.sublayerTransform = perspective
            let c = layer(150, 150, 100, 100, in: r, name: "c")
            c.transform = t
            c.zPosition = 100
            for local in [CGPoint(x: 10, y: 90), CGPoint(x: 0.4, y: 50), CGPoint(x: 60, y: 3)] {
                assertThrough(r, toScreen(local), hits: c, in: c, at: local)
            }
            assertHit(r.hitTest(toScreen(CGPoint(x: -0.4, y: 50))), r)
            assertHit(r.hitTest(toScreen(CGPoint(x: 50, y: 100.4))), r)
        }
        // The layer's own perspective with a half turn about y: z stays 0, so w = 1.
        let r = root()
        let c = layer(100, 100, 100, 50, in: r, name: "c")
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        c.transform = CATransform3DRotate(t, .pi, 0, 1, 0)
        assertThrough(r, CGPoint(x: 195, y: 105), hits: c, in: c, at: CGPoint(x: 5, y: 5), accuracy: 1e-6)
    }

    /// A mirroring sublayerTransform (x ↦ 200 − x about the 200x100 parent's anchor (100, 50)):
    /// a 50x50 sublayer at the parent's origin lands at (300 − u.x, 100 + u.y) on the root.
    func testReflectingSublayerTransformIsHitAndConverts() {
        let r = root()
        let p = layer(100, 100, 200, 100, in: r, name: "p")
        let c = layer(0, 0, 50, 50, in: p, name: "c")
        p.sublayerTransform = CATransform3DMakeScale(-1, 1, 1)
        assertThrough(r, CGPoint(x: 295, y: 105), hits: c, in: c, at: CGPoint(x: 5, y: 5))
        assertThrough(r, CGPoint(x: 260, y: 105), hits: c, in: c, at: CGPoint(x: 40, y: 5))
        assertThrough(r, CGPoint(x: 250, y: 105), hits: p, in: c, at: CGPoint(x: 50, y: 5))
        // Both mirrored: the sublayer's own x mirror undoes the parent's about c's anchor (25, 25).
        c.transform = CATransform3DMakeScale(-1, 1, 1)
        assertThrough(r, CGPoint(x: 295, y: 105), hits: c, in: c, at: CGPoint(x: 45, y: 5))
    }

    /// Tiny but valid: a uniform scale of 1e-4 (4x4 determinant 1e-12) on a 100x100 layer
    /// centred at (150, 150) maps local u to 150 + (u − 50)·1e-4; a sublayer of the same size
    /// centred in it with another 1e-4 maps v to 150 + (v − 50)·1e-8.
    func testNearSingularUniformScalesAreHitAndConvert() {
        let r = root()
        let c = layer(100, 100, 100, 100, in: r, name: "c")
        let d = layer(0, 0, 100, 100, in: c, name: "d")
        c.transform = CATransform3DMakeScale(1e-4, 1e-4, 1e-4)
        d.transform = CATransform3DMakeScale(1e-4, 1e-4, 1e-4)
        assertThrough(r, CGPoint(x: 150 + 3e-7, y: 150 - 2e-7), hits: d, in: d, at: CGPoint(x: 80, y: 30), accuracy: 1e-4)
        assertThrough(r, CGPoint(x: 150 + 6e-7, y: 150), hits: c, in: c, at: CGPoint(x: 50.006, y: 50), accuracy: 1e-8)
        assertThrough(r, CGPoint(x: 150.004, y: 150.001), hits: c, in: c, at: CGPoint(x: 90, y: 60), accuracy: 1e-8)
        assertHit(r.hitTest(CGPoint(x: 150.006, y: 150)), r)
    }
}
