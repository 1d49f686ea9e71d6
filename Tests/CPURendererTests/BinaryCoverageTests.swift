@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A quad whose coverage is only ever 0 or 1 (aliased edges, square corners, no rounded clips)
/// is prepared without its shape's `RoundedRect`s: `PreparedQuad.coverage` then answers with the
/// half-open inside test, less a border's hole.
final class BinaryCoverageTests: XCTestCase {
    private func prepared(_ configure: (CALayer) -> Void) throws -> PreparedQuad {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        configure(l)
        root.addSublayer(l)
        let quads = displayList(root, width: 100, height: 100).canvas.quads
        XCTAssertEqual(quads.count, 1)
        return try XCTUnwrap(PreparedQuad(quads[0], textures: { _ in fatalError("no images") }, passes: [], width: 100, height: 100))
    }

    func testASquareIsItsHalfOpenRectangle() throws {
        let p = try prepared { $0.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        XCTAssertTrue(p.binaryCoverage)
        let jac = (1.0, 0.0, 0.0, 1.0)
        for (x, y, expected) in [(0.0, 20.0, 1.0), (39.99, 20, 1), (40, 20, 0), (-0.01, 20, 0), (20, 0, 1), (20, 40, 0)] {
            XCTAssertEqual(p.coverage(x, y, jac: jac), expected, "(\(x), \(y))")
        }
    }

    /// A border 5 wide: covered from 0 to 5 and from 35 to 40; the hole 5..<35 square.
    func testABorderLeavesItsHole() throws {
        let p = try prepared {
            $0.borderWidth = 5
            $0.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        }
        XCTAssertEqual(p.binaryBorderWidth, 5)
        let jac = (1.0, 0.0, 0.0, 1.0)
        for (x, y, expected) in [(0.0, 20.0, 1.0), (4.99, 20, 1), (5, 20, 0), (34.99, 20, 0), (35, 20, 1), (39.99, 20, 1),
                                 (40, 20, 0), (20, 4.99, 1), (20, 5, 0), (5, 4.99, 1)] {
            XCTAssertEqual(p.coverage(x, y, jac: jac), expected, "(\(x), \(y))")
        }
    }

    /// A border 20 wide on a 40-point square leaves no hole: 0 + 20 < 40 − 20 fails.
    func testABorderThatFillsHasNoHole() throws {
        let p = try prepared {
            $0.borderWidth = 20
            $0.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        }
        XCTAssertEqual(p.binaryBorderWidth, 20)
        XCTAssertEqual(p.coverage(20, 20, jac: (1, 0, 0, 1)), 1)
        XCTAssertEqual(p.coverage(0, 0, jac: (1, 0, 0, 1)), 1)
    }
}
