import Foundation
@testable import LayerCompositor
import LayerKitCore
import XCTest

/// `QuadCoverage.RoundedRect` answers pixels well clear of a circular corner's curve without
/// the distance's divisions: those answers must be what the distance rule gives, to the bit.
final class QuadCoverageTests: XCTestCase {
    /// A 24 × 24 square with circular corners of radius 4.8 and aliased straight edges, as the
    /// multiply bench scene draws: the max x max y corner's centre is (19.2, 19.2).
    private let square = QuadCoverage.RoundedRect(minX: 0, minY: 0, maxX: 24, maxY: 24,
                                                  corners: Corners(radius: 4.8), antialiased: false)
    private let identity = (1.0, 0.0, 0.0, 1.0)

    func testCircularCornerByHand() {
        // (22.5, 22.5): 3.3·√2 = 4.6669 from the centre, 0.1331 inside the curve, one pixel
        // per unit: 0.5 + 0.1331.
        XCTAssertEqual(square.coverage(x: 22.5, y: 22.5, jac: identity), 0.5 + 4.8 - 3.3 * 2.0.squareRoot(), accuracy: 1e-12)
        // (20, 20): 1.13 from the centre, far inside; (23.9, 23.9): 6.65, far outside; (23.9, 12):
        // beside the corner, inside the aliased straight edge; (24.2, 12) outside it.
        XCTAssertEqual(square.coverage(x: 20, y: 20, jac: identity), 1)
        XCTAssertEqual(square.coverage(x: 23.9, y: 23.9, jac: identity), 0)
        XCTAssertEqual(square.coverage(x: 23.9, y: 12, jac: identity), 1)
        XCTAssertEqual(square.coverage(x: 24.2, y: 12, jac: identity), 0)
        // Half the pixel density (a local unit is two pixels): the same point 0.1331 inside is
        // 0.2662 pixels inside.
        XCTAssertEqual(square.coverage(x: 22.5, y: 22.5, jac: (0.5, 0, 0, 0.5)),
                       0.5 + (4.8 - 3.3 * 2.0.squareRoot()) / 0.5, accuracy: 1e-12)
    }

    /// Every corner point, under Jacobians of rotations, stretches, shears, a vanishing scale
    /// and none, gives exactly the distance rule's clamp(0.5 − d/g, 0, 1), computed here in
    /// full: the distance d = l − a to the circle and g the pixel-space length of its gradient.
    func testCircularCornerShortcutGivesTheDistanceRule() {
        let angle = 57.49888152940127 * Double.pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let jacobians = [identity, (c, s, -s, c), (2 * c, 2 * s, -0.5 * s, 0.5 * c), (0.9, 0.3, -0.2, 1.1),
                         (3.0, 0, 0, 3.0), (1e-120, 0, 0, 1e-120), (0, 0, 0, 0)]
        var (zeros, ones, fractions) = (0, 0, 0)
        for jac in jacobians {
            for i in 0..<200 {
                for j in 0..<200 {
                    let x = 12 + Double(i) * 0.0731, y = 12 + Double(j) * 0.0677
                    let qx = abs(x - 12) - 7.2, qy = abs(y - 12) - 7.2
                    let expected: Double
                    if qx > 0 && qy > 0 {
                        let l = (qx * qx + qy * qy).squareRoot()
                        let d = l - 4.8, nx = qx / l, ny = qy / l
                        let gx = nx * jac.0 + ny * jac.1, gy = nx * jac.2 + ny * jac.3
                        let g = (gx * gx + gy * gy).squareRoot()
                        expected = g > 0 ? min(max(0.5 - d / g, 0), 1) : (d <= 0 ? 1 : 0)
                    } else {
                        expected = x < 24 && y < 24 ? 1 : 0
                    }
                    let got = square.coverage(x: x, y: y, jac: jac)
                    XCTAssertEqual(got, expected, "(\(x), \(y)) under \(jac)")
                    if got == 0 { zeros += 1 } else if got == 1 { ones += 1 } else { fractions += 1 }
                }
            }
        }
        // Not vacuous: all three kinds of answer, the fringe included.
        XCTAssertGreaterThan(zeros, 10_000)
        XCTAssertGreaterThan(ones, 10_000)
        XCTAssertGreaterThan(fractions, 1_000)
    }
}
