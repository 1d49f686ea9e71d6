import Foundation
import XCTest
@testable import LayerKitDrawing

/// `CGAffineTransform` against Core Graphics' definitions: `x' = a·x + c·y + tx`,
/// `y' = b·x + d·y + ty`; `Translate/Scale/Rotate(t, …) = op · t` (the new operation applies
/// first); `Concat(t1, t2)` applies `t1` first; a positive angle turns +x towards +y, which is
/// clockwise on Core Animation's y-down screen.
final class CGAffineTransformTests: XCTestCase {
    private let exact = 1e-9
    private let trig = 1e-6

    private func assertPoint(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, accuracy: CGFloat,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
    }

    private func assertTransform(_ t: CGAffineTransform, _ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat,
                                 _ tx: CGFloat, _ ty: CGFloat, accuracy: CGFloat,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(t.a, a, accuracy: accuracy, "a of \(t)", file: file, line: line)
        XCTAssertEqual(t.b, b, accuracy: accuracy, "b of \(t)", file: file, line: line)
        XCTAssertEqual(t.c, c, accuracy: accuracy, "c of \(t)", file: file, line: line)
        XCTAssertEqual(t.d, d, accuracy: accuracy, "d of \(t)", file: file, line: line)
        XCTAssertEqual(t.tx, tx, accuracy: accuracy, "tx of \(t)", file: file, line: line)
        XCTAssertEqual(t.ty, ty, accuracy: accuracy, "ty of \(t)", file: file, line: line)
    }

    /// Listing 5.3 of *iOS Core Animation: Advanced Techniques*, verbatim apart from the syntax.
    private func CGAffineTransformMakeShear(_ x: CGFloat, _ y: CGFloat) -> CGAffineTransform {
        var transform = CGAffineTransformIdentity
        transform.c = -x
        transform.b = y
        return transform
    }

    // MARK: Construction

    func testIdentityEntries() {
        assertTransform(CGAffineTransformIdentity, 1, 0, 0, 1, 0, 0, accuracy: 0)
        XCTAssertEqual(CGAffineTransform(), CGAffineTransform.identity)
        XCTAssertTrue(CGAffineTransformIsIdentity(.identity))
        XCTAssertTrue(CGAffineTransform.identity.isIdentity)
        XCTAssertFalse(CGAffineTransformMake(1, 0, 0, 1, 0, 1e-12).isIdentity)
    }

