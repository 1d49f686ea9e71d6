// Damage of an offscreen frame: which canvas pixels changed since the last frame drawn into
// the same target, so that only those are cleared, drawn and read back (`tracksDamage`).

import CGL
import LayerCompositor

extension GLRenderer {
    /// The damage of `list` over the last frame drawn into the canvas target `texture`, or
    /// `nil` when the whole canvas is drawn (see `tracksDamage`; also past half the canvas).
    func canvasDamage(_ list: DisplayList, texture: GLuint) -> Damage? {
        let (w, h) = (list.width, list.height)
        lastRedrawnPixels = w * h
        guard tracksDamage, list.passes.count == 1 else {
            lastCanvas = nil
            return nil
        }
        // The reference's bounds and one pixel more, for the rasterizer's own rounding at edges.
        let measure = { (q: DrawQuad) -> PixelRect? in
            q.pixelBounds(width: w, height: h).map { PixelRect(x0: max($0.x0 - 1, 0), x1: min($0.x1 + 1, w), y0: max($0.y0 - 1, 0), y1: min($0.y1 + 1, h)) }
        }
        guard let last = lastCanvas, last.texture == texture, last.list.passes.count == 1, last.list.width == w, last.list.height == h,
              last.list.background == list.background else {
            lastCanvas = (texture, list, list.canvas.quads.map(measure))
            return nil
        }
        let (damage, bounds) = Damage.between(last.list.canvas.quads, bounds: last.bounds, and: list.canvas.quads,
                                              candidates: list.canvasChanges(since: last.list), measure: measure)
        lastCanvas = (texture, list, bounds)
        guard damage.area * 2 < w * h else { return nil }
        lastRedrawnPixels = damage.area
        return damage
    }
}
