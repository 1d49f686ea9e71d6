@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The CPU renderer visits, on each row, only the columns of `PreparedQuad.row`'s span: every
/// pixel the per-pixel function covers at all must lie inside them, whatever the transform
/// (rotated, squashed, sheared, in perspective) and shape (aliased or antialiased edges,
/// rounded corners, borders).
final class SpanTests: XCTestCase {
    private func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 240)
        let transforms: [CATransform3D] = [
            CATransform3DMakeRotation(0.4, 0, 0, 1),
            CATransform3DConcat(CATransform3DMakeScale(5, 0.4, 1), CATransform3DMakeRotation(0.6, 0, 0, 1)),
            CATransform3DConcat(CATransform3DMakeRotation(0.3, 0, 0, 1), CATransform3DMakeScale(0.25, 3, 1)),
            {
                var p = CATransform3DMakeRotation(1.1, 1, 0.2, 0)
                p.m34 = -1.0 / 150
                return p
            }(),
        ]
        for (i, t) in transforms.enumerated() {
            for (j, (radius, border, aa)) in [(0.0, 0.0, true), (14.0, 0.0, false), (14.0, 0.0, true), (8.0, 5.0, true)].enumerated() {
                let l = CALayer()
                l.frame = CGRect(x: 20 + Double(j) * 55, y: 20 + Double(i) * 55, width: 36, height: 36)
                l.transform = t
                l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
                l.cornerRadius = CGFloat(radius)
                l.borderWidth = CGFloat(border)
                l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                l.allowsEdgeAntialiasing = aa
                root.addSublayer(l)
            }
        }
        // Antialiased squares with nearly horizontal and vertical edges at fractional
        // positions: their fringe rows lie just outside the outline.
        for k in 0..<8 {
            let l = CALayer()
            l.frame = CGRect(x: 10 + Double(k) * 28 + Double(k) * 0.13, y: 228.3 - Double(k) * 0.11, width: 20, height: 9.4)
            l.transform = CATransform3DMakeRotation(CGFloat(k - 4) * 0.01, 0, 0, 1)
            l.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
            l.allowsEdgeAntialiasing = true
            root.addSublayer(l)
        }
        return root
    }

    func testEveryCoveredPixelIsInsideItsRowSpan() throws {
        XCTAssertGreaterThan(try coveredInSpans(scene(), size: 240), 10_000)
    }

    /// Aliased edges: a row's span is the outline's crossing (a rounding allowance wide) and,
    /// for rounded corners of an affine quad, the boxes around them. Many small rounded squares
    /// (the multiply bench scene's kind), turned, scaled, squashed up to 1 : 0.45 and at
    /// fractional positions, some with only two corners rounded; and borders in perspective
    /// (the cube-grid bench scene's kind).
    func testAliasedEdgesKeepEveryCoveredPixelInTheirSpans() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        for i in 0..<300 {
            let l = CALayer()
            let scale = 0.6 + Double(i % 7) * 0.25, squash = [1, 0.7, 0.45][i % 3]
            l.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
            l.position = CGPoint(x: 12 + Double(i % 20) * 19.37, y: 12 + Double(i / 20) * 19.13)
            l.transform = CATransform3DConcat(CATransform3DMakeScale(CGFloat(scale), CGFloat(scale * squash), 1),
                                              CATransform3DMakeRotation(CGFloat(i) * 0.7391, 0, 0, 1))
            l.cornerRadius = 4.8
            l.cornerCurve = i % 5 == 0 ? .continuous : .circular
            if i % 4 == 1 { l.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner] }
            l.backgroundColor = CGColor(red: 0.5, green: 0.2, blue: 0.7, alpha: 0.8)
            root.addSublayer(l)
        }
        var p = CATransform3DIdentity
        p.m34 = -1 / 500
        for i in 0..<20 {
            let l = CALayer()
            l.frame = CGRect(x: 10 + Double(i % 10) * 38.3, y: 300.4 + Double(i / 10) * 45, width: 30, height: 30)
            l.transform = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(i) * 0.41, 1, 0.6, 0.2), p)
            l.backgroundColor = CGColor(red: 0.2, green: 0.7, blue: 0.4, alpha: 1)
            l.borderWidth = 1
            l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            root.addSublayer(l)
        }
        XCTAssertGreaterThan(try coveredInSpans(root, size: 400, near: 4), 100_000)
    }

    /// Layers drawn at random (`randomLayers`): every covered pixel of a quad's pixel bounds
    /// lies in its row's span. (Within the bounds: a piece's bounds are its own outline's, and an
    /// antialiased corner's fringe can reach beyond them, by half the stretch in pixels, which
    /// neither backend draws.)
    func testRandomLayersKeepEveryCoveredPixelInTheirSpans() throws {
        XCTAssertGreaterThan(try coveredInSpans(randomLayers(size: 300), size: 300, near: 0), 50_000)
    }

    /// Fails for any pixel outside its row's span that the per-pixel function covers (of the
    /// whole canvas, or of the quad's pixel bounds widened by `near` pixels); returns how many
    /// pixels the spans hold.
    private func coveredInSpans(_ layer: CALayer, size: Int, near: Int? = nil) throws -> Int {
        let list = displayList(layer, width: Double(size), height: Double(size))
        var covered = 0
        for q in list.canvas.quads {
            // Nothing of a quad wholly behind the eye or off the canvas is drawn.
            guard let p = PreparedQuad(q, textures: { _ in fatalError("no images") }, passes: [], width: size, height: size) else { continue }
            let (xs, ys) = near.map { n in (max(p.x0 - n, 0)..<min(p.x1 + n, size), max(p.y0 - n, 0)..<min(p.y1 + n, size)) }
                ?? (0..<size, 0..<size)
            for py in ys {
                let span = p.row(py)?.span ?? 0..<0
                for px in xs where !span.contains(px) {
                    let (cx, cy) = (Double(px) + 0.5, Double(py) + 0.5)
                    // A piece of a split layer owns only the pixels on its side of each cut.
                    guard p.pixelHalfPlanes.allSatisfy({ $0.a * cx + $0.b * cy + $0.c >= 0 }),
                          let l = QuadCoverage.local(q.inverse, cx, cy) else { continue }
                    let cov = p.coverage(l.x, l.y, jac: (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy))
                    XCTAssertEqual(cov, 0, "\(q.label) pixel \(px),\(py) is covered (\(cov)) outside \(span)")
                    if cov > 0 { return covered }
                }
                covered += span.count
            }
        }
        return covered
    }

    /// Spans and interior runs round their ends with `roundedDown` and `roundedUp`: floor and
    /// ceiling, negative values and whole numbers included.
    func testRoundingToColumns() {
        let values = [-2.5, -2, -0.5, -1e-9, 0, 1e-9, 0.5, 2, 2.5, 999_999.25]
        XCTAssertEqual(values.map(\.roundedDown), [-3, -2, -1, -1, 0, 0, 0, 2, 2, 999_999])
        XCTAssertEqual(values.map(\.roundedUp), [-2, -2, 0, 0, 0, 1, 1, 2, 3, 1_000_000])
    }
}
