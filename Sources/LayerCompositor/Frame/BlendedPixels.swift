import Foundation
import LayerKitCore

/// `FrameCounter.blendedPixels` across frames, at a cost that follows change: each canvas
/// quad's blended area is kept, and a frame measures only the canvas quads the compositor names
/// as changed (none when it reused the list); a list with offscreen passes, whose changes the
/// compositor does not name, is measured whole.
///
/// Areas are kept in 1/256 pixel units, so that taking a quad's old area away and adding its
/// new one leaves no rounding behind, however many frames go by.
package struct BlendedPixels {
    private static let unit = 256.0
    /// The last list counted.
    private var last: DisplayList?
    /// Each canvas quad's blended area in units (0 for a quad drawn opaque), and their sum.
    private var canvasAreas: [Int64] = []
    private var canvasTotal: Int64 = 0
    /// The offscreen passes' blended area in units.
    private var offscreenTotal: Int64 = 0

    package init() {}

    /// The pixels covered by blended quads in `list`, summed over quads: each quad that
    /// `DrawQuad.blends` (every quad of an additive pass) adds its `coveredArea` in its pass.
    package mutating func count(_ list: DisplayList) -> Double {
        let canvas = list.canvas, quads = canvas.quads
        let additive = canvas.purpose == .additive
        func area(_ q: DrawQuad) -> Int64 { Self.units(q, in: canvas, additive: additive) }
        if let last, let changes = list.canvasChanges(since: last), canvasAreas.count == quads.count {
            for i in changes.joined() {
                let a = area(quads[i])
                canvasTotal += a - canvasAreas[i]
                canvasAreas[i] = a
            }
        } else {
            canvasAreas = quads.map(area)
            canvasTotal = canvasAreas.reduce(0, +)
            offscreenTotal = 0
            for pass in list.passes.dropLast() {
                for q in pass.quads { offscreenTotal += Self.units(q, in: pass, additive: pass.purpose == .additive) }
            }
        }
        last = list
        return Double(canvasTotal + offscreenTotal) / Self.unit
    }

    /// `q`'s blended area in its pass, in units.
    private static func units(_ q: DrawQuad, in pass: RenderPass, additive: Bool) -> Int64 {
        guard additive || q.blends else { return 0 }
        return Int64((q.coveredArea(width: pass.width, height: pass.height) * unit).rounded())
    }
}
