@testable import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The CPU renderer blends interior runs of colour quads as one colour and skips the holes of
/// aliased borders without evaluating the per-pixel function: every pixel it treats so must be
/// one the per-pixel function covers fully (interior) or not at all (hole).
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
        return root
    }

    func testRunsAgreeWithThePerPixelFunction() throws {
        let list = displayList(scene(), width: 200, height: 200)
        guard case .quads(let quads) = list.passes.last!.content else { return XCTFail("no quads") }
        var (interior, hole, halfPlaneQuads) = (0, 0, 0)
        for q in quads {
            let p = try XCTUnwrap(PreparedQuad(q, textures: { _ in fatalError("no images") }, passes: [], width: 200, height: 200))
            if !p.pixelHalfPlanes.isEmpty { halfPlaneQuads += 1 }
            for py in p.y0..<p.y1 {
                let run = p.hole?.inside(row: Double(py) + 0.5) ?? p.interiorRun(py)
                for px in run.clamped(to: 0..<200) {
                    let (cx, cy) = (Double(px) + 0.5, Double(py) + 0.5)
                    let l = try XCTUnwrap(QuadCoverage.local(q.inverse, cx, cy))
                    let kept = p.pixelHalfPlanes.allSatisfy { $0.a * cx + $0.b * cy + $0.c >= 0 }
                    var cov = p.coverage(l.x, l.y, jac: (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy))
                    if !kept { cov = 0 }
                    if p.hole != nil {
                        XCTAssertEqual(cov, 0, "\(q.label) hole pixel \(px),\(py)")
                        hole += 1
                    } else {
                        XCTAssertEqual(cov, 1, "\(q.label) interior pixel \(px),\(py)")
                        interior += 1
                    }
                }
            }
        }
        // Not vacuous: most of the layers' area goes through the runs, split pieces included.
        XCTAssertGreaterThan(interior, 10_000)
        XCTAssertGreaterThan(hole, 2_000)
        XCTAssertGreaterThan(halfPlaneQuads, 0)
    }
}
