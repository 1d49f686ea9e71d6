import Foundation
import XCTest
@testable import LayerKitCore

/// `CATransform3D` against Core Animation's definitions (research/ca-semantics.md §5): row
/// vectors (`p' = p · M`, translation in m41…m43), `Concat(a, b) = a · b` applies `a` first,
/// `Translate/Scale/Rotate(t, …) = op · t`, a positive z rotation maps (1, 0) to (cos, sin).
final class CATransform3DTests: XCTestCase {
    private let exact = 1e-9
    private let trig = 1e-6

    private func assertMatrix(_ t: CATransform3D, _ expected: [CGFloat], accuracy: CGFloat,
                              file: StaticString = #filePath, line: UInt = #line) {
        precondition(expected.count == 16)
        let names = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                     "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44"]
        let got = t.entries
        for i in 0..<16 {
            XCTAssertEqual(got[i], expected[i], accuracy: accuracy, "\(names[i]) of \(t)", file: file, line: line)
        }
    }

    private func assertMatrix(_ t: CATransform3D, _ u: CATransform3D, accuracy: CGFloat,
                              file: StaticString = #filePath, line: UInt = #line) {
        assertMatrix(t, u.entries, accuracy: accuracy, file: file, line: line)
    }

    private let identityEntries: [CGFloat] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    /// The book's Listing 5.5 transform: `t = Identity; t.m34 = -1/d; t = Rotate(t, angle, 0, 1, 0)`.
    private func perspectiveRotationY(_ angle: CGFloat, d: CGFloat) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1 / d
        return CATransform3DRotate(t, angle, 0, 1, 0)
    }

    private func apply(_ t: CATransform3D, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat) {
        let h = t.apply(x: x, y: y, z: z)
        return (h.x / h.w, h.y / h.w, h.z / h.w)
    }

    // MARK: Construction and storage

    func testIdentity() {
        assertMatrix(CATransform3DIdentity, identityEntries, accuracy: 0)
        XCTAssertEqual(CATransform3D(), CATransform3DIdentity)
        XCTAssertTrue(CATransform3DIsIdentity(CATransform3DIdentity))
        var t = CATransform3DIdentity
        t.m34 = -0.002
        XCTAssertFalse(CATransform3DIsIdentity(t))
        XCTAssertFalse(t.isIdentity)
    }

    func testEntriesAreInMemoryOrder() {
        let values: [CGFloat] = (1...16).map { CGFloat($0) }
        let t = CATransform3D(values)
        XCTAssertEqual(t.m11, 1)
        XCTAssertEqual(t.m12, 2)
        XCTAssertEqual(t.m13, 3)
        XCTAssertEqual(t.m14, 4)
        XCTAssertEqual(t.m21, 5)
        XCTAssertEqual(t.m22, 6)
        XCTAssertEqual(t.m23, 7)
        XCTAssertEqual(t.m24, 8)
        XCTAssertEqual(t.m31, 9)
        XCTAssertEqual(t.m32, 10)
        XCTAssertEqual(t.m33, 11)
        XCTAssertEqual(t.m34, 12)
        XCTAssertEqual(t.m41, 13)
        XCTAssertEqual(t.m42, 14)
        XCTAssertEqual(t.m43, 15)
        XCTAssertEqual(t.m44, 16)
        XCTAssertEqual(t.entries, values)
        XCTAssertTrue(CATransform3DEqualToTransform(t, CATransform3D(values)))
        XCTAssertFalse(CATransform3DEqualToTransform(t, CATransform3DIdentity))
    }

    func testMakeTranslationAndScaleEntries() {
        assertMatrix(CATransform3DMakeTranslation(3, -4, 5), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1], accuracy: 0)
        assertMatrix(CATransform3DMakeScale(2, -3, 0.5), [2, 0, 0, 0, 0, -3, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1], accuracy: 0)
    }

    func testApplyUsesRowVectorConvention() {
        // [x y z 1] · T: translation is added; w stays 1.
        let h = CATransform3DMakeTranslation(10, 20, 30).apply(x: 1, y: 2, z: 3)
        XCTAssertEqual(h.x, 11)
        XCTAssertEqual(h.y, 22)
        XCTAssertEqual(h.z, 33)
        XCTAssertEqual(h.w, 1)
        // w = x·m14 + y·m24 + z·m34 + m44.
        let t = CATransform3D((1...16).map { CGFloat($0) })
        let g = t.apply(x: 1, y: 10, z: 100)
        // x = 1·1 + 10·5 + 100·9 + 13, y = 2 + 60 + 1000 + 14, z = 3 + 70 + 1100 + 15,
        // w = 4 + 80 + 1200 + 16.
        XCTAssertEqual(g.x, 964)
        XCTAssertEqual(g.y, 1076)
        XCTAssertEqual(g.z, 1188)
        XCTAssertEqual(g.w, 1300)
    }

    func testPerspectivePutsTheEyeAtD() {
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        // w = 1 − z/d: a point 100 towards the viewer is magnified by 1/0.8.
        let h = p.apply(x: 40, y: -20, z: 100)
        XCTAssertEqual(h.w, 0.8, accuracy: exact)
        let q = apply(p, 40, -20, 100)
        XCTAssertEqual(q.x, 50, accuracy: exact)
        XCTAssertEqual(q.y, -25, accuracy: exact)
        // At z = d, w is 0.
        XCTAssertEqual(p.apply(x: 1, y: 1, z: 500).w, 0, accuracy: exact)
    }

    // MARK: Rotation

    func testPositiveZRotationMapsXAxisToCosSin() {
        for angle in [0.3, 1.0, CGFloat.pi / 6, 2.5, -0.7] {
            let r = CATransform3DMakeRotation(angle, 0, 0, 1)
            assertMatrix(r, [cos(angle), sin(angle), 0, 0, -sin(angle), cos(angle), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], accuracy: trig)
            let p = apply(r, 1, 0, 0)
            XCTAssertEqual(p.x, cos(angle), accuracy: trig)
            XCTAssertEqual(p.y, sin(angle), accuracy: trig)
            XCTAssertEqual(p.z, 0, accuracy: trig)
        }
        // A quarter turn takes +x (right) to +y (down on screen): clockwise.
        let q = apply(CATransform3DMakeRotation(.pi / 2, 0, 0, 1), 100, 0, 0)
        XCTAssertEqual(q.x, 0, accuracy: trig)
        XCTAssertEqual(q.y, 100, accuracy: trig)
    }

    func testRotationAboutXAndY() {
        // About x by 90°: +y goes to +z, +z to −y.
        let rx = CATransform3DMakeRotation(.pi / 2, 1, 0, 0)
        assertMatrix(rx, [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1], accuracy: trig)
        // About y by 90°: +x goes to −z, +z to +x.
        let ry = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        assertMatrix(ry, [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], accuracy: trig)
        let p = apply(ry, 1, 0, 0)
        XCTAssertEqual(p.x, 0, accuracy: trig)
        XCTAssertEqual(p.z, -1, accuracy: trig)
    }

    func testRotationAboutDiagonalPermutesAxes() {
        // 120° about (1, 1, 1): x → y → z → x, from the axis-angle formula with c = −1/2.
        let r = CATransform3DMakeRotation(2 * .pi / 3, 1, 1, 1)
        assertMatrix(r, [0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1], accuracy: trig)
    }

    func testRotationGeneralAxisMatchesAxisAngleFormula() {
        // Axis (1, 2, 2)/3, angle 0.9, written out from the formula in ca-semantics §5.
        let (x, y, z): (CGFloat, CGFloat, CGFloat) = (1.0 / 3, 2.0 / 3, 2.0 / 3)
        let s = sin(0.9), c = cos(0.9), t = 1 - c
        let expected: [CGFloat] = [
            c + t * x * x, t * x * y + s * z, t * x * z - s * y, 0,
            t * x * y - s * z, c + t * y * y, t * y * z + s * x, 0,
            t * x * z + s * y, t * y * z - s * x, c + t * z * z, 0,
            0, 0, 0, 1,
        ]
        assertMatrix(CATransform3DMakeRotation(0.9, 1, 2, 2), expected, accuracy: trig)
        // The axis is normalised: its length does not matter.
        assertMatrix(CATransform3DMakeRotation(0.9, 10, 20, 20), expected, accuracy: trig)
        assertMatrix(CATransform3DMakeRotation(0.9, 0, 0, 7), CATransform3DMakeRotation(0.9, 0, 0, 1), accuracy: trig)
        // A rotation keeps lengths: determinant 1.
        XCTAssertEqual(CATransform3DMakeRotation(0.9, 1, 2, 2).determinant, 1, accuracy: trig)
    }

    func testRotationAboutZeroAxisIsIdentity() {
        XCTAssertEqual(CATransform3DMakeRotation(0.8, 0, 0, 0), CATransform3DIdentity)
        let t = CATransform3DMakeTranslation(5, 6, 7)
        XCTAssertEqual(CATransform3DRotate(t, 1.3, 0, 0, 0), t)
    }

    // MARK: Order of operations

    func testConcatAppliesFirstArgumentFirst() {
        let t = CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 2))
        XCTAssertEqual(t.m41, 20)
        assertMatrix(t, [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 20, 0, 0, 1], accuracy: 0)
        let u = CATransform3DConcat(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeTranslation(10, 0, 0))
        XCTAssertEqual(u.m41, 10)
        XCTAssertEqual(CATransform3DMakeTranslation(10, 0, 0).concatenating(CATransform3DMakeScale(2, 2, 2)), t)
    }

    func testConcatIsTheMatrixProduct() {
        let a = CATransform3D((1...16).map { CGFloat($0) })
        let b = CATransform3D((1...16).map { CGFloat(17 - $0) })
        // (a·b)[i][j] = Σk a[i][k]·b[k][j], written out for a few entries.
        let p = CATransform3DConcat(a, b)
        // Row 1 of a = 1 2 3 4; column 1 of b = 16 12 8 4 → 16 + 24 + 24 + 16 = 80.
        XCTAssertEqual(p.m11, 80)
        // Row 2 of a = 5 6 7 8; column 3 of b = 14 10 6 2 → 70 + 60 + 42 + 16 = 188.
        XCTAssertEqual(p.m23, 188)
        // Row 4 of a = 13 14 15 16; column 4 of b = 13 9 5 1 → 169 + 126 + 75 + 16 = 386.
        XCTAssertEqual(p.m44, 386)
        // Row 3 of a = 9 10 11 12; column 2 of b = 15 11 7 3 → 135 + 110 + 77 + 36 = 358.
        XCTAssertEqual(p.m32, 358)
        XCTAssertEqual(CATransform3DConcat(a, CATransform3DIdentity), a)
        XCTAssertEqual(CATransform3DConcat(CATransform3DIdentity, a), a)
    }

    func testRotateEqualsConcatOfMakeRotationThenT() {
        let t = CATransform3DConcat(CATransform3DMakeScale(2, 0.5, 3), CATransform3DMakeTranslation(10, -20, 30))
        var withPerspective = t
        withPerspective.m34 = -1.0 / 400
        for base in [t, withPerspective, CATransform3DIdentity] {
            assertMatrix(CATransform3DRotate(base, 0.6, 1, 2, 3), CATransform3DConcat(CATransform3DMakeRotation(0.6, 1, 2, 3), base), accuracy: 1e-12)
            assertMatrix(CATransform3DTranslate(base, 4, 5, 6), CATransform3DConcat(CATransform3DMakeTranslation(4, 5, 6), base), accuracy: 1e-12)
            assertMatrix(CATransform3DScale(base, 4, 5, 6), CATransform3DConcat(CATransform3DMakeScale(4, 5, 6), base), accuracy: 1e-12)
        }
        // The rotation happens before the translation that was already there.
        let p = apply(CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 0, 1), 1, 0, 0)
        XCTAssertEqual(p.x, 100, accuracy: trig)
        XCTAssertEqual(p.y, 1, accuracy: trig)
        // Translate(t) translates first, then t scales the translation.
        let q = CATransform3DTranslate(CATransform3DMakeScale(2, 3, 4), 1, 1, 1)
        assertMatrix(q, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 3, 4, 1], accuracy: 0)
    }

    /// The book's Listing 5.2 written with the 3D functions.
    func testBookCompositeExample() {
        var t = CATransform3DIdentity
        t = CATransform3DScale(t, 0.5, 0.5, 1)
        t = CATransform3DRotate(t, .pi / 6, 0, 0, 1)
        t = CATransform3DTranslate(t, 200, 0, 0)
        let p = apply(t, 0, 0, 0)
        XCTAssertEqual(p.x, 86.60, accuracy: 0.01)
        XCTAssertEqual(p.y, 50.00, accuracy: 0.01)
        XCTAssertEqual(p.x, 100 * (3.0).squareRoot() / 2, accuracy: trig)
        XCTAssertEqual(p.y, 50, accuracy: trig)
        // And it is the affine version, entry for entry.
        var a = CGAffineTransformIdentity
        a = CGAffineTransformScale(a, 0.5, 0.5)
        a = CGAffineTransformRotate(a, .pi / 6)
        a = CGAffineTransformTranslate(a, 200, 0)
        assertMatrix(t, CATransform3DMakeAffineTransform(a), accuracy: exact)
        XCTAssertTrue(CATransform3DIsAffine(t))
    }

    // MARK: Inversion

    func testInvertRoundTrips() {
        let general = CATransform3D([2, 0.5, -1, 0.01, 0.3, 1.5, 0.2, -0.02, -0.4, 0.6, 3, 0.005, 10, -20, 5, 1.2])
        let cases: [CATransform3D] = [
            CATransform3DMakeTranslation(30, -40, 50),
            CATransform3DTranslate(CATransform3DRotate(CATransform3DMakeScale(2, 3, 0.5), 0.7, 1, 1, 0), 12, -7, 3),
            perspectiveRotationY(.pi / 4, d: 500),
            CATransform3DConcat(perspectiveRotationY(-1.1, d: 300), CATransform3DMakeTranslation(100, 50, -20)),
            general,
        ]
        for m in cases {
            let inv = CATransform3DInvert(m)
            assertMatrix(CATransform3DConcat(m, inv), identityEntries, accuracy: 1e-12)
            assertMatrix(CATransform3DConcat(inv, m), identityEntries, accuracy: 1e-12)
            XCTAssertEqual(m.inverted(), inv)
        }
    }

    func testInvertExactValues() {
        assertMatrix(CATransform3DInvert(CATransform3DMakeTranslation(10, 20, 30)), CATransform3DMakeTranslation(-10, -20, -30), accuracy: exact)
        assertMatrix(CATransform3DInvert(CATransform3DMakeScale(2, 4, 8)), CATransform3DMakeScale(0.5, 0.25, 0.125), accuracy: exact)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        var q = CATransform3DIdentity
        q.m34 = 1.0 / 500
        assertMatrix(CATransform3DInvert(p), q, accuracy: exact)
        assertMatrix(CATransform3DInvert(CATransform3DMakeRotation(0.5, 0, 0, 1)), CATransform3DMakeRotation(-0.5, 0, 0, 1), accuracy: trig)
    }

    func testInvertOfSingularReturnsItUnchanged() {
        let singular: [CATransform3D] = [
            CATransform3DMakeScale(0, 1, 1),
            CATransform3DMakeScale(1, 1, 0),
            CATransform3D([1, 2, 3, 4, 2, 4, 6, 8, 0, 0, 1, 0, 5, 6, 7, 1]),
            CATransform3D([CGFloat](repeating: 0, count: 16)),
        ]
        for m in singular {
            XCTAssertEqual(m.determinant, 0, accuracy: exact)
            XCTAssertEqual(CATransform3DInvert(m), m)
        }
    }

    /// Singularity is the determinant relative to the matrix's scale: a uniform scale of 1e-4
    /// (determinant 1e-16 · 1e4 = 1e-12) inverts to a scale of 1e4, and two nearly parallel rows
    /// of length 1e6 (determinant about 1e3, far from 0 in absolute terms) are singular.
    func testInvertDecidesSingularityRelativeToScale() {
        let tiny = CATransform3DMakeScale(1e-4, 1e-4, 1e-4)
        XCTAssertLessThanOrEqual(abs(tiny.determinant), 1e-12)
        assertMatrix(CATransform3DInvert(tiny), CATransform3DMakeScale(1e4, 1e4, 1e4), accuracy: 1e-8)
        let tinyMoved = CATransform3DTranslate(CATransform3DMakeScale(1e-5, 1e-5, 1e-5), 30, 40, 0)
        assertMatrix(CATransform3DConcat(tinyMoved, CATransform3DInvert(tinyMoved)), identityEntries, accuracy: 1e-9)
        let nearlyParallel = CATransform3D([1e6, 1e6, 0, 0, 1e6, 1e6 + 1e-9, 0, 0, 0, 0, 1e6, 0, 0, 0, 0, 1])
        XCTAssertGreaterThan(abs(nearlyParallel.determinant), 1e-12)
        XCTAssertEqual(CATransform3DInvert(nearlyParallel), nearlyParallel)
    }

    /// An involution is its own inverse, which is no reason to call it singular.
    func testInvertOfAnInvolutionIsItself() {
        for m in [CATransform3DMakeScale(-1, -1, 1), CATransform3DMakeScale(-1, 1, 1),
                  CATransform3DTranslate(CATransform3DMakeScale(-1, 1, 1), 15, 0, 0)] {
            assertMatrix(CATransform3DInvert(m), m, accuracy: 0)
            assertMatrix(CATransform3DConcat(m, m), identityEntries, accuracy: 0)
        }
    }

    func testDeterminant() {
        XCTAssertEqual(CATransform3DMakeScale(2, 3, 4).determinant, 24, accuracy: exact)
        XCTAssertEqual(CATransform3DMakeScale(-1, 1, 1).determinant, -1, accuracy: exact)
        XCTAssertEqual(CATransform3DMakeTranslation(7, 8, 9).determinant, 1, accuracy: exact)
        var p = CATransform3DIdentity
        p.m34 = -0.002
        XCTAssertEqual(p.determinant, 1, accuracy: exact)
        // A matrix with a non-trivial last column: det [[2,0,0,1],[0,3,0,0],[0,0,4,0],[5,0,0,1]]
        // = 3·4·(2·1 − 1·5) = −36.
        XCTAssertEqual(CATransform3D([2, 0, 0, 1, 0, 3, 0, 0, 0, 0, 4, 0, 5, 0, 0, 1]).determinant, -36, accuracy: exact)
    }

    // MARK: Affine

    func testIsAffine() {
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DIdentity))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeTranslation(10, 20, 0)))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeScale(2, -3, 1)))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeRotation(0.7, 0, 0, 1)))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeAffineTransform(CGAffineTransformMake(1, 2, 3, 4, 5, 6))))

        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeTranslation(0, 0, 5)), "m43")
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeScale(1, 1, 2)), "m33")
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeRotation(0.7, 1, 0, 0)), "m23, m32")
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeRotation(0.7, 0, 1, 0)), "m13, m31")
        let single: [(String, WritableKeyPath<CATransform3D, CGFloat>)] = [
            ("m13", \.m13), ("m14", \.m14), ("m23", \.m23), ("m24", \.m24),
            ("m31", \.m31), ("m32", \.m32), ("m34", \.m34), ("m43", \.m43),
        ]
        for (name, key) in single {
            var t = CATransform3DIdentity
            t[keyPath: key] = 0.25
            XCTAssertFalse(CATransform3DIsAffine(t), name)
        }
        var w = CATransform3DIdentity
        w.m44 = 2
        XCTAssertFalse(CATransform3DIsAffine(w), "m44")
    }

    func testMakeAffineTransformMapsEntries() {
        let t = CATransform3DMakeAffineTransform(CGAffineTransformMake(1, 2, 3, 4, 5, 6))
        assertMatrix(t, [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1], accuracy: 0)
        // Points map the same way in both types.
        let a = CGAffineTransformMake(0.5, -1.5, 2, 0.25, 30, -7)
        let p = CGPoint(x: 3, y: -11).applying(a)
        let h = CATransform3DMakeAffineTransform(a).apply(x: 3, y: -11, z: 0)
        XCTAssertEqual(h.x, p.x, accuracy: exact)
        XCTAssertEqual(h.y, p.y, accuracy: exact)
        XCTAssertEqual(h.w, 1)
    }

    func testGetAffineTransformReadsEntriesBack() {
        let a = CGAffineTransformMake(1, 2, 3, 4, 5, 6)
        XCTAssertEqual(CATransform3DGetAffineTransform(CATransform3DMakeAffineTransform(a)), a)
        // Only m11, m12, m21, m22, m41, m42 are read.
        let t = CATransform3D((1...16).map { CGFloat($0) })
        XCTAssertEqual(CATransform3DGetAffineTransform(t), CGAffineTransform(a: 1, b: 2, c: 5, d: 6, tx: 13, ty: 14))
    }

    // MARK: Flattening and back faces

    func testFlattenedZeroesZCoupling() {
        let t = CATransform3D((1...16).map { CGFloat($0) })
        assertMatrix(t.flattened, [1, 2, 0, 4, 5, 6, 0, 8, 0, 0, 1, 0, 13, 14, 0, 16], accuracy: 0)
        // Perspective (m14, m24, m44) survives; m34 does not.
        var p = CATransform3DIdentity
        p.m34 = -0.01
        XCTAssertEqual(p.flattened, CATransform3DIdentity)
    }

    func testPlaneHomographyKeepsRowsAndColumnsOneTwoFour() {
        let t = CATransform3D((1...16).map { CGFloat($0) })
        assertMatrix(t.planeHomography, [1, 2, 0, 4, 5, 6, 0, 8, 0, 0, 1, 0, 13, 14, 0, 16], accuracy: 0)
        // For points of the z = 0 plane it maps x, y and w like the full matrix.
        let m = perspectiveRotationY(0.8, d: 300)
        let full = m.apply(x: 12, y: -30, z: 0), plane = m.planeHomography.apply(x: 12, y: -30, z: 0)
        XCTAssertEqual(full.x, plane.x, accuracy: exact)
        XCTAssertEqual(full.y, plane.y, accuracy: exact)
        XCTAssertEqual(full.w, plane.w, accuracy: exact)
    }

    func testIsBackFacing() {
        XCTAssertFalse(CATransform3DIdentity.isBackFacing)
        XCTAssertTrue(CATransform3DMakeRotation(.pi, 0, 1, 0).isBackFacing, "180° about y")
        XCTAssertTrue(CATransform3DMakeRotation(.pi, 1, 0, 0).isBackFacing, "180° about x")
        XCTAssertFalse(CATransform3DMakeRotation(.pi, 0, 0, 1).isBackFacing, "180° about z stays facing")
        XCTAssertFalse(CATransform3DMakeScale(-1, 1, 1).isBackFacing, "a mirror image is not a back face")
        XCTAssertFalse(CATransform3DMakeScale(1, -1, 1).isBackFacing)
        XCTAssertFalse(CATransform3DMakeScale(-1, -1, 1).isBackFacing)
        XCTAssertFalse(CATransform3DMakeRotation(.pi / 4, 0, 1, 0).isBackFacing)
        XCTAssertFalse(CATransform3DMakeRotation(0.49 * .pi, 0, 1, 0).isBackFacing)
        XCTAssertTrue(CATransform3DMakeRotation(0.51 * .pi, 0, 1, 0).isBackFacing)
        XCTAssertTrue(CATransform3DMakeRotation(3 * .pi / 4, 0, 1, 0).isBackFacing)
        XCTAssertTrue(perspectiveRotationY(.pi, d: 500).isBackFacing, "with perspective")
        XCTAssertFalse(perspectiveRotationY(.pi / 3, d: 500).isBackFacing)
        // Turning around twice faces the viewer again.
        XCTAssertFalse(CATransform3DRotate(CATransform3DMakeRotation(.pi, 0, 1, 0), .pi, 1, 0, 0).isBackFacing)
    }
}
