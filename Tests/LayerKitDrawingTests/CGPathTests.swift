import Foundation
import LayerKitCore
import XCTest

/// `CGPath` and `CGMutablePath` as Core Graphics defines them: reference semantics, the
/// builders with their transforms, arcs in every form, bounds, containment, stroking and
/// dashing copies. Every expected number is worked out by hand from the geometry.
final class CGPathTests: XCTestCase {
    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// The handle length of a cubic quarter circle of radius 1: 4/3·tan(π/8).
    private let k = 4.0 / 3.0 * tan(Double.pi / 8)

    /// The elements as `applyWithBlock` reports them: type and points.
    private func elements(_ path: CGPath) -> [(CGPathElementType, [CGPoint])] {
        var result: [(CGPathElementType, [CGPoint])] = []
        path.applyWithBlock { e in
            let count = [.moveToPoint: 1, .addLineToPoint: 1, .addQuadCurveToPoint: 2, .addCurveToPoint: 3][e.pointee.type] ?? 0
            result.append((e.pointee.type, (0..<count).map { e.pointee.points[$0] }))
        }
        return result
    }

    private func assertElements(_ path: CGPath, _ expected: [(CGPathElementType, [CGPoint])], accuracy: CGFloat = 1e-12,
                                file: StaticString = #filePath, line: UInt = #line) {
        let actual = elements(path)
        XCTAssertEqual(actual.map(\.0), expected.map(\.0), file: file, line: line)
        for (a, e) in zip(actual, expected) {
            XCTAssertEqual(a.1.count, e.1.count, file: file, line: line)
            for (pa, pe) in zip(a.1, e.1) { assertPoint(pa, pe, accuracy: accuracy, file: file, line: line) }
        }
    }

