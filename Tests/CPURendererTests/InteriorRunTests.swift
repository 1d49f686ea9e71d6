@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The CPU renderer blends interior runs of colour quads (and of aliased borders, either side of
/// their holes) as one colour and skips the holes of aliased borders without evaluating the
/// per-pixel function: every pixel it treats so must be one the per-pixel function covers fully
/// (solid) or not at all (hole).
final class InteriorRunTests: XCTestCase {
    /// Rounded and square colour layers, borders, rotated and in perspective, two of them
    /// intersecting in a transform layer (so that the split pieces carry half-plane clips).
    private func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let space = CATransformLayer()
        space.frame = root.bounds
        var p = CATransform3DIdentity
        p.m34 = -1 / 300
        space.sublayerTransform = p
        root.addSublayer(space)
        for (i, (radius, border, angle, axis)) in [(0.0, 0.0, 0.0, (0.0, 0.0, 1.0)), (9.0, 0.0, 0.5, (0.0, 0.0, 1.0)),
                                                    (0.0, 3.0, 0.7, (1.0, 0.0, 0.0)), (30.0, 0.0, 1.0, (0.0, 1.0, 0.0)),
                                                    (6.0, 2.0, -0.9, (0.0, 1.0, 0.0)), (0.0, 4.0, 0.4, (1.0, 1.0, 0.0))].enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 20 + Double(i % 3) * 45, y: 30 + Double(i / 3) * 70, width: 70, height: 50)
            l.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: i % 2 == 0 ? 1 : 0.6)
            l.cornerRadius = CGFloat(radius)
            l.borderWidth = CGFloat(border)
            l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            l.transform = CATransform3DMakeRotation(CGFloat(angle), CGFloat(axis.0), CGFloat(axis.1), CGFloat(axis.2))
            space.addSublayer(l)
        }
        // Affine but stretched and turned, with continuous corners: the interior is the
        // rectangle less corner triangles sized by the Jacobian.
        let stretched = CALayer()
        stretched.frame = CGRect(x: 110, y: 140, width: 60, height: 40)
        stretched.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.2, alpha: 0.8)
        stretched.cornerRadius = 12
        stretched.cornerCurve = .continuous
        stretched.transform = CATransform3DConcat(CATransform3DMakeScale(1.3, 0.7, 1), CATransform3DMakeRotation(0.35, 0, 0, 1))
        space.addSublayer(stretched)
        return root
    }

    func testRunsAgreeWithThePerPixelFunction() throws {
        let counts = try check(scene(), size: 200)
        // Not vacuous: most of the layers' area goes through the runs, split pieces included.
        XCTAssertGreaterThan(counts.interior, 10_000)
        XCTAssertGreaterThan(counts.hole, 2_000)
        XCTAssertGreaterThan(counts.ring, 500, "the borders' pixels beside their holes")
        XCTAssertGreaterThan(counts.halfPlaneQuads, 0)
        XCTAssertGreaterThanOrEqual(counts.cutCorners, 2, "the rotated and the stretched rounded layers")
    }

    /// Many small rounded squares, turned, scaled and at fractional positions (the multiply
    /// bench scene's kind): their pixel centres fall everywhere near the corners' cuts, where a
    /// cut too close to the curve would take in pixels of coverage under 1.
    func testCutCornersOfManyTurnedSquares() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        for i in 0..<400 {
            let l = CALayer()
            let scale = 0.6 + Double(i % 7) * 0.25
            l.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
            l.position = CGPoint(x: 12 + Double(i % 20) * 19.37, y: 12 + Double(i / 20) * 19.13)
            l.transform = CATransform3DConcat(CATransform3DMakeScale(CGFloat(scale), CGFloat(scale * (i % 3 == 0 ? 0.7 : 1)), 1),
                                              CATransform3DMakeRotation(CGFloat(i) * 0.7391, 0, 0, 1))
            l.cornerRadius = 4.8
            l.cornerCurve = i % 5 == 0 ? .continuous : .circular
            l.backgroundColor = CGColor(red: 0.5, green: 0.2, blue: 0.7, alpha: 0.8)
            root.addSublayer(l)
        }
        let counts = try check(root, size: 400)
        XCTAssertEqual(counts.cutCorners, 400)
        XCTAssertGreaterThan(counts.interior, 100_000)
    }

    /// Layers drawn at random (`randomLayers`): rows' solid and hole runs hold exactly.
    func testRandomLayersRunsAgreeWithThePerPixelFunction() throws {
        let counts = try check(randomLayers(size: 300), size: 300)
        XCTAssertGreaterThan(counts.interior, 20_000)
        XCTAssertGreaterThan(counts.hole, 1_000)
        XCTAssertGreaterThan(counts.ring, 200)
    }

    /// Checks every interior and hole pixel of `layer`'s quads against the per-pixel function.
    private func check(_ layer: CALayer, size: Int) throws -> (interior: Int, hole: Int, ring: Int, halfPlaneQuads: Int, cutCorners: Int) {
        let list = displayList(layer, width: Double(size), height: Double(size))
        guard case .quads(let quads) = list.passes.last!.content else {
            XCTFail("no quads")
            return (0, 0, 0, 0, 0)
        }
        var (interior, hole, ring, halfPlaneQuads, cutCorners) = (0, 0, 0, 0, 0)
        for q in quads {
            // Nothing of a quad wholly behind the eye or off the canvas is drawn.
            guard let p = PreparedQuad(q, textures: { _ in fatalError("no images") }, passes: [], width: size, height: size) else { continue }
            if !p.pixelHalfPlanes.isEmpty { halfPlaneQuads += 1 }
            if case .polygons(let polygons) = p.interior, polygons.count == 1, polygons[0].edges.count > 4 { cutCorners += 1 }
            for py in p.y0..<p.y1 {
                guard let row = p.row(py) else { continue }
                for (run, isHole) in [(row.solid, false), (row.skipped, true), (row.solidAfterHole, false)] {
                    for px in run.clamped(to: 0..<size) {
                        let (cx, cy) = (Double(px) + 0.5, Double(py) + 0.5)
                        let l = try XCTUnwrap(QuadCoverage.local(q.inverse, cx, cy))
                        let kept = p.pixelHalfPlanes.allSatisfy { $0.a * cx + $0.b * cy + $0.c >= 0 }
                        var cov = p.coverage(l.x, l.y, jac: (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy))
                        if !kept { cov = 0 }
                        if isHole {
                            XCTAssertEqual(cov, 0, "\(q.label) hole pixel \(px),\(py)")
                            hole += 1
                        } else {
                            XCTAssertEqual(cov, 1, "\(q.label) solid pixel \(px),\(py)")
                            if p.hole == nil { interior += 1 } else { ring += 1 }
                        }
                    }
                }
            }
        }
        return (interior, hole, ring, halfPlaneQuads, cutCorners)
    }
}
