import CPURenderer
import Foundation
import GLRenderer
@testable import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Every debug overlay drawn by GL within the standard budget of the CPU reference: the tints are
/// plain quads, so the backends agree on them as on any quad. The tree has each case the rules
/// tell apart: opaque, translucent, rounded, masked, shadowed and group-opacity layers, and
/// images aligned, at a fractional offset, scaled and rotated; a replicator's instanced copies;
/// and highlighted rectangles.
final class DebugOverlayEquivalenceTests: XCTestCase {
    static func tree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.backgroundColor = rgb(240, 240, 240)
        let image = solidImage(width: 10, height: 10, rgb(0, 160, 80))
        func imageLayer(_ frame: CGRect) -> CALayer {
            let l = CALayer()
            l.frame = frame
            l.contents = image
            return l
        }
        let rounded = solidLayer(CGRect(x: 30, y: 5, width: 20, height: 20), rgb(0, 0, 255))
        rounded.cornerRadius = 6
        let masked = solidLayer(CGRect(x: 55, y: 5, width: 20, height: 20), rgb(255, 0, 0))
        masked.mask = solidLayer(CGRect(x: 3, y: 3, width: 14, height: 14), rgb(0, 0, 0))
        masked.mask?.cornerRadius = 4
        let shadowed = solidLayer(CGRect(x: 85, y: 5, width: 20, height: 20), rgb(255, 200, 0))
        shadowed.shadowOpacity = 0.6
        shadowed.shadowRadius = 3
        let group = solidLayer(CGRect(x: 5, y: 30, width: 25, height: 25), rgb(100, 0, 100))
        group.opacity = 0.7
        group.addSublayer(solidLayer(CGRect(x: 5, y: 5, width: 10, height: 10), rgb(255, 255, 0)))
        let rotated = imageLayer(CGRect(x: 95, y: 40, width: 15, height: 15))
        rotated.transform = CATransform3DMakeRotation(.pi / 7, 0, 0, 1)
        let layers = [
            solidLayer(CGRect(x: 5, y: 5, width: 20, height: 20), rgb(255, 0, 0)),
            solidLayer(CGRect(x: 15, y: 15, width: 20, height: 20), rgb(0, 0, 255, 0.5)),
            rounded, masked, shadowed, group,
            imageLayer(CGRect(x: 40, y: 35, width: 10, height: 10)),
            imageLayer(CGRect(x: 55.5, y: 35.25, width: 10, height: 10)),
            imageLayer(CGRect(x: 70, y: 35, width: 20, height: 20)),
            rotated,
        ]
        for l in layers { root.addSublayer(l) }
        // A replicator whose copies GL draws instanced (a replicated run): the overlay's tints
        // between its quads must not be taken for copies.
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 5, y: 60, width: 100, height: 15)
        replicator.instanceCount = 6
        replicator.instanceTransform = CATransform3DMakeTranslation(16, 0, 0)
        replicator.instanceGreenOffset = -0.15
        replicator.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 12, height: 12), rgb(255, 255, 255, 0.8)))
        root.addSublayer(replicator)
        return root
    }

    func testOverlaysAgree() throws {
        let h = try GLHarness()
        let list = displayList(Self.tree(), width: 120, height: 80, background: rgb(255, 255, 255))
        XCTAssertTrue(list.canvas.quads.contains { $0.copyRun != nil }, "the replicator's copies make a run")
        for overlay in DebugOverlay.allCases {
            let drawn = list.withDebugOverlay(overlay)
            XCTAssertGreaterThan(drawn.canvas.quads.count, list.canvas.quads.count, "\(overlay) tints something")
            let (d, _, _) = try compareBackends(drawn, gl: h.renderer, name: "debug-overlay-\(overlay.rawValue)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(overlay): \(d)")
        }
        // The demo's flashed regions, one of them on fractional pixels.
        let flashed = list.withHighlights([CGRect(x: 10.5, y: 20, width: 30, height: 12.25), CGRect(x: 60, y: 0, width: 60, height: 80)],
                                          color: DebugOverlay.offscreenTint)
        let (d, _, _) = try compareBackends(flashed, gl: h.renderer, name: "debug-overlay-highlights")
        XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "highlights: \(d)")
    }
}