    func testMakeStoresEntriesByName() {
        let t = CGAffineTransformMake(1, 2, 3, 4, 5, 6)
        assertTransform(t, 1, 2, 3, 4, 5, 6, accuracy: 0)
        XCTAssertEqual(t, CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
    }

    func testPointMappingUsesColumnsOfABAndCD() {
        // x' = a·x + c·y + tx = 1·10 + 3·20 + 5 = 75; y' = b·x + d·y + ty = 2·10 + 4·20 + 6 = 106.
        let t = CGAffineTransformMake(1, 2, 3, 4, 5, 6)
        assertPoint(CGPointApplyAffineTransform(CGPoint(x: 10, y: 20), t), 75, 106, accuracy: 0)
        assertPoint(CGPoint(x: 10, y: 20).applying(t), 75, 106, accuracy: 0)
    }

    func testMakeTranslationScaleRotationEntries() {
        assertTransform(CGAffineTransformMakeTranslation(7, -3), 1, 0, 0, 1, 7, -3, accuracy: 0)
        assertTransform(CGAffineTransformMakeScale(2, -5), 2, 0, 0, -5, 0, 0, accuracy: 0)
        let r = CGAffineTransformMakeRotation(0.3)
        assertTransform(r, cos(0.3), sin(0.3), -sin(0.3), cos(0.3), 0, 0, accuracy: trig)
        XCTAssertEqual(CGAffineTransform(translationX: 7, y: -3), CGAffineTransformMakeTranslation(7, -3))
        XCTAssertEqual(CGAffineTransform(scaleX: 2, y: -5), CGAffineTransformMakeScale(2, -5))
        XCTAssertEqual(CGAffineTransform(rotationAngle: 0.3), r)
    }

    // MARK: Rotation direction

    func testPositiveRotationMapsXAxisToCosSin() {
        for angle in [0.3, 1.0, CGFloat.pi / 6, 2.5, -0.7] {
            let p = CGPoint(x: 1, y: 0).applying(CGAffineTransformMakeRotation(angle))
            assertPoint(p, cos(angle), sin(angle), accuracy: trig)
        }
    }

    func testQuarterTurnIsClockwiseOnYDownScreen() {
        // +x (right) turns to +y, which is down on a y-down screen: clockwise.
        let t = CGAffineTransformMakeRotation(.pi / 2)
        assertPoint(CGPoint(x: 100, y: 0).applying(t), 0, 100, accuracy: trig)
        assertPoint(CGPoint(x: 0, y: 100).applying(t), -100, 0, accuracy: trig)
    }

    // MARK: Order of operations

    func testConcatAppliesFirstArgumentFirst() {
        let t = CGAffineTransformConcat(CGAffineTransformMakeTranslation(10, 0), CGAffineTransformMakeScale(2, 2))
        assertTransform(t, 2, 0, 0, 2, 20, 0, accuracy: 0)
        assertPoint(CGPoint(x: 1, y: 1).applying(t), 22, 2, accuracy: 0)
        let u = CGAffineTransformConcat(CGAffineTransformMakeScale(2, 2), CGAffineTransformMakeTranslation(10, 0))
        assertTransform(u, 2, 0, 0, 2, 10, 0, accuracy: 0)
        XCTAssertEqual(CGAffineTransformMakeTranslation(10, 0).concatenating(CGAffineTransformMakeScale(2, 2)), t)
    }

    func testConcatIsGeneralMatrixProduct() {
        // [1 2; 3 4; 5 6] · [7 8; 9 10; 11 12] with the implicit third column (0, 0, 1).
        let t = CGAffineTransformConcat(CGAffineTransformMake(1, 2, 3, 4, 5, 6), CGAffineTransformMake(7, 8, 9, 10, 11, 12))
        // a = 1·7 + 2·9 = 25, b = 1·8 + 2·10 = 28, c = 3·7 + 4·9 = 57, d = 3·8 + 4·10 = 64,
        // tx = 5·7 + 6·9 + 11 = 100, ty = 5·8 + 6·10 + 12 = 112.
        assertTransform(t, 25, 28, 57, 64, 100, 112, accuracy: 0)
    }

    func testTranslateScaleRotateApplyBeforeTheExistingTransform() {
        let base = CGAffineTransformMake(1, 2, 3, 4, 5, 6)
        XCTAssertEqual(CGAffineTransformTranslate(base, 7, 8), CGAffineTransformConcat(CGAffineTransformMakeTranslation(7, 8), base))
        XCTAssertEqual(CGAffineTransformScale(base, 2, 3), CGAffineTransformConcat(CGAffineTransformMakeScale(2, 3), base))
        XCTAssertEqual(CGAffineTransformRotate(base, 0.4), CGAffineTransformConcat(CGAffineTransformMakeRotation(0.4), base))
        // Exact numbers for the translate: the translation is mapped by base's linear part.
        // tx = 7·a + 8·c + tx = 7 + 24 + 5 = 36; ty = 7·b + 8·d + ty = 14 + 32 + 6 = 52.
        assertTransform(CGAffineTransformTranslate(base, 7, 8), 1, 2, 3, 4, 36, 52, accuracy: 0)
        // Scale multiplies the rows: a, b by sx and c, d by sy.
        assertTransform(CGAffineTransformScale(base, 2, 3), 2, 4, 9, 12, 5, 6, accuracy: 0)
    }

    func testSwiftSpellingsMatchFunctions() {
        let base = CGAffineTransformMake(0.5, -1, 2, 1.5, 3, -4)
        XCTAssertEqual(base.translatedBy(x: 7, y: 8), CGAffineTransformTranslate(base, 7, 8))
        XCTAssertEqual(base.scaledBy(x: 2, y: 3), CGAffineTransformScale(base, 2, 3))
        XCTAssertEqual(base.rotated(by: 0.4), CGAffineTransformRotate(base, 0.4))
        XCTAssertEqual(base.inverted(), CGAffineTransformInvert(base))
        XCTAssertTrue(CGAffineTransformEqualToTransform(base, CGAffineTransformMake(0.5, -1, 2, 1.5, 3, -4)))
        XCTAssertFalse(CGAffineTransformEqualToTransform(base, .identity))
    }

    /// The book's Listing 5.2: scale by 50%, rotate by 30°, translate 200 points; the anchor
    /// point moves ~100 points at 30° below +x: right and down on iOS.
    func testBookCompositeExample() {
        var t = CGAffineTransformIdentity
        t = CGAffineTransformScale(t, 0.5, 0.5)
        t = CGAffineTransformRotate(t, .pi / 6)
        t = CGAffineTransformTranslate(t, 200, 0)
        let p = CGPointApplyAffineTransform(.zero, t)
        assertPoint(p, 86.60, 50.00, accuracy: 0.01)
        assertPoint(p, 100 * (3.0).squareRoot() / 2, 50, accuracy: trig)
        // t = T(200, 0) · R(30°) · S(0.5).
        let c = (3.0).squareRoot() / 2, s = 0.5
        assertTransform(t, 0.5 * c, 0.5 * s, -0.5 * s, 0.5 * c, 200 * 0.5 * c, 200 * 0.5 * s, accuracy: trig)
        // The Swift spelling gives the same.
        let swifty = CGAffineTransform.identity.scaledBy(x: 0.5, y: 0.5).rotated(by: .pi / 6).translatedBy(x: 200, y: 0)
        assertTransform(swifty, t.a, t.b, t.c, t.d, t.tx, t.ty, accuracy: exact)
    }

    // MARK: Shear (Listing 5.3)

    func testBookShearEntries() {
        let t = CGAffineTransformMakeShear(1, 0)
        XCTAssertEqual(t, CGAffineTransform(a: 1, b: 0, c: -1, d: 1, tx: 0, ty: 0))
        let u = CGAffineTransformMakeShear(0.25, 0.5)
        XCTAssertEqual(u, CGAffineTransform(a: 1, b: 0.5, c: -0.25, d: 1, tx: 0, ty: 0))
    }

    func testBookShearMapsPoints() {
        let t = CGAffineTransformMakeShear(1, 0)
        // c = -x: x' = x - y, so points further down slide left.
        assertPoint(CGPoint(x: 0, y: 100).applying(t), -100, 100, accuracy: 0)
        assertPoint(CGPoint(x: 100, y: 0).applying(t), 100, 0, accuracy: 0)
        assertPoint(CGPoint(x: 100, y: 100).applying(t), 0, 100, accuracy: 0)
        assertPoint(CGPoint(x: -100, y: -100).applying(t), 0, -100, accuracy: 0)
        // b = y: y' = y + 0.5·x.
        let u = CGAffineTransformMakeShear(0.25, 0.5)
        assertPoint(CGPoint(x: 100, y: 0).applying(u), 100, 50, accuracy: 0)
        assertPoint(CGPoint(x: 0, y: 100).applying(u), -25, 100, accuracy: 0)
        assertPoint(CGPoint(x: 40, y: 80).applying(u), 20, 100, accuracy: 0)
    }

    // MARK: Inversion

    func testInvertRoundTrips() {
        let cases = [
            CGAffineTransformMake(1, 2, 3, 4, 5, 6),
            CGAffineTransformMakeRotation(0.7).scaledBy(x: 3, y: -0.25).translatedBy(x: 40, y: -13),
            CGAffineTransformMakeShear(0.4, -1.2),
            CGAffineTransformMakeTranslation(-120, 480),
        ]
        for t in cases {
            let inv = CGAffineTransformInvert(t)
            assertTransform(t.concatenating(inv), 1, 0, 0, 1, 0, 0, accuracy: 1e-12)
            assertTransform(inv.concatenating(t), 1, 0, 0, 1, 0, 0, accuracy: 1e-12)
            let p = CGPoint(x: 17.5, y: -3.25)
            assertPoint(p.applying(t).applying(inv), p.x, p.y, accuracy: 1e-12)
        }
    }

    func testInvertExactValues() {
        // [1 2; 3 4] has det -2; its inverse is [-2 1; 1.5 -0.5]; t = -(5, 6)·inverse = (1, -2).
        assertTransform(CGAffineTransformInvert(CGAffineTransformMake(1, 2, 3, 4, 5, 6)), -2, 1, 1.5, -0.5, 1, -2, accuracy: exact)
        assertTransform(CGAffineTransformInvert(CGAffineTransformMakeScale(4, 0.5)), 0.25, 0, 0, 2, 0, 0, accuracy: 0)
        assertTransform(CGAffineTransformInvert(CGAffineTransformMakeTranslation(3, -9)), 1, 0, 0, 1, -3, 9, accuracy: 0)
    }

    /// Singular relative to the scale: rows of length 1e6 that are parallel but for 1e-9 have a
    /// determinant of about 1e-3, and no useful inverse; a uniform scale of 1e-8 has one.
    func testInvertDecidesSingularityRelativeToScale() {
        let nearlyParallel = CGAffineTransform(a: 1e6, b: 1e6, c: 1e6, d: 1e6 + 1e-9, tx: 0, ty: 0)
        XCTAssertNotEqual(nearlyParallel.a * nearlyParallel.d - nearlyParallel.b * nearlyParallel.c, 0)
        XCTAssertEqual(CGAffineTransformInvert(nearlyParallel), nearlyParallel)
        assertTransform(CGAffineTransformInvert(CGAffineTransform(a: 1e-8, b: 0, c: 0, d: 1e-8, tx: 1, ty: 2)),
                        1e8, 0, 0, 1e8, -1e8, -2e8, accuracy: 1e-6)
    }

    func testInvertOfSingularReturnsItUnchanged() {
        let singular = [
            CGAffineTransformMakeScale(0, 1),
            CGAffineTransformMake(1, 2, 2, 4, 7, 8),
            CGAffineTransformMake(0, 0, 0, 0, 3, 4),
        ]
        for t in singular {
            XCTAssertEqual(CGAffineTransformInvert(t), t)
            XCTAssertEqual(t.inverted(), t)
        }
    }

    // MARK: Sizes and rectangles

    func testSizeApplyIgnoresTranslation() {
        let t = CGAffineTransformMake(2, 1, 3, 4, 100, 200)
        let s = CGSizeApplyAffineTransform(CGSize(width: 10, height: 20), t)
        // width = a·w + c·h = 20 + 60; height = b·w + d·h = 10 + 80.
        XCTAssertEqual(s.width, 80)
        XCTAssertEqual(s.height, 90)
        let flipped = CGSize(width: 10, height: 20).applying(CGAffineTransformMakeScale(-1, 1))
        XCTAssertEqual(flipped.width, -10)
        XCTAssertEqual(flipped.height, 20)
    }

    func testRectApplyIsBoundingBoxOfCorners() {
        let r = CGRectApplyAffineTransform(CGRect(x: 0, y: 0, width: 100, height: 100), CGAffineTransformMakeRotation(.pi / 4))
        let h = 100 / (2.0).squareRoot()
        XCTAssertEqual(r.minX, -h, accuracy: trig)
        XCTAssertEqual(r.minY, 0, accuracy: trig)
        XCTAssertEqual(r.width, 2 * h, accuracy: trig)
        XCTAssertEqual(r.height, 2 * h, accuracy: trig)

        let s = CGRect(x: 10, y: 20, width: 30, height: 40).applying(CGAffineTransformMakeScale(-2, 0.5).translatedBy(x: 5, y: 5))
        // Corners x: (10+5)·-2 = -30 … (40+5)·-2 = -90; y: (20+5)/2 = 12.5 … (60+5)/2 = 32.5.
        XCTAssertEqual(s, CGRect(x: -90, y: 12.5, width: 60, height: 20))
    }

    func testRectApplyKeepsNullRect() {
        XCTAssertTrue(CGRect.null.applying(CGAffineTransformMakeScale(2, 2)).isNull)
    }
}
