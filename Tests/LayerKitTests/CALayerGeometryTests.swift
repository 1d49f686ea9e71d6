import Foundation
import XCTest
@testable import LayerKitCore

/// `frame`, `affineTransform()`, `convert` and `contains` against Core Animation's geometry
/// (research/ca-semantics.md §1, §5, §6): with `A = bounds.origin + anchorPoint · bounds.size`,
/// `local = T(−A) · transform · T(position, zPosition)` and a superlayer's sublayerTransform
/// applies about its anchor point, after the superlayer flattens.
final class CALayerGeometryTests: XCTestCase {
    private let exact = 1e-9
    private let trig = 1e-6
    private let half = (0.5).squareRoot() // sin and cos of 45°

    private func assertPoint(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, accuracy: CGFloat,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
    }

    private func assertRect(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, accuracy: CGFloat,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.origin.x, x, accuracy: accuracy, "x of \(r)", file: file, line: line)
        XCTAssertEqual(r.origin.y, y, accuracy: accuracy, "y of \(r)", file: file, line: line)
        XCTAssertEqual(r.size.width, w, accuracy: accuracy, "width of \(r)", file: file, line: line)
        XCTAssertEqual(r.size.height, h, accuracy: accuracy, "height of \(r)", file: file, line: line)
    }

    /// A layer whose frame is `(x, y, w, h)` with the default anchor point, set through bounds
    /// and position (not through the frame setter, which has tests of its own).
    private func layer(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, in parent: CALayer? = nil) -> CALayer {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        l.position = CGPoint(x: x + w / 2, y: y + h / 2)
        parent?.addSublayer(l)
        return l
    }

    /// Listing 5.5: `t = Identity; t.m34 = -1/d; t = CATransform3DRotate(t, angle, 0, 1, 0)`.
    private func perspectiveRotationY(_ angle: CGFloat, d: CGFloat) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1 / d
        return CATransform3DRotate(t, angle, 0, 1, 0)
    }

    // MARK: frame (get)

    func testFramePlain() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        XCTAssertEqual(l.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testFrameIgnoresBoundsOrigin() {
        let l = CALayer()
        l.bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        XCTAssertEqual(l.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testFrameWithAnchorPoints() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        l.anchorPoint = .zero
        XCTAssertEqual(l.frame, CGRect(x: 200, y: 100, width: 100, height: 50))
        l.anchorPoint = CGPoint(x: 1, y: 1)
        XCTAssertEqual(l.frame, CGRect(x: 100, y: 50, width: 100, height: 50))
        l.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        XCTAssertEqual(l.frame, CGRect(x: 175, y: 62.5, width: 100, height: 50))
        // Outside the unit square the anchor point still places the layer.
        l.anchorPoint = CGPoint(x: -1, y: 2)
        XCTAssertEqual(l.frame, CGRect(x: 300, y: 0, width: 100, height: 50))
    }

    func testFrameUnderFortyFiveDegreeRotationHasSideHundredRootTwo() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.position = CGPoint(x: 100, y: 100)
        l.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let side = 100 * (2.0).squareRoot()
        assertRect(l.frame, 100 - side / 2, 100 - side / 2, side, side, accuracy: trig)
        // The same with the affine setter.
        l.setAffineTransform(CGAffineTransformMakeRotation(.pi / 4))
        assertRect(l.frame, 100 - side / 2, 100 - side / 2, side, side, accuracy: trig)
    }

    func testFrameUnderScale() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        l.transform = CATransform3DMakeScale(2, 3, 1)
        XCTAssertEqual(l.frame, CGRect(x: 100, y: 25, width: 200, height: 150))
        // The scale is about the anchor point.
        l.anchorPoint = .zero
        XCTAssertEqual(l.frame, CGRect(x: 200, y: 100, width: 200, height: 150))
        // A mirror keeps the box.
        l.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        l.transform = CATransform3DMakeScale(-1, 1, 1)
        XCTAssertEqual(l.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testFrameUnderTranslationAndShear() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        l.transform = CATransform3DMakeTranslation(10, 20, 0)
        XCTAssertEqual(l.frame, CGRect(x: 160, y: 95, width: 100, height: 50))
        // The book's shear (c = −1): x' = x − y about the anchor; corners (±50, ±25).
        l.setAffineTransform(CGAffineTransform(a: 1, b: 0, c: -1, d: 1, tx: 0, ty: 0))
        XCTAssertEqual(l.frame, CGRect(x: 125, y: 75, width: 150, height: 50))
    }

    func testFrameIgnoresZPositionAndAnchorPointZWithoutPerspective() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 100)
        l.zPosition = 40
        l.anchorPointZ = 30
        XCTAssertEqual(l.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testFrameUnderPerspective() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.position = CGPoint(x: 200, y: 150)
        l.transform = perspectiveRotationY(.pi / 4, d: 500)
        // Corners (±50, ±50) relative to the anchor: (u, v, 0) → (u·c, v, −u·s), w = 1 + u·s/500.
        let wRight = 1 + 50 * half / 500, wLeft = 1 - 50 * half / 500
        let minX = 200 - 50 * half / wLeft, maxX = 200 + 50 * half / wRight
        let minY = 150 - 50 / wLeft, maxY = 150 + 50 / wLeft
        assertRect(l.frame, minX, minY, maxX - minX, maxY - minY, accuracy: trig)
        // Numerically: x from 161.954 to 233.020, y from 96.195 to 203.805.
        assertRect(l.frame, 161.9544, 96.1954, 71.0660, 107.6091, accuracy: 1e-3)
    }

    func testFrameIsInfiniteWhenACornerIsBehindTheEye() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 2000, height: 100)
        l.transform = perspectiveRotationY(.pi / 4, d: 500)
        // The left corners (u = −1000) have w = 1 − 1000·sin45°/500 < 0.
        let f = l.frame
        XCTAssertEqual(f, CGRect.infiniteRect)
        XCTAssertEqual(f.origin.x, -8.98846567431158e307, accuracy: 1e293)
        XCTAssertEqual(f.origin.y, -8.98846567431158e307, accuracy: 1e293)
        XCTAssertEqual(f.size.width, .greatestFiniteMagnitude)
        XCTAssertEqual(f.size.height, .greatestFiniteMagnitude)

        // Wholly behind the eye: pushed 600 towards a viewer at 500.
        let m = CALayer()
        m.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        m.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 600), p)
        XCTAssertEqual(m.frame, CGRect.infiniteRect)
    }

    func testInfiniteRectIsCGRectInfinite() {
        XCTAssertEqual(CGRect.infiniteRect.origin.x, -CGFloat.greatestFiniteMagnitude / 2)
        XCTAssertEqual(CGRect.infiniteRect.origin.y, -CGFloat.greatestFiniteMagnitude / 2)
        XCTAssertEqual(CGRect.infiniteRect.size.width, CGFloat.greatestFiniteMagnitude)
        XCTAssertEqual(CGRect.infiniteRect.size.height, CGFloat.greatestFiniteMagnitude)
    }

    // MARK: frame (set)

    func testFrameSetterWithIdentityTransform() {
        let l = CALayer()
        l.bounds = CGRect(x: 5, y: 6, width: 10, height: 10)
        l.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 40)
        XCTAssertEqual(l.bounds, CGRect(x: 5, y: 6, width: 100, height: 40), "bounds.origin is kept")
        XCTAssertEqual(l.position, CGPoint(x: 35, y: 50), "origin + anchorPoint · size")
        XCTAssertEqual(l.frame, CGRect(x: 10, y: 20, width: 100, height: 40))
    }

    func testFrameSetterWithDefaultAnchorPutsPositionAtCentre() {
        let l = CALayer()
        l.frame = CGRect(x: 100, y: 50, width: 60, height: 30)
        XCTAssertEqual(l.bounds, CGRect(x: 0, y: 0, width: 60, height: 30))
        XCTAssertEqual(l.position, CGPoint(x: 130, y: 65))
    }

    func testFrameSetterWithScaleTransform() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 4, 1)
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(l.bounds.size, CGSize(width: 50, height: 25), "size through the inverse of the transform")
        assertPoint(l.position, 50, 50, accuracy: exact)
        assertRect(l.frame, 0, 0, 100, 100, accuracy: exact)

        let m = CALayer()
        m.anchorPoint = .zero
        m.transform = CATransform3DMakeScale(2, 4, 1)
        m.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        XCTAssertEqual(m.bounds.size, CGSize(width: 50, height: 25))
        assertPoint(m.position, 10, 10, accuracy: exact)
        assertRect(m.frame, 10, 10, 100, 100, accuracy: exact)
    }

    /// Under a rotation the frame's rectangle goes back through the inverse of the affine part
    /// as a rectangle (its bounding box), not as a size vector: a 45° layer given a 100x100
    /// frame gets bounds 100·(cos 45° + sin 45°) = 141.42 a side (the size vector (100, 100)
    /// turned back by 45° is (141.42, 0), which collapsed the layer). The anchor point lands on
    /// the frame's anchor point, here its centre (50, 50), so the new frame, the bounding box of
    /// the turned 141.42 square (200 a side), is centred on the one given.
    func testFrameSetterUnderARotationKeepsBothSides() {
        let l = CALayer()
        l.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(l.bounds.width, 100 * 2.0.squareRoot(), accuracy: exact)
        XCTAssertEqual(l.bounds.height, 100 * 2.0.squareRoot(), accuracy: exact)
        assertPoint(l.position, 50, 50, accuracy: exact)
        assertRect(l.frame, -50, -50, 200, 200, accuracy: exact)
    }

    /// Quarter turns and mirrors round-trip: 90° swaps the sides (bounds 50x100 for a 100x50
    /// frame) and the frame read back is the one set.
    func testFrameSetterUnderQuarterTurnsAndMirrorsRoundTrips() {
        for t in [CATransform3DMakeRotation(.pi / 2, 0, 0, 1), CATransform3DMakeScale(-1, 1, 1),
                  CATransform3DScale(CATransform3DMakeRotation(-.pi / 2, 0, 0, 1), 2, -0.5, 1)] {
            let l = CALayer()
            l.anchorPoint = CGPoint(x: 0.25, y: 0.5)
            l.transform = t
            l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
            assertRect(l.frame, 10, 20, 100, 50, accuracy: exact)
            XCTAssertGreaterThan(l.bounds.width, 0)
            XCTAssertGreaterThan(l.bounds.height, 0)
        }
        let l = CALayer()
        l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(l.bounds.width, 50, accuracy: exact)
        XCTAssertEqual(l.bounds.height, 100, accuracy: exact)
        assertPoint(l.position, 60, 45, accuracy: exact)
    }

    /// A singular affine part (scale 0) has no inverse: the size is taken as given.
    func testFrameSetterUnderASingularTransformTakesTheSize() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(0, 1, 1)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(l.bounds.size, CGSize(width: 100, height: 50))
        XCTAssertEqual(l.position, CGPoint(x: 60, y: 45))
    }

    // MARK: affineTransform

    func testAffineTransformReadsAffineEntries() {
        let l = CALayer()
        l.transform = CATransform3DMakeAffineTransform(CGAffineTransformMake(1, 2, 3, 4, 5, 6))
        XCTAssertEqual(l.affineTransform(), CGAffineTransformMake(1, 2, 3, 4, 5, 6))
        l.setAffineTransform(CGAffineTransformMakeScale(3, 0.5))
        XCTAssertEqual(l.transform, CATransform3DMakeScale(3, 0.5, 1))
        XCTAssertEqual(l.affineTransform(), CGAffineTransformMakeScale(3, 0.5))
    }

    func testAffineTransformIsIdentityForNonAffineTransforms() {
        let l = CALayer()
        l.transform = perspectiveRotationY(.pi / 4, d: 500)
        XCTAssertEqual(l.affineTransform(), CGAffineTransformIdentity)
        var t = CATransform3DMakeScale(2, 2, 1)
        t.m34 = -0.002
        l.transform = t
        XCTAssertEqual(l.affineTransform(), CGAffineTransformIdentity)
        l.transform = CATransform3DMakeRotation(0.3, 1, 0, 0)
        XCTAssertEqual(l.affineTransform(), CGAffineTransformIdentity)
        l.transform = CATransform3DMakeTranslation(1, 2, 3)
        XCTAssertEqual(l.affineTransform(), CGAffineTransformIdentity)
    }

    // MARK: convert

    func testConvertBetweenSiblings() {
        let root = layer(0, 0, 400, 400)
        let a = layer(0, 0, 100, 100, in: root), b = layer(200, 100, 50, 50, in: root)
        XCTAssertEqual(a.convert(CGPoint(x: 10, y: 10), to: b), CGPoint(x: -190, y: -90))
        XCTAssertEqual(b.convert(CGPoint(x: 10, y: 10), from: a), CGPoint(x: -190, y: -90))
        XCTAssertEqual(a.convert(CGPoint(x: 0, y: 0), from: b), CGPoint(x: 200, y: 100))
        XCTAssertEqual(a.convert(CGRect(x: 0, y: 0, width: 50, height: 50), from: b), CGRect(x: 200, y: 100, width: 50, height: 50))
    }

    func testConvertBetweenParentAndChildAndUpToRoot() {
        let root = layer(0, 0, 400, 400)
        let a = layer(30, 40, 100, 100, in: root)
        let child = layer(20, 30, 10, 10, in: a)
        XCTAssertEqual(child.convert(CGPoint(x: 5, y: 5), to: a), CGPoint(x: 25, y: 35))
        XCTAssertEqual(a.convert(CGPoint(x: 5, y: 5), from: child), CGPoint(x: 25, y: 35))
        XCTAssertEqual(a.convert(CGPoint(x: 25, y: 35), to: child), CGPoint(x: 5, y: 5))
        XCTAssertEqual(child.convert(CGPoint(x: 5, y: 5), to: root), CGPoint(x: 55, y: 75))
        XCTAssertEqual(root.convert(CGPoint(x: 55, y: 75), to: child), CGPoint(x: 5, y: 5))
        // nil is the space the root sits in.
        XCTAssertEqual(child.convert(CGPoint(x: 5, y: 5), to: nil), CGPoint(x: 55, y: 75))
        XCTAssertEqual(child.convert(CGPoint(x: 55, y: 75), from: nil), CGPoint(x: 5, y: 5))
    }

    func testConvertToNilIncludesTheRootsOwnPlacement() {
        let root = CALayer()
        root.bounds = CGRect(x: 10, y: 10, width: 100, height: 100)
        root.position = CGPoint(x: 300, y: 200)
        // The root's bounds point (10, 10) is its top-left corner, at (250, 150).
        XCTAssertEqual(root.convert(CGPoint(x: 10, y: 10), to: nil), CGPoint(x: 250, y: 150))
        XCTAssertEqual(root.convert(CGPoint(x: 250, y: 150), from: nil), CGPoint(x: 10, y: 10))
    }

    func testConvertThroughBoundsOrigin() {
        let root = layer(0, 0, 400, 400)
        let p = CALayer()
        p.bounds = CGRect(x: 50, y: 20, width: 100, height: 100)
        p.position = CGPoint(x: 100, y: 100)
        root.addSublayer(p)
        let c = layer(50, 20, 10, 10, in: p)
        XCTAssertEqual(p.frame, CGRect(x: 50, y: 50, width: 100, height: 100))
        XCTAssertEqual(c.convert(CGPoint.zero, to: p), CGPoint(x: 50, y: 20))
        // (50, 20) is p's top-left corner, which sits at p's frame origin.
        XCTAssertEqual(c.convert(CGPoint.zero, to: root), CGPoint(x: 50, y: 50))
        XCTAssertEqual(p.convert(CGPoint(x: 50, y: 20), to: root), CGPoint(x: 50, y: 50))
        XCTAssertEqual(root.convert(CGPoint(x: 55, y: 57), to: c), CGPoint(x: 5, y: 7))
    }

    func testConvertThroughSublayerTransformAboutTheAnchorPoint() {
        let root = layer(0, 0, 400, 400)
        let p = layer(0, 0, 200, 100, in: root)
        p.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let c = layer(110, 50, 10, 10, in: p)
        // (110, 50) − anchor (100, 50) = (10, 0), doubled, + anchor = (120, 50).
        assertPoint(c.convert(CGPoint.zero, to: p), 120, 50, accuracy: exact)
        assertPoint(c.convert(CGPoint(x: 10, y: 10), to: p), 140, 70, accuracy: exact)
        assertPoint(p.convert(CGPoint(x: 140, y: 70), to: c), 10, 10, accuracy: exact)

        // Moving the anchor point moves the pivot (the frame stays put).
        p.anchorPoint = .zero
        p.position = .zero
        XCTAssertEqual(p.frame, CGRect(x: 0, y: 0, width: 200, height: 100))
        assertPoint(c.convert(CGPoint.zero, to: p), 220, 100, accuracy: exact)

        // A quarter turn about the anchor (100, 50): (10, 0) → (0, 10).
        p.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        p.position = CGPoint(x: 100, y: 50)
        p.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        assertPoint(c.convert(CGPoint.zero, to: p), 100, 60, accuracy: trig)
        assertPoint(c.convert(CGPoint.zero, to: root), 100, 60, accuracy: trig)
    }

    func testSublayerTransformDoesNotMoveTheLayerItself() {
        let root = layer(0, 0, 400, 400)
        let p = layer(10, 20, 200, 100, in: root)
        p.sublayerTransform = CATransform3DMakeScale(3, 3, 1)
        XCTAssertEqual(p.convert(CGPoint.zero, to: root), CGPoint(x: 10, y: 20))
        XCTAssertEqual(p.frame, CGRect(x: 10, y: 20, width: 200, height: 100))
    }

    func testConvertThroughPerspectiveInTheChildTransform() {
        let root = layer(0, 0, 400, 400)
        let p = layer(0, 0, 200, 200, in: root)
        let c = layer(50, 50, 100, 100, in: p)
        c.transform = perspectiveRotationY(.pi / 4, d: 500)
        // (u, v) relative to c's anchor maps to (u·c/w, v/w) + position, w = 1 + u·s/500.
        let wRight = 1 + 50 * half / 500, wLeft = 1 - 50 * half / 500
        let right = c.convert(CGPoint(x: 100, y: 50), to: p)
        assertPoint(right, 100 + 50 * half / wRight, 100, accuracy: trig)
        let topLeft = c.convert(CGPoint(x: 0, y: 0), to: p)
        assertPoint(topLeft, 100 - 50 * half / wLeft, 100 - 50 / wLeft, accuracy: trig)
        assertPoint(topLeft, 61.9544, 46.1954, accuracy: 1e-3)
        // And back again.
        assertPoint(p.convert(right, to: c), 100, 50, accuracy: exact)
        assertPoint(c.convert(topLeft, from: p), 0, 0, accuracy: exact)
        // The homography is not affine: the middle of the top edge is not the middle of the
        // projected corners.
        let topMiddle = c.convert(CGPoint(x: 50, y: 0), to: p)
        assertPoint(topMiddle, 100, 50, accuracy: trig)
        let topRight = c.convert(CGPoint(x: 100, y: 0), to: p)
        XCTAssertNotEqual((topLeft.x + topRight.x) / 2, topMiddle.x, accuracy: 1)
    }

    func testConvertThroughPerspectiveSublayerTransform() {
        let root = layer(0, 0, 400, 400)
        let p = layer(0, 0, 200, 200, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        p.sublayerTransform = perspective
        let c = layer(50, 50, 100, 100, in: p)
        c.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        // The vanishing point is p's anchor (100, 100), which is also c's position: the same
        // numbers as perspective in c's own transform.
        let wRight = 1 + 50 * half / 500, wLeft = 1 - 50 * half / 500
        assertPoint(c.convert(CGPoint(x: 100, y: 50), to: p), 100 + 50 * half / wRight, 100, accuracy: trig)
        assertPoint(c.convert(CGPoint(x: 0, y: 0), to: p), 100 - 50 * half / wLeft, 100 - 50 / wLeft, accuracy: trig)
        assertPoint(c.convert(CGPoint(x: 0, y: 0), to: nil), 100 - 50 * half / wLeft, 100 - 50 / wLeft, accuracy: trig)

        // With p's anchor point at its top-left corner the vanishing point moves there:
        // (100 + u·c, 100 + v) / w.
        p.anchorPoint = .zero
        p.position = .zero
        assertPoint(c.convert(CGPoint(x: 100, y: 50), to: p), (100 + 50 * half) / wRight, 100 / wRight, accuracy: trig)
        assertPoint(c.convert(CGPoint(x: 0, y: 0), to: p), (100 - 50 * half) / wLeft, 50 / wLeft, accuracy: trig)
    }

    func testZPositionShowsThroughAPerspectiveSublayerTransform() {
        let root = layer(0, 0, 400, 400)
        let p = layer(0, 0, 200, 200, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        p.sublayerTransform = perspective
        let c = layer(50, 50, 100, 100, in: p)
        c.zPosition = 100
        // w = 1 − 100/500 = 0.8: the corner (−50, −50) from the vanishing point lands at −62.5.
        assertPoint(c.convert(CGPoint.zero, to: p), 37.5, 37.5, accuracy: exact)
        assertPoint(c.convert(CGPoint(x: 100, y: 100), to: p), 162.5, 162.5, accuracy: exact)
        assertPoint(p.convert(CGPoint(x: 37.5, y: 37.5), to: c), 0, 0, accuracy: exact)
    }

    func testParentsOwnPerspectiveFlattensTheChildsZ() {
        // The perspective in p's own transform sees p's plane, into which c is flattened:
        // c's zPosition no longer matters.
        let root = layer(0, 0, 400, 400)
        let p = layer(0, 0, 200, 200, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        p.transform = perspective
        let c = layer(50, 50, 100, 100, in: p)
        c.zPosition = 100
        assertPoint(c.convert(CGPoint.zero, to: root), 50, 50, accuracy: exact)
        assertPoint(c.convert(CGPoint(x: 100, y: 100), to: root), 150, 150, accuracy: exact)
    }

    func testConvertRoundTripsThroughPerspectiveChains() {
        let root = layer(0, 0, 400, 400)
        let p = layer(20, 30, 300, 300, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 800
        p.sublayerTransform = perspective
        p.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let c = layer(40, 60, 120, 80, in: p)
        c.transform = CATransform3DRotate(CATransform3DMakeRotation(0.5, 1, 0, 0), 0.4, 0, 1, 0)
        c.anchorPointZ = 15
        let d = layer(10, 10, 30, 30, in: c)
        d.transform = perspectiveRotationY(-0.6, d: 300)
        for q in [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 12.5, y: 27.25), CGPoint(x: -5, y: 40)] {
            let inRoot = d.convert(q, to: root)
            assertPoint(root.convert(inRoot, to: d), q.x, q.y, accuracy: 1e-8)
            assertPoint(d.convert(inRoot, from: root), q.x, q.y, accuracy: 1e-8)
            let inP = d.convert(q, to: p)
            assertPoint(p.convert(inP, to: d), q.x, q.y, accuracy: 1e-8)
            // Going through an intermediate layer gives the same as going directly.
            let viaC = p.convert(d.convert(q, to: c), from: c)
            assertPoint(viaC, inP.x, inP.y, accuracy: 1e-8)
        }
    }

    func testConvertRectIsTheBoundingBoxOfTheConvertedCorners() {
        let root = layer(0, 0, 400, 400)
        let c = CALayer()
        c.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        c.position = CGPoint(x: 100, y: 100)
        c.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(c)
        assertRect(root.convert(c.bounds, from: c), 90, 80, 20, 40, accuracy: trig)
        assertRect(c.convert(c.bounds, to: root), 90, 80, 20, 40, accuracy: trig)
        assertRect(c.convert(CGRect(x: 90, y: 80, width: 20, height: 40), from: root), 0, 0, 40, 20, accuracy: trig)
    }

    func testConvertBetweenUnconnectedTreesGoesThroughEachRoot() {
        let a = layer(10, 20, 100, 100)
        let b = layer(50, 60, 100, 100)
        XCTAssertEqual(a.convert(CGPoint.zero, to: b), CGPoint(x: -40, y: -40))
        XCTAssertEqual(b.convert(CGPoint.zero, to: a), CGPoint(x: 40, y: 40))
        let c = layer(5, 5, 10, 10, in: b)
        XCTAssertEqual(c.convert(CGPoint.zero, to: a), CGPoint(x: 45, y: 45))
    }

    func testConvertToItselfIsIdentity() {
        let root = layer(0, 0, 400, 400)
        let c = layer(10, 10, 100, 100, in: root)
        c.transform = perspectiveRotationY(0.7, d: 500)
        assertPoint(c.convert(CGPoint(x: 33, y: 44), to: c), 33, 44, accuracy: 1e-9)
    }

    // MARK: Values checked against Apple's QuartzCore
    // gnustep/libs-quartzcore Tests/quartzcore/CALayer/conversion.m, which its
    // apple-tests workflow compiles and runs against Apple's framework.

    private func gsLayer(_ bounds: CGRect, _ position: CGPoint) -> CALayer {
        let l = CALayer()
        l.bounds = bounds
        l.position = position
        return l
    }

    func testAppleCheckedSublayerTransformAndChildTransformTogether() {
        let parent = gsLayer(CGRect(x: 0, y: 0, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let child = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 100, y: 50))
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        child.transform = CATransform3DMakeTranslation(5, 6, 0)
        parent.addSublayer(child)
        // (0, 0) − anchor (25, 25) + (5, 6) + position (100, 50) = (80, 31); doubled about the
        // parent's anchor (100, 100): (60, −38).
        assertPoint(child.convert(CGPoint.zero, to: parent), 60, -38, accuracy: exact)
    }

    func testAppleCheckedConversions() {
        let parent = gsLayer(CGRect(x: 0, y: 0, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let child = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 100, y: 50))
        parent.addSublayer(child)
        assertPoint(child.convert(CGPoint.zero, to: parent), 75, 25, accuracy: exact)
        assertPoint(child.convert(CGPoint(x: 50, y: 50), to: parent), 125, 75, accuracy: exact)
        assertPoint(parent.convert(CGPoint.zero, to: child), -75, -25, accuracy: exact)
        assertRect(child.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: parent), 75, 25, 10, 20, accuracy: exact)
        assertRect(parent.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: child), -75, -25, 10, 20, accuracy: exact)

        // The superlayer's bounds origin does not move the child in the superlayer's space.
        let shifted = gsLayer(CGRect(x: 10, y: 20, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let inShifted = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 100, y: 50))
        shifted.addSublayer(inShifted)
        assertPoint(inShifted.convert(CGPoint.zero, to: shifted), 75, 25, accuracy: exact)

        // The child's own scale spreads it about its anchor point.
        child.transform = CATransform3DMakeScale(2, 2, 1)
        assertPoint(child.convert(CGPoint.zero, to: parent), 50, 0, accuracy: exact)
        assertPoint(child.convert(CGPoint(x: 50, y: 50), to: parent), 150, 100, accuracy: exact)
        assertRect(child.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: parent), 50, 0, 20, 40, accuracy: exact)

        // A translation sublayerTransform moves the child.
        child.transform = CATransform3DIdentity
        parent.sublayerTransform = CATransform3DMakeTranslation(10, 20, 0)
        assertPoint(child.convert(CGPoint.zero, to: parent), 85, 45, accuracy: exact)
    }

    func testAppleCheckedRotatedChildRectangle() {
        let parent = gsLayer(CGRect(x: 0, y: 0, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let child = gsLayer(CGRect(x: 0, y: 0, width: 100, height: 100), CGPoint(x: 100, y: 100))
        child.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        parent.addSublayer(child)
        let r2 = (2.0).squareRoot()
        assertRect(child.convert(CGRect(x: 0, y: 0, width: 100, height: 100), to: parent),
                   100 - 50 * r2, 100 - 50 * r2, 100 * r2, 100 * r2, accuracy: trig)
        assertPoint(child.convert(CGPoint(x: 50, y: 50), to: parent), 100, 100, accuracy: trig)
    }

    func testAppleCheckedTreesAndDetachedLayers() {
        let g0 = gsLayer(CGRect(x: 0, y: 0, width: 400, height: 400), CGPoint(x: 200, y: 200))
        let g1 = gsLayer(CGRect(x: 0, y: 0, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let g2 = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 25, y: 25))
        g0.addSublayer(g1)
        g1.addSublayer(g2)
        assertPoint(g2.convert(CGPoint.zero, to: g0), 0, 0, accuracy: exact)
        assertPoint(g0.convert(CGPoint.zero, to: g2), 0, 0, accuracy: exact)

        let parent = gsLayer(CGRect(x: 0, y: 0, width: 200, height: 200), CGPoint(x: 100, y: 100))
        let s1 = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 25, y: 25))
        let s2 = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 125, y: 25))
        parent.addSublayer(s1)
        parent.addSublayer(s2)
        assertPoint(s1.convert(CGPoint.zero, to: s2), -100, 0, accuracy: exact)

        let u1 = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 25, y: 25))
        let u2 = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 500, y: 500))
        assertPoint(u1.convert(CGPoint.zero, to: u2), -475, -475, accuracy: exact)

        let d = gsLayer(CGRect(x: 0, y: 0, width: 50, height: 50), CGPoint(x: 100, y: 50))
        parent.addSublayer(d)
        assertPoint(d.convert(CGPoint.zero, to: parent), 75, 25, accuracy: exact)
        d.removeFromSuperlayer()
        assertPoint(d.convert(CGPoint.zero, to: parent), 75, 25, accuracy: exact)
    }

    // MARK: contains

    func testContainsIsHalfOpen() {
        let l = layer(0, 0, 100, 100)
        XCTAssertTrue(l.contains(CGPoint(x: 0, y: 0)))
        XCTAssertTrue(l.contains(CGPoint(x: 99.5, y: 99.5)))
        XCTAssertTrue(l.contains(CGPoint(x: 50, y: 0)))
        XCTAssertFalse(l.contains(CGPoint(x: 100, y: 100)))
        XCTAssertFalse(l.contains(CGPoint(x: 100, y: 50)))
        XCTAssertFalse(l.contains(CGPoint(x: 50, y: 100)))
        XCTAssertFalse(l.contains(CGPoint(x: -0.5, y: 50)))
        XCTAssertFalse(l.contains(CGPoint(x: 50, y: -0.5)))
    }

    func testContainsUsesBoundsNotFrame() {
        let l = CALayer()
        l.bounds = CGRect(x: 10, y: 10, width: 100, height: 100)
        l.position = CGPoint(x: 500, y: 500)
        l.transform = CATransform3DMakeScale(3, 3, 1)
        XCTAssertTrue(l.contains(CGPoint(x: 10, y: 10)))
        XCTAssertTrue(l.contains(CGPoint(x: 109, y: 109)))
        XCTAssertFalse(l.contains(CGPoint(x: 110, y: 50)))
        XCTAssertFalse(l.contains(CGPoint(x: 5, y: 5)))
        XCTAssertFalse(l.contains(CGPoint(x: 500, y: 500)))
    }

    func testEmptyLayerContainsNothing() {
        XCTAssertFalse(CALayer().contains(.zero))
    }
}
