import Foundation
@testable import LayerKitScene
import XCTest
@testable import LayerKitCore

/// SVG path data (SVG 2 §9.3 grammar, §B.2.4 arc conversion) read into and written from `CGPath`.
final class SVGPathTests: XCTestCase {
    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    private func elements(_ d: String, file: StaticString = #filePath, line: UInt = #line) -> [CGPath.Element] {
        do { return try CGPath(svgPathData: d).elements } catch {
            XCTFail("\(d): \(error)", file: file, line: line)
            return []
        }
    }

    private func assertError(_ d: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CGPath(svgPathData: d), d, file: file, line: line) {
            XCTAssertEqual("\($0)", message, file: file, line: line)
        }
    }

    /// The point at parameter `t` of the cubic from `p0`.
    private func cubicPoint(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return p(a * p0.x + b * c1.x + c * c2.x + d * p3.x, a * p0.y + b * c1.y + c * c2.y + d * p3.y)
    }

    /// The cubics of a path that starts with one moveto, each with its start point.
    private func cubics(_ path: [CGPath.Element]) -> [(CGPoint, CGPoint, CGPoint, CGPoint)] {
        guard case .moveTo(var current) = path.first else { return [] }
        return path.dropFirst().compactMap {
            guard case let .curveTo(end, c1, c2) = $0 else { return nil }
            defer { current = end }
            return (current, c1, c2, end)
        }
    }

    // MARK: Commands

    func testEmptyDataIsAnEmptyPath() {
        XCTAssertEqual(elements(""), [])
        XCTAssertEqual(elements(" \n\t"), [])
    }

    func testAbsoluteLinesAndClose() {
        XCTAssertEqual(elements("M 10 20 L 30 40 H 50 V 60 Z"),
                       [.moveTo(p(10, 20)), .lineTo(p(30, 40)), .lineTo(p(50, 40)), .lineTo(p(50, 60)), .closeSubpath])
    }

    func testRelativeLinesAreFromTheCurrentPoint() {
        XCTAssertEqual(elements("m 10 20 l 5 5 h 10 v -20 z"),
                       [.moveTo(p(10, 20)), .lineTo(p(15, 25)), .lineTo(p(25, 25)), .lineTo(p(25, 5)), .closeSubpath])
    }

    func testExtraMovetoPairsAreLinetos() {
        XCTAssertEqual(elements("M 0 0 10 10 20 0"), [.moveTo(p(0, 0)), .lineTo(p(10, 10)), .lineTo(p(20, 0))])
        XCTAssertEqual(elements("m 1 1 2 2 3 3"), [.moveTo(p(1, 1)), .lineTo(p(3, 3)), .lineTo(p(6, 6))])
    }

    func testRepeatedArgumentsRepeatTheCommand() {
        XCTAssertEqual(elements("M0 0 L1 1 2 2 h 1 1 v1,1"),
                       [.moveTo(p(0, 0)), .lineTo(p(1, 1)), .lineTo(p(2, 2)), .lineTo(p(3, 2)), .lineTo(p(4, 2)),
                        .lineTo(p(4, 3)), .lineTo(p(4, 4))])
    }

    func testCubicsAbsoluteAndRelative() {
        XCTAssertEqual(elements("M 0 0 C 10 0 20 10 30 10"),
                       [.moveTo(p(0, 0)), .curveTo(p(30, 10), control1: p(10, 0), control2: p(20, 10))])
        XCTAssertEqual(elements("M 5 5 c 10 0 20 10 30 10"),
                       [.moveTo(p(5, 5)), .curveTo(p(35, 15), control1: p(15, 5), control2: p(25, 15))])
    }

    func testSmoothCubicReflectsThePreviousControlPoint() {
        XCTAssertEqual(elements("M 0 0 C 10 0 20 10 30 10 S 50 20 60 20"),
                       [.moveTo(p(0, 0)), .curveTo(p(30, 10), control1: p(10, 0), control2: p(20, 10)),
                        .curveTo(p(60, 20), control1: p(40, 10), control2: p(50, 20))])
        XCTAssertEqual(elements("M 0 0 c 10 0 20 10 30 10 s 20 10 30 10"),
                       [.moveTo(p(0, 0)), .curveTo(p(30, 10), control1: p(10, 0), control2: p(20, 10)),
                        .curveTo(p(60, 20), control1: p(40, 10), control2: p(50, 20))])
    }

    func testSmoothCubicAfterAnotherCommandStartsAtTheCurrentPoint() {
        XCTAssertEqual(elements("M 0 0 L 10 0 S 20 10 30 10"),
                       [.moveTo(p(0, 0)), .lineTo(p(10, 0)), .curveTo(p(30, 10), control1: p(10, 0), control2: p(20, 10))])
        // A quadratic's control point is not a cubic's: S after Q does not reflect it.
        XCTAssertEqual(elements("M 0 0 Q 5 5 10 0 S 20 10 30 10").last,
                       .curveTo(p(30, 10), control1: p(10, 0), control2: p(20, 10)))
    }

    func testQuadraticsAndSmoothQuadratics() {
        XCTAssertEqual(elements("M 0 0 Q 10 10 20 0 T 40 0"),
                       [.moveTo(p(0, 0)), .quadCurveTo(p(20, 0), control: p(10, 10)), .quadCurveTo(p(40, 0), control: p(30, -10))])
        XCTAssertEqual(elements("M 0 0 q 10 10 20 0 t 20 0 t 20 0"),
                       [.moveTo(p(0, 0)), .quadCurveTo(p(20, 0), control: p(10, 10)), .quadCurveTo(p(40, 0), control: p(30, -10)),
                        .quadCurveTo(p(60, 0), control: p(50, 10))])
        XCTAssertEqual(elements("M 0 0 L 10 0 T 20 0").last, .quadCurveTo(p(20, 0), control: p(10, 0)))
    }

    func testDrawingAfterCloseStartsAtTheSubpathStart() {
        XCTAssertEqual(elements("M 10 10 L 20 10 Z L 30 30"),
                       [.moveTo(p(10, 10)), .lineTo(p(20, 10)), .closeSubpath, .moveTo(p(10, 10)), .lineTo(p(30, 30))])
        XCTAssertEqual(elements("M 10 10 L 20 10 z m 5 5 l 1 0"),
                       [.moveTo(p(10, 10)), .lineTo(p(20, 10)), .closeSubpath, .moveTo(p(15, 15)), .lineTo(p(16, 15))])
    }

    func testNumberForms() {
        XCTAssertEqual(elements("M-.5.5"), [.moveTo(p(-0.5, 0.5))])
        XCTAssertEqual(elements("M1e2,1E-1"), [.moveTo(p(100, 0.1))])
        XCTAssertEqual(elements("M1e-3-2"), [.moveTo(p(0.001, -2))])
        XCTAssertEqual(elements("M+1.5e+1 2."), [.moveTo(p(15, 2))])
        XCTAssertEqual(elements("M0.5.5.5.5"), [.moveTo(p(0.5, 0.5)), .lineTo(p(0.5, 0.5))])
        XCTAssertEqual(elements("M 1 , 2"), [.moveTo(p(1, 2))])
    }

    // MARK: Arcs

    func testSemicircleArcEndsExactlyAndStaysOnTheCircle() throws {
        let path = elements("M 0 0 A 50 50 0 0 1 100 0")
        let pieces = cubics(path)
        XCTAssertEqual(pieces.count, 2, "180° in 90° pieces")
        XCTAssertEqual(pieces.last?.3, p(100, 0), "the end point is exact")
        // sweep 1 turns towards positive angles: through (50, -50), above the chord on screen.
        XCTAssertEqual(pieces[0].3.x, 50, accuracy: 1e-9)
        XCTAssertEqual(pieces[0].3.y, -50, accuracy: 1e-9)
        for (p0, c1, c2, p3) in pieces {
            for t in [0.25, 0.5, 0.75] as [CGFloat] {
                let q = cubicPoint(p0, c1, c2, p3, t)
                let r = ((q.x - 50) * (q.x - 50) + q.y * q.y).squareRoot()
                XCTAssertEqual(r, 50, accuracy: t == 0.5 ? 1e-3 : 0.02, "point at t = \(t)")
            }
        }
    }

    func testSweepFlagZeroGoesTheOtherWay() {
        let pieces = cubics(elements("M 0 0 A 50 50 0 0 0 100 0"))
        XCTAssertEqual(pieces[0].3.y, 50, accuracy: 1e-9)
    }

    func testRelativeArcWithPackedFlags() {
        // rx 1, ry 1, rotation 0, large-arc 0, sweep 1, to (10, 10) relative: the flags and the
        // x coordinate run together, and the radii are too small, so they grow to half the chord.
        let packed = elements("M5 5a1 1 0 0110 10")
        let spaced = elements("M 5 5 A 1 1 0 0 1 15 15")
        XCTAssertEqual(packed, spaced)
        let pieces = cubics(packed)
        XCTAssertEqual(pieces.count, 2)
        XCTAssertEqual(pieces.last?.3, p(15, 15))
        let mid = pieces[0].3, r = (200 as CGFloat).squareRoot() / 2
        XCTAssertEqual(((mid.x - 10) * (mid.x - 10) + (mid.y - 10) * (mid.y - 10)).squareRoot(), r, accuracy: 1e-9)
    }

    func testLargeArcFlagPicksTheLongWay() {
        // Circles of radius 50 through (0, 0) and (50, 50) give a 90° and a 270° arc.
        XCTAssertEqual(cubics(elements("M 0 0 A 50 50 0 0 1 50 50")).count, 1)
        let large = cubics(elements("M 0 0 A 50 50 0 1 1 50 50"))
        XCTAssertEqual(large.count, 3)
        XCTAssertEqual(large.last?.3, p(50, 50))
    }

    func testRotatedEllipticalArcStaysOnTheEllipse() {
        // rx 100 along the x axis turned by 30°, ry 50; the centre is found from the endpoints.
        let path = elements("M 0 0 A 100 50 30 1 0 60 80")
        let pieces = cubics(path)
        XCTAssertEqual(pieces.last?.3, p(60, 80))
        // Recover the centre from the end points of each piece: all lie on one ellipse, so
        // solve with the first three and check the rest through the midpoints.
        let phi = 30 * CGFloat.pi / 180
        func onEllipse(_ q: CGPoint, centre c: CGPoint) -> CGFloat {
            let dx = q.x - c.x, dy = q.y - c.y
            let u = cos(phi) * dx + sin(phi) * dy, v = -sin(phi) * dx + cos(phi) * dy
            return (u * u) / (100 * 100) + (v * v) / (50 * 50)
        }
        // The SVG notes' centre for these parameters, computed independently here.
        let x1p = cos(phi) * -30 + sin(phi) * -40, y1p = -sin(phi) * -30 + cos(phi) * -40
        let num = 100 * 100 * 50 * 50 - 100 * 100 * y1p * y1p - 50 * 50 * x1p * x1p
        let den = 100 * 100 * y1p * y1p + 50 * 50 * x1p * x1p
        let k = (num / den).squareRoot()  // large-arc 1 != sweep 0: positive root
        let cxp = k * 100 * y1p / 50, cyp = -k * 50 * x1p / 100
        let centre = p(cos(phi) * cxp - sin(phi) * cyp + 30, sin(phi) * cxp + cos(phi) * cyp + 40)
        for (p0, c1, c2, p3) in pieces {
            XCTAssertEqual(onEllipse(p0, centre: centre), 1, accuracy: 1e-9)
            XCTAssertEqual(onEllipse(cubicPoint(p0, c1, c2, p3, 0.5), centre: centre), 1, accuracy: 1e-6)
        }
    }

    func testDegenerateArcs() {
        XCTAssertEqual(elements("M 0 0 A 0 10 0 0 1 20 0"), [.moveTo(p(0, 0)), .lineTo(p(20, 0))], "a zero radius is a line")
        XCTAssertEqual(elements("M 0 0 A 10 10 0 0 1 0 0"), [.moveTo(p(0, 0))], "equal end points draw nothing")
        XCTAssertEqual(elements("M 0 0 A -50 -50 0 0 1 100 0"), elements("M 0 0 A 50 50 0 0 1 100 0"), "radii signs are dropped")
    }

    /// Found by the fuzzer: squares of 1e300 overflow, the centre was NaN and the piece count
    /// trapped. An arc that doubles cannot place draws its chord.
    func testArcsBeyondDoublesRangeDrawTheirChord() {
        XCTAssertEqual(elements("M 1e154 0 A 13e00 1e300 0 1 1 -1e300 1e-300"),
                       [.moveTo(p(1e154, 0)), .lineTo(p(-1e300, 1e-300))])
        XCTAssertEqual(elements("M 0 0 A 1e-300 1e-300 0 0 1 1e300 0"), [.moveTo(p(0, 0)), .lineTo(p(1e300, 0))])
        XCTAssertEqual(elements("M 0 0 A 10 10 1e308 0 1 20 0"), [.moveTo(p(0, 0)), .lineTo(p(20, 0))],
                       "a rotation of 1e308 degrees has no cosine in doubles")
    }

    // MARK: Errors

    func testErrorsNameTheOffsetAndWhatWasExpected() {
        assertError("L 0 0", "at character 0: expected a moveto command (M or m) to start the path, found 'L'")
        assertError("10 10", "at character 0: expected a moveto command (M or m) to start the path, found '1'")
        assertError("M 0", "at character 3: expected a number, found end of data")
        assertError("M 0 0 x 1", "at character 6: expected a path command (one of MLHVCSQTAZ, either case), found 'x'")
        assertError("M 0 0 L 1 1,", "at character 12: expected a number after ',', found end of data")
        assertError("M 0 0, L 1 1", "at character 7: expected a number after ',', found 'L'")
        assertError("M,0 0", "at character 1: expected a number, found ','")
        assertError("M 1e 2", "at character 4: expected the digits of an exponent, found ' '")
        assertError("M 0 0 A 1 1 0 2 0 5 5", "at character 14: expected a flag (0 or 1), found '2'")
        assertError("M 0 0 Z 5 5", "at character 8: expected a path command after Z, found '5'")
        assertError("M 1e999 0", "at character 2: expected a number within the range of a double, found '1'")
        assertError("M 0 0 L .", "at character 8: expected a number, found '.'")
    }

    // MARK: Writing

    func testWritingUsesAbsoluteCommandsAndShortNumbers() {
        let path = CGMutablePath()
        path.move(to: p(0, 0))
        path.addLine(to: p(10, 0.5))
        path.addQuadCurve(to: p(20, 0), control: p(15, -5))
        path.addCurve(to: p(30, 10), control1: p(1e-5, 2), control2: p(-3, 1e20))
        path.closeSubpath()
        XCTAssertEqual(path.svgPathData, "M 0 0 L 10 0.5 Q 15 -5 20 0 C 1e-05 2 -3 1e+20 30 10 Z")
    }

    func testWrittenDataReadsBackExactly() throws {
        let path = CGMutablePath()
        path.move(to: p(1.0 / 3, -.pi))
        path.addLine(to: p(0.1 + 0.2, 1e-300))
        path.addCurve(to: p(2.5e15, -7), control1: p(123456.789, 1.0 / 7), control2: p(-0.000123, 5))
        path.addQuadCurve(to: p(9, 9), control: p(CGFloat.ulpOfOne, 1 + CGFloat.ulpOfOne))
        path.closeSubpath()
        path.move(to: p(40, 40))
        path.addEllipse(in: CGRect(x: 1.1, y: 2.2, width: 3.3, height: 4.4))
        XCTAssertEqual(try CGPath(svgPathData: path.svgPathData), path)
    }

    func testASubpathWithoutMovetoIsWrittenWithOne() throws {
        let path = CGMutablePath()
        path.addLine(to: p(5, 5))
        path.move(to: p(1, 1))
        path.addLine(to: p(2, 1))
        path.closeSubpath()
        path.addLine(to: p(3, 3))
        XCTAssertEqual(path.svgPathData, "M 0 0 L 5 5 M 1 1 L 2 1 Z M 1 1 L 3 3")
    }
}
