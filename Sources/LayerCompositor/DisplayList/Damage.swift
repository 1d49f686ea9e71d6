import Foundation
import LayerKitCore

/// A rectangle of whole pixels, `x0..<x1` by `y0..<y1`.
package struct PixelRect: Equatable, Sendable {
    package var x0: Int, x1: Int, y0: Int, y1: Int

    /// The pixels an outline may touch, one pixel wider for antialiased fringes, clamped to a
    /// `width` x `height` target; `nil` when empty.
    package init?(around outline: [SIMD2<Double>], width: Int, height: Int) {
        var lo = SIMD2(Double.infinity, Double.infinity), hi = -lo
        for p in outline {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        self.init(lo: lo, hi: hi, width: width, height: height)
    }

    /// `init(around:width:height:)` of an outline whose points span `lo`...`hi`.
    init?(lo: SIMD2<Double>, hi: SIMD2<Double>, width: Int, height: Int) {
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // Clamped to the target on both sides before converting: an outline far outside it
        // (coordinates of 1e30) would overflow Int.
        x0 = Int(min(max(lo.x - 1, 0), Double(width)).rounded(.down))
        y0 = Int(min(max(lo.y - 1, 0), Double(height)).rounded(.down))
        x1 = Int(max(min(hi.x + 1, Double(width)), 0).rounded(.up))
        y1 = Int(max(min(hi.y + 1, Double(height)), 0).rounded(.up))
        guard x0 < x1, y0 < y1 else { return nil }
    }

    package init(x0: Int, x1: Int, y0: Int, y1: Int) { (self.x0, self.x1, self.y0, self.y1) = (x0, x1, y0, y1) }

    /// The smallest rectangle holding both.
    package func union(_ o: PixelRect) -> PixelRect {
        PixelRect(x0: min(x0, o.x0), x1: max(x1, o.x1), y0: min(y0, o.y0), y1: max(y1, o.y1))
    }

    package var area: Int { (x1 - x0) * (y1 - y0) }

    /// Whether the two share a pixel.
    package func intersects(_ o: PixelRect) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
}

extension DrawQuad {
    /// The quad's rectangle projected to pass pixels, clipped at w = 1e-5 like the GL clipper;
    /// `nil` when nothing is in front of the eye.
    package func projectedOutline(rect: CGRect? = nil) -> [SIMD2<Double>]? {
        let r = (rect ?? self.rect).standardized
        // Wholly in front of the eye (all but a few quads), the projected corners are the
        // outline: one array, where the general path below builds three. The same numbers.
        let (a, b, c, d) = (transform.apply(x: r.minX, y: r.minY, z: 0), transform.apply(x: r.maxX, y: r.minY, z: 0),
                            transform.apply(x: r.maxX, y: r.maxY, z: 0), transform.apply(x: r.minX, y: r.maxY, z: 0))
        if Double(a.w) >= frontClipW && Double(b.w) >= frontClipW && Double(c.w) >= frontClipW && Double(d.w) >= frontClipW {
            func projected(_ h: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)) -> SIMD2<Double> {
                SIMD2(Double(h.x) / Double(h.w), Double(h.y) / Double(h.w))
            }
            return [projected(a), projected(b), projected(c), projected(d)]
        }
        let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        return projectedOutline(polygon: [SIMD2(x0, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(x0, y1)])
    }

    /// A polygon of the quad's local plane projected to pass pixels, clipped like
    /// `projectedOutline(rect:)`.
    package func projectedOutline(polygon: [SIMD2<Double>]) -> [SIMD2<Double>]? {
        let pts = clipToFront(polygon.map { c in
            let h = transform.apply(x: CGFloat(c.x), y: CGFloat(c.y), z: 0)
            return SIMD4(Double(h.x), Double(h.y), Double(h.z), Double(h.w))
        })
        guard pts.count >= 3 else { return nil }
        return pts.map { SIMD2($0.x / $0.w, $0.y / $0.w) }
    }

    /// Pixels a quad may touch (its outline's bounding box, one pixel wider for antialiased
    /// fringes), clamped to the target; `nil` when none.
    package func pixelBounds(width: Int, height: Int) -> PixelRect? {
        // A quad wholly in front of the eye (all but a few) is measured from its four corners in
        // place, the same points in the same order as its outline: measured again for every
        // quad that moved, the three arrays of its outline were most of the cost.
        let r = rect.standardized
        var lo = SIMD2(Double.infinity, Double.infinity), hi = -lo, inFront = true
        func add(_ x: CGFloat, _ y: CGFloat) {
            let h = transform.apply(x: x, y: y, z: 0)
            guard Double(h.w) >= frontClipW else { return inFront = false }
            let p = SIMD2(Double(h.x) / Double(h.w), Double(h.y) / Double(h.w))
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        add(r.minX, r.minY)
        add(r.maxX, r.minY)
        add(r.maxX, r.maxY)
        add(r.minX, r.maxY)
        guard inFront else {
            guard let outline = projectedOutline() else { return nil }
            return PixelRect(around: outline, width: width, height: height)
        }
        return PixelRect(lo: lo, hi: hi, width: width, height: height)
    }
}

/// The pixels a damage redraw clears and draws again: the old and new bounds of every quad that
/// changed, as disjoint rectangles (one that meets another is merged with it), so that a few
/// small changes far apart cost their own areas, not the area of a box spanning them all.
/// Past `maxRects` each new rectangle merges with the one it grows least, which bounds the
/// passes over the quads.
package struct Damage {
    package static let maxRects = 16
    package private(set) var rects: [PixelRect] = []

    package init() {}

    /// The pixels to redraw (the rectangles are disjoint).
    package var area: Int { rects.reduce(0) { $0 + $1.area } }

    package mutating func add(_ rect: PixelRect) {
        var r = rect
        var i = 0
        while i < rects.count {
            if rects[i].intersects(r) {
                r = r.union(rects.remove(at: i))
                i = 0
            } else {
                i += 1
            }
        }
        if rects.count == Self.maxRects {
            let nearest = rects.indices.min { a, b in rects[a].union(r).area - rects[a].area < rects[b].union(r).area - rects[b].area }!
            return add(r.union(rects.remove(at: nearest)))
        }
        rects.append(r)
    }
}

extension Damage {
    /// Which of the rectangles each of `bounds` reaches, as a bit mask (bit i: `rects[i]`; 0
    /// for none), for the redraw of each rectangle by the quads reaching it. Each band of
    /// `band` rows and of `band` columns first notes the rectangles that reach into it, so a
    /// quad costs a look at its bands and an exact test of the few rectangles in both, not a
    /// test against every rectangle: 10,000 quads and 20 rectangles make 10,000 look-ups, not
    /// 200,000 tests.
    package func reach(_ bounds: [PixelRect?]) -> [UInt16] {
        let band = 32
        let width = rects.map(\.x1).max() ?? 0, height = rects.map(\.y1).max() ?? 0
        var rows = [UInt16](repeating: 0, count: (height + band - 1) / band)
        var columns = [UInt16](repeating: 0, count: (width + band - 1) / band)
        for (i, r) in rects.enumerated() {
            for y in (r.y0 / band)...((r.y1 - 1) / band) { rows[y] |= 1 << i }
            for x in (r.x0 / band)...((r.x1 - 1) / band) { columns[x] |= 1 << i }
        }
        return bounds.map { b in
            guard let b, b.x0 < width, b.y0 < height else { return 0 }
            var inRows: UInt16 = 0, inColumns: UInt16 = 0
            for y in (b.y0 / band)...((min(b.y1, height) - 1) / band) { inRows |= rows[y] }
            guard inRows != 0 else { return 0 }
            for x in (b.x0 / band)...((min(b.x1, width) - 1) / band) { inColumns |= columns[x] }
            var candidates = inRows & inColumns, reached: UInt16 = 0
            while candidates != 0 {
                let i = candidates.trailingZeroBitCount
                if rects[i].intersects(b) { reached |= 1 << i }
                candidates &= candidates - 1
            }
            return reached
        }
    }

    /// From a canvas drawn with `before`, whose quads touch `oldBounds`, to one drawn with
    /// `after`: the old and new bounds of each quad that differs at its index (pixels elsewhere
    /// are covered by the same quads in the same order, so they cannot change), and `after`'s
    /// bounds. Unchanged quads keep their bounds; only changed ones are measured, by `measure`;
    /// `replaced` hears of each quad of `before` that is not drawn again at its index.
    /// `candidates`, the canvases' `DisplayList.canvasChanges(since:)` where known, are the only
    /// indices compared: a frame where 10 of 10,000 quads changed looks at 10.
    package static func between(_ before: [DrawQuad], bounds oldBounds: [PixelRect?], and after: [DrawQuad],
                                candidates: [Range<Int>]? = nil, measure: (DrawQuad) -> PixelRect?,
                                replaced: (DrawQuad) -> Void = { _ in }) -> (damage: Damage, bounds: [PixelRect?]) {
        var bounds: [PixelRect?]
        let indices: [Range<Int>]
        if let candidates, before.count == after.count {
            bounds = oldBounds
            indices = candidates
        } else {
            bounds = [PixelRect?](repeating: nil, count: after.count)
            indices = [0..<max(before.count, after.count)]
        }
        var damage = Damage()
        for i in indices.joined() {
            // Indexed in place: copying 10,000 quads out to compare them costs more than comparing.
            let kept = i < before.count, drawn = i < after.count
            if kept && drawn && before[i] == after[i] {
                bounds[i] = oldBounds[i]
                continue
            }
            if kept {
                replaced(before[i])
                if let b = oldBounds[i] { damage.add(b) }
            }
            if drawn {
                bounds[i] = measure(after[i])
                if let b = bounds[i] { damage.add(b) }
            }
        }
        return (damage, bounds)
    }
}
