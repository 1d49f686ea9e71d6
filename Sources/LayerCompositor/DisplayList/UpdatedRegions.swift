import Foundation
import LayerKitCore

/// Which canvas pixels each frame updates, for "Flash Updated Regions": the rectangles
/// `Damage` finds between one display list and the next, the rule the backends redraw by.
///
/// Where the canvas cannot be compared quad by quad, the regions are conservative: the whole
/// canvas when its size or background changed (or for the first list), and, when the offscreen
/// passes changed, the bounds of every canvas quad drawn from a pass as well.
package struct UpdatedRegions {
    /// The last list and the pixels each of its canvas quads may touch.
    private var last: (list: DisplayList, bounds: [PixelRect?])?

    /// A tracker that has seen no frame.
    package init() {}

    /// The rectangles (canvas pixels, disjoint) where `list` may differ from the last list
    /// given; the whole canvas for the first.
    package mutating func update(_ list: DisplayList) -> [CGRect] {
        let (w, h) = (list.width, list.height)
        let quads = list.canvas.quads
        let measure = { (q: DrawQuad) -> PixelRect? in q.pixelBounds(width: w, height: h) }
        guard let (old, oldBounds) = last, old.width == w, old.height == h, old.background == list.background else {
            last = (list, quads.map(measure))
            return w > 0 && h > 0 ? [CGRect(x: 0, y: 0, width: w, height: h)] : []
        }
        var (damage, bounds) = Damage.between(old.canvas.quads, bounds: oldBounds, and: quads,
                                              candidates: list.canvasChanges(since: old), measure: measure)
        if !old.passes.dropLast().elementsEqual(list.passes.dropLast()) {
            for (q, b) in zip(quads, bounds) {
                if case .pass = q.fill, let b { damage.add(b) }
            }
        }
        last = (list, bounds)
        return damage.rects.map { CGRect(x: $0.x0, y: $0.y0, width: $0.x1 - $0.x0, height: $0.y1 - $0.y0) }
    }
}
