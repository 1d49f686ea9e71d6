import LayerCompositor
import XCTest

/// `Damage.reach`: which damage rectangles each quad's bounds reach, by hand.
final class DamageReachTests: XCTestCase {
    /// Two rectangles far apart, (0..<10, 0..<10) and (100..<140, 60..<70): a quad over the
    /// first reaches bit 0; one in the second's row band and column band but beside it
    /// (140..<150 touches no pixel of it) reaches none; one spanning both reaches both; one
    /// in the first's rows only, none; one with no bounds, none; one below everything, none.
    func testEachQuadReachesTheRectanglesItShares() {
        var damage = Damage()
        damage.add(PixelRect(x0: 0, x1: 10, y0: 0, y1: 10))
        damage.add(PixelRect(x0: 100, x1: 140, y0: 60, y1: 70))
        XCTAssertEqual(damage.rects.count, 2)
        let bounds: [PixelRect?] = [
            PixelRect(x0: 5, x1: 8, y0: 5, y1: 8),
            PixelRect(x0: 140, x1: 150, y0: 60, y1: 70),
            PixelRect(x0: 0, x1: 200, y0: 0, y1: 100),
            PixelRect(x0: 50, x1: 60, y0: 0, y1: 10),
            nil,
            PixelRect(x0: 0, x1: 200, y0: 70, y1: 90),
            PixelRect(x0: 139, x1: 141, y0: 69, y1: 75),
        ]
        XCTAssertEqual(damage.reach(bounds), [0b01, 0, 0b11, 0, 0, 0, 0b10])
        XCTAssertEqual(Damage().reach(bounds), [0, 0, 0, 0, 0, 0, 0], "no damage reaches nothing")
    }
}