    private func assertPoint(_ a: CGPoint, _ e: CGPoint, accuracy: CGFloat = 1e-12, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, e.x, accuracy: accuracy, "x of \(a) vs \(e)", file: file, line: line)
        XCTAssertEqual(a.y, e.y, accuracy: accuracy, "y of \(a) vs \(e)", file: file, line: line)
    }

    private func assertRect(_ a: CGRect, _ e: CGRect, accuracy: CGFloat = 1e-12, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in [(a.minX, e.minX), (a.minY, e.minY), (a.width, e.width), (a.height, e.height)] {
            XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(e)", file: file, line: line)
        }
    }

    // MARK: Reference semantics

    func testAMutablePathIsOneObjectAndCopiesDoNotFollowIt() throws {
        let path = CGMutablePath()
        path.move(to: p(1, 2))
        let alias = path
        alias.addLine(to: p(3, 4))
        XCTAssertEqual(path.currentPoint, p(3, 4), "both names are the same path")

        let frozen = try XCTUnwrap(path.copy())
        XCTAssertFalse(frozen is CGMutablePath)
        XCTAssertTrue(frozen.copy() === frozen, "copying an immutable path gives the path itself, as in Core Graphics")
        path.addLine(to: p(5, 6))
        XCTAssertEqual(frozen.currentPoint, p(3, 4))
        XCTAssertEqual(elements(frozen).count, 2)

        let again = try XCTUnwrap(frozen.mutableCopy())
        again.closeSubpath()
        XCTAssertEqual(elements(frozen).count, 2, "a mutable copy does not write back")
        XCTAssertNotEqual(again, frozen)
        XCTAssertEqual(again.currentPoint, p(1, 2), "closing returns to the subpath's start")
    }

    func testEqualityIsByElements() {
        let r = CGRect(x: 1, y: 2, width: 3, height: 4)
        let built = CGMutablePath()
        built.addRect(r)
        XCTAssertEqual(built, CGPath(rect: r))
        XCTAssertEqual(built.hashValue, CGPath(rect: r).hashValue)
        XCTAssertNotEqual(built, CGPath(rect: r.insetBy(dx: 0.5, dy: 0)))
        XCTAssertEqual(CGPath(), CGMutablePath())
        XCTAssertTrue(CGPath().isEmpty)
        XCTAssertFalse(built.isEmpty)
    }

    func testShapeLayersAndShadowPathsKeepWhatWasAssigned() {
        let r1 = CGRect(x: 0, y: 0, width: 10, height: 10), r2 = CGRect(x: 20, y: 0, width: 5, height: 5)
        let path = CGMutablePath()
        path.addRect(r1)
        let shape = CAShapeLayer()
        shape.path = path
        shape.shadowPath = path
        let before = shape.snapshot()
        path.addRect(r2)
        XCTAssertEqual(shape.path, CGPath(rect: r1), "Core Animation copies the path on assignment")
        XCTAssertEqual(shape.shadowPath, CGPath(rect: r1))
        XCTAssertFalse(shape.path is CGMutablePath)
        XCTAssertEqual(shape.snapshot(), before)
    }

    // MARK: Building

    func testConstructorsAndTransforms() throws {
        var scale = CGAffineTransform(scaleX: 2, y: 3)
        assertRect(CGPath(rect: CGRect(x: 1, y: 1, width: 2, height: 1), transform: &scale).boundingBox, CGRect(x: 2, y: 3, width: 4, height: 3))
        var shift = CGAffineTransform(translationX: 1, y: 1)
        // An ellipse's control points lie on its bounding box, so both boxes are the rectangle.
        assertRect(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 2), transform: &shift).boundingBox, CGRect(x: 1, y: 1, width: 4, height: 2))
        assertRect(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 2), transform: nil).boundingBoxOfPath, CGRect(x: 0, y: 0, width: 4, height: 2))

        // Corners 1 wide and 2 high on a 10 x 6 rectangle: the top edge runs from x = 1 to 9,
        // the right edge from y = 2 to 4; the first corner's handles are k·1 and k·2 long.
        let rounded = elements(CGPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 6), cornerWidth: 1, cornerHeight: 2, transform: nil))
        XCTAssertEqual(rounded.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                          .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint, .closeSubpath])
        assertPoint(rounded[0].1[0], p(1, 0))
        assertPoint(rounded[1].1[0], p(9, 0))
        assertPoint(rounded[2].1[0], p(9 + k, 0))
        assertPoint(rounded[2].1[1], p(10, 2 - 2 * k))
        assertPoint(rounded[2].1[2], p(10, 2))
        assertPoint(rounded[3].1[0], p(10, 4))

        let path = CGMutablePath()
        path.addLines(between: [p(0, 0), p(1, 0), p(1, 1)], transform: CGAffineTransform(translationX: 5, y: 0))
        path.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1)])
        path.addQuadCurve(to: p(4, 4), control: p(3, 4), transform: CGAffineTransform(scaleX: -1, y: 1))
        let moved = try XCTUnwrap(path.copy(using: &shift))
        assertElements(moved.copy(using: nil)!, elements(moved))
        let list = elements(moved)
        XCTAssertEqual(list.count, 3 + 5 + 5 + 1)
        assertPoint(list[0].1[0], p(6, 1))
        assertPoint(list[2].1[0], p(7, 2))
        assertPoint(list[8].1[0], p(3, 3), accuracy: 0)
        XCTAssertEqual(list[13].0, .addQuadCurveToPoint)
        assertPoint(list[13].1[0], p(-2, 5))
        assertPoint(list[13].1[1], p(-3, 5))

        let other = CGMutablePath()
        other.move(to: p(9, 9))
        other.addPath(path, transform: CGAffineTransform(translationX: 1, y: 1))
        XCTAssertEqual(other, {
            let m = CGMutablePath()
            m.move(to: p(9, 9))
            m.addPath(moved)
            return m
        }())
        XCTAssertEqual(path.mutableCopy(using: &shift), moved.mutableCopy())
    }

    func testApplyWithBlockReportsControlPointsBeforeTheEnd() {
        let path = CGMutablePath()
        path.move(to: p(0, 0))
        path.addLine(to: p(1, 0))
        path.addQuadCurve(to: p(2, 2), control: p(2, 0))
        path.addCurve(to: p(5, 5), control1: p(3, 3), control2: p(4, 4))
        path.closeSubpath()
        assertElements(path, [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(1, 0)]), (.addQuadCurveToPoint, [p(2, 0), p(2, 2)]),
                              (.addCurveToPoint, [p(3, 3), p(4, 4), p(5, 5)]), (.closeSubpath, [])], accuracy: 0)
        XCTAssertEqual(CGPathElementType.addCurveToPoint.rawValue, 3, "Core Graphics' numbering")
    }

    func testIsRect() {
        var r = CGRect.null
        XCTAssertTrue(CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4)).isRect(&r))
        XCTAssertEqual(r, CGRect(x: 1, y: 2, width: 3, height: 4))
        // Turned the other way, with an explicit line back to the start.
        let other = CGMutablePath()
        other.addLines(between: [p(0, 0), p(0, 5), p(2, 5), p(2, 0), p(0, 0)])
        other.closeSubpath()
        XCTAssertTrue(other.isRect(&r))
        XCTAssertEqual(r, CGRect(x: 0, y: 0, width: 2, height: 5))
        XCTAssertTrue(other.isRect(nil))
        // Mirrored it is still a rectangle; rotated 45° it is not; open, or two, is not one.
        var mirror = CGAffineTransform(scaleX: -1, y: 1)
        XCTAssertTrue(CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 1), transform: &mirror).isRect(&r))
        XCTAssertEqual(r, CGRect(x: -2, y: 0, width: 2, height: 1))
        var eighth = CGAffineTransform(rotationAngle: .pi / 4)
        XCTAssertFalse(CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 1), transform: &eighth).isRect(nil))
        let open = CGMutablePath()
        open.addLines(between: [p(0, 0), p(1, 0), p(1, 1), p(0, 1)])
        XCTAssertFalse(open.isRect(nil))
        let two = CGMutablePath()
        two.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 0, width: 1, height: 1)])
        XCTAssertFalse(two.isRect(nil))
        XCTAssertFalse(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 2, height: 2)).isRect(nil))
        XCTAssertFalse(CGPath().isRect(nil))
    }

    // MARK: Arcs

    func testArcByCenterAndAngles() {
        // A quarter from angle 0 to π/2 about (10, 10), radius 5: one cubic from (15, 10) to
        // (10, 15) with handles 5k long along the tangents (+y at the start, -x at the end).
        let path = CGMutablePath()
        path.addArc(center: p(10, 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        assertElements(path, [(.moveToPoint, [p(15, 10)]), (.addCurveToPoint, [p(15, 10 + 5 * k), p(10 + 5 * k, 15), p(10, 15)])])

        // The same angles clockwise go the long way: three quarters, towards decreasing angles,
        // through (10, 5) and (5, 10); on a path with a current point a line leads in.
        let long = CGMutablePath()
        long.move(to: p(0, 0))
        long.addArc(center: p(10, 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: true,
                    transform: CGAffineTransform(translationX: 100, y: 0))
        let list = elements(long)
        XCTAssertEqual(list.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint, .addCurveToPoint])
        assertPoint(list[1].1[0], p(115, 10))
        assertPoint(list[2].1[2], p(110, 5))
        assertPoint(list[2].1[0], p(115, 10 - 5 * k))
        assertPoint(list[3].1[2], p(105, 10))
        assertPoint(list[4].1[2], p(110, 15))
        assertPoint(long.currentPoint, p(110, 15))

        // Non-finite angles add nothing.
        long.addArc(center: p(0, 0), radius: 1, startAngle: .nan, endAngle: 1, clockwise: false)
        XCTAssertEqual(elements(long).count, 5)
    }

    func testRelativeArc() {
        // From π/2 turning by -π about the origin, radius 2: (0, 2) through (2, 0) to (0, -2).
        let path = CGMutablePath()
        path.addRelativeArc(center: .zero, radius: 2, startAngle: .pi / 2, delta: -.pi)
        let list = elements(path)
        XCTAssertEqual(list.map(\.0), [.moveToPoint, .addCurveToPoint, .addCurveToPoint])
        assertPoint(list[0].1[0], p(0, 2))
        assertPoint(list[1].1[0], p(2 * k, 2), accuracy: 1e-12)
        assertPoint(list[1].1[2], p(2, 0))
        assertPoint(list[2].1[2], p(0, -2))

        // Three turns draw one: four quarters ending where they began.
        let full = CGMutablePath()
        full.addRelativeArc(center: p(1, 1), radius: 1, startAngle: 0, delta: 6 * .pi)
        XCTAssertEqual(elements(full).count, 5)
        assertPoint(full.currentPoint, p(2, 1))
    }

    func testArcByTangentsEndsAtTheTangentPoints() {
        // From (0, 0) along +x to the corner (10, 0), then along +y: a radius 5 arc touches the
        // first line 5 before the corner, at (5, 0), and the second 5 after it, at (10, 5); its
        // centre is (5, 5), so it is a quarter circle with handles 5k long.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 5)
        assertElements(path, [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(5, 0)]),
                              (.addCurveToPoint, [p(5 + 5 * k, 0), p(10, 5 - 5 * k), p(10, 5)])])
        XCTAssertEqual(path.currentPoint.x, 10, accuracy: 1e-12, "the current point is the second tangent point, not tangent2End")

        // A 135° corner: the tangent points lie r·tan(22.5°) = r(√2 - 1) from it; r = √2 + 1
        // puts them exactly 1 away: (9, 0) and (10 + 1/√2, 1/√2). The arc turns by 45°.
        let obtuse = CGMutablePath()
        obtuse.move(to: .zero)
        obtuse.addArc(tangent1End: p(10, 0), tangent2End: p(20, 10), radius: 2.squareRoot() + 1)
        let list = elements(obtuse)
        XCTAssertEqual(list.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        assertPoint(list[1].1[0], p(9, 0))
        assertPoint(list[2].1[2], p(10 + 0.5.squareRoot(), 0.5.squareRoot()))

        // Under a transform the current point is taken back to user space first.
        let moved = CGMutablePath()
        moved.move(to: p(100, 0))
        moved.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 5, transform: CGAffineTransform(translationX: 100, y: 0))
        assertElements(moved, [(.moveToPoint, [p(100, 0)]), (.addLineToPoint, [p(105, 0)]),
                               (.addCurveToPoint, [p(105 + 5 * k, 0), p(110, 5 - 5 * k), p(110, 5)])])

        // Three points on a line, or a zero radius: a line to tangent1End. No current point:
        // nothing.
        let straight = CGMutablePath()
        straight.move(to: .zero)
        straight.addArc(tangent1End: p(10, 0), tangent2End: p(20, 0), radius: 5)
        straight.addArc(tangent1End: p(10, 10), tangent2End: p(0, 10), radius: 0)
        assertElements(straight, [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(10, 0)]), (.addLineToPoint, [p(10, 10)])])
        let empty = CGMutablePath()
        empty.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 5)
        XCTAssertTrue(empty.isEmpty)
    }

    // MARK: Questions

    func testBoundingBoxHasControlPointsAndBoundingBoxOfPathDoesNot() {
        // The quadratic (0,0)-(5,10)-(10,0) peaks at t = 1/2: y = 2·½·½·10 = 5.
        let quad = CGMutablePath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: p(10, 0), control: p(5, 10))
        assertRect(quad.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
        assertRect(quad.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 5))

        // The cubic (0,0)-(0,10)-(10,10)-(10,0): y = 30t(1 - t), 7.5 at t = 1/2; x rises
        // monotonically from 0 to 10.
        let cubic = CGMutablePath()
        cubic.move(to: .zero)
        cubic.addCurve(to: p(10, 0), control1: p(0, 10), control2: p(10, 10))
        assertRect(cubic.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
        assertRect(cubic.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 7.5))

        XCTAssertTrue(CGPath().boundingBox.isNull)
        XCTAssertTrue(CGPath().boundingBoxOfPath.isNull)
    }

    func testContainsUnderEvenOddAndWinding() {
        // Two squares turned the same way: the inner one is wound twice.
        let same = CGMutablePath()
        same.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        same.addRect(CGRect(x: 2, y: 2, width: 6, height: 6))
        XCTAssertTrue(same.contains(p(5, 5)))
        XCTAssertTrue(same.contains(p(5, 5), using: .winding))
        XCTAssertFalse(same.contains(p(5, 5), using: .evenOdd))
        XCTAssertTrue(same.contains(p(1, 1), using: .evenOdd))
        XCTAssertFalse(same.contains(p(11, 5)))
        XCTAssertFalse(same.contains(p(11, 5), using: .evenOdd))
        // The point is mapped through the transform first: (0, 0) + (5, 5) is the centre.
        XCTAssertFalse(same.contains(.zero, using: .evenOdd, transform: CGAffineTransform(translationX: 5, y: 5)))
        XCTAssertTrue(same.contains(.zero, using: .winding, transform: CGAffineTransform(translationX: 5, y: 5)))

        // The inner square turned the other way cancels: a hole under both rules.
        let opposite = CGMutablePath()
        opposite.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        opposite.addLines(between: [p(2, 2), p(2, 8), p(8, 8), p(8, 2)])
        XCTAssertFalse(opposite.contains(p(5, 5), using: .winding), "an open subpath counts as closed, as for filling")
        XCTAssertFalse(opposite.contains(p(5, 5), using: .evenOdd))

        // A circle of radius 5 about (5, 5): 4.95 from the centre is in, 5.05 is out.
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        let d = 0.5.squareRoot()
        XCTAssertTrue(circle.contains(p(5 + 4.95 * d, 5 + 4.95 * d)))
        XCTAssertFalse(circle.contains(p(5 + 5.05 * d, 5 + 5.05 * d)))
    }

    func testDashingCopy() {
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: p(10, 0))
        // Dashes of 3 with gaps of 2 from 0: [0, 3] and [5, 8]; the next dash would start at 10.
        assertElements(line.copy(dashingWithPhase: 0, lengths: [3, 2]),
                       [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(3, 0)]), (.moveToPoint, [p(5, 0)]), (.addLineToPoint, [p(8, 0)])])
        // A phase of 1 starts 1 into the first dash: [0, 2], [4, 7], [9, 10].
        assertElements(line.copy(dashingWithPhase: 1, lengths: [3, 2]),
                       [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(2, 0)]), (.moveToPoint, [p(4, 0)]), (.addLineToPoint, [p(7, 0)]),
                        (.moveToPoint, [p(9, 0)]), (.addLineToPoint, [p(10, 0)])])
        // An odd pattern repeats: [2] is dash 2, gap 2. Under a transform the pieces move.
        assertElements(line.copy(dashingWithPhase: 0, lengths: [2], transform: CGAffineTransform(translationX: 0, y: 1)),
                       [(.moveToPoint, [p(0, 1)]), (.addLineToPoint, [p(2, 1)]), (.moveToPoint, [p(4, 1)]), (.addLineToPoint, [p(6, 1)]),
                        (.moveToPoint, [p(8, 1)]), (.addLineToPoint, [p(10, 1)])])
        // A pattern that draws solid gives the path.
        XCTAssertEqual(line.copy(dashingWithPhase: 0, lengths: []), line)
        XCTAssertEqual(line.copy(dashingWithPhase: 0, lengths: [0, 0]), line)
        // Each subpath starts the pattern afresh: a 4 x 4 square (perimeter 16) with dashes of
        // 6, gaps of 2 gives [0, 6] round the first corner and [8, 14] round the third.
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4))
        assertElements(square.copy(dashingWithPhase: 0, lengths: [6, 2]),
                       [(.moveToPoint, [p(0, 0)]), (.addLineToPoint, [p(4, 0)]), (.addLineToPoint, [p(4, 2)]),
                        (.moveToPoint, [p(4, 4)]), (.addLineToPoint, [p(0, 4)]), (.addLineToPoint, [p(0, 2)])])
    }

    func testStrokingCopy() {
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: p(10, 0))
        // Width 2 with butt caps: the rectangle 1 either side of the line.
        let butt = line.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        assertRect(butt.boundingBox, CGRect(x: 0, y: -1, width: 10, height: 2))
        XCTAssertTrue(butt.contains(p(5, 0.5)))
        XCTAssertFalse(butt.contains(p(5, 1.5)))
        XCTAssertFalse(butt.contains(p(-0.5, 0)))
        // Square caps reach half the width beyond each end.
        let square = line.copy(strokingWithWidth: 2, lineCap: .square, lineJoin: .miter, miterLimit: 10,
                               transform: CGAffineTransform(translationX: 0, y: 5))
        assertRect(square.boundingBox, CGRect(x: -1, y: 4, width: 12, height: 2))
        XCTAssertTrue(square.contains(p(-0.5, 5)))

        // A right-angle corner with a miter join fills the outer corner square: the stroke of
        // (0,0)-(10,0)-(10,10) at width 2 reaches (11, -1).
        let corner = CGMutablePath()
        corner.addLines(between: [p(0, 0), p(10, 0), p(10, 10)])
        let mitered = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        assertRect(mitered.boundingBox, CGRect(x: 0, y: -1, width: 11, height: 11))
        XCTAssertTrue(mitered.contains(p(10.9, -0.9)))
        let beveled = corner.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .bevel, miterLimit: 10)
        XCTAssertFalse(beveled.contains(p(10.9, -0.9)), "a bevel cuts the corner off")
        XCTAssertTrue(CGPath().copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
    }

    func testHugeAndNonFiniteCoordinatesAnswerWithoutTrapping() {
        // A quadratic 1e300 long, peaking at y = 5e299: the point (5e299, 1e299) lies between
        // the curve and its chord.
        let huge = CGMutablePath()
        huge.move(to: .zero)
        huge.addQuadCurve(to: p(1e300, 0), control: p(5e299, 1e300))
        XCTAssertTrue(huge.contains(p(5e299, 1e299)))
        XCTAssertFalse(huge.contains(p(-1, -1)))
        XCTAssertFalse(huge.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
        XCTAssertFalse(huge.copy(dashingWithPhase: 0, lengths: [1e299, 1e299]).isEmpty)
        // A pen 1e20 wide has round caps of bounded detail.
        let line = CGMutablePath()
        line.addLines(between: [p(0, 0), p(10, 0)])
        let wide = line.copy(strokingWithWidth: 1e20, lineCap: .round, lineJoin: .round, miterLimit: 10)
        XCTAssertEqual(wide.boundingBox.height, 1e20, accuracy: 1e6)

        let infinite = CGMutablePath()
        infinite.move(to: .zero)
        infinite.addCurve(to: p(.infinity, 0), control1: p(1, 1), control2: p(2, .nan))
        XCTAssertFalse(infinite.contains(p(1, 0)))
        _ = infinite.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .round, miterLimit: 10)
        _ = infinite.copy(dashingWithPhase: 0, lengths: [1, 1])
    }

    func testArcsAtDoublesLimitAddALineOrAFullTurn() {
        // Lines 1e-154 radians apart, radius 1e154: the tangent points lie 2e308 along them,
        // beyond Double's range, so the construction overflows. A line to the corner instead,
        // as where no arc exists.
        let tangent = CGMutablePath()
        tangent.move(to: p(1, 1))
        tangent.addArc(tangent1End: p(1e154, 0), tangent2End: p(0, 1e-300), radius: 1e154)
        XCTAssertEqual(tangent.elements.count, 2)
        XCTAssertEqual(tangent.currentPoint, p(1e154, 0))
        // Angles a whole Double range apart, turning clockwise: a full turn (the end angle
        // is infinitely many turns away), four quarter-turn curves back to the start.
        let turn = CGMutablePath()
        turn.addArc(center: .zero, radius: 1, startAngle: -.greatestFiniteMagnitude, endAngle: .greatestFiniteMagnitude,
                    clockwise: true)
        XCTAssertEqual(turn.elements.count, 5)
        XCTAssertEqual(turn.currentPoint, turn.elements.first.map { if case .moveTo(let s) = $0 { s } else { .zero } })
    }
}
