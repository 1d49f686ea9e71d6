import Foundation
import LayerCompositor
import LayerKitCore

/// A quad with everything per-pixel work needs resolved once: its projected outline (for
/// per-row spans), its textures, and plain numbers instead of enums where the loop reads them.
///
/// Per pixel the work is `QuadCoverage`'s rules; what is hoisted is only what does not change
/// across the quad: affine quads step their local coordinates by constant increments (no
/// divide), single-segment texel maps are linear coefficients, a quad whose coverage can
/// only be 0 or 1 skips the coverage arithmetic, and along each row the pixels that lie safely
/// inside a colour quad (or inside a border's hole) are blended as one colour (or skipped)
/// without asking the per-pixel function what it would answer anyway.
struct PreparedQuad {
    /// The quad's `inverse` and `opacity`, all the per-pixel loop reads of it: not the quad
    /// itself, whose copy retained its clips, fill and label for every quad prepared.
    let inverse: PlaneMap
    let opacity: Float
    let x0: Int, x1: Int, y0: Int, y1: Int
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The projected outline in pixels (clipped at w = 1e-5), for row spans.
    let outline: EdgeList
    /// `pixelBounds` of the quad: where it may touch pixels, before half-plane clips.
    let bounds: PixelRect?
    /// Local coordinates are affine in pixel coordinates (no perspective in the inverse map).
    let affine: Bool
    /// Coverage is exactly the half-open inside test: square, aliased, no clips but half-planes.
    let binaryCoverage: Bool
    /// For an aliased square border without clips, its width: coverage is then 0 or 1 too.
    let binaryBorderWidth: Double?
    /// How far beyond the outline `span` looks for pixel centres, in pixels, along the row
    /// (`spanMargin`) and across it (`spanBand`). Where straight edges are aliased a pixel counts
    /// only if its centre is inside them: the row's crossing and a rounding allowance (while the
    /// outline's coordinates are small enough for that allowance), and an affine quad's rounded
    /// corners add their `fringes`. Antialiased edges reach half a pixel beyond a straight edge
    /// and at corners at most half the Jacobian's condition number (the local distance d is under
    /// half the gradient g, and a local step of d moves at most d / σmin pixels), plus half a
    /// pixel and the allowance for an affine quad that is not split and not stretched twofold;
    /// else two pixels along and one across.
    let spanMargin: Double, spanBand: Double
    /// For aliased straight edges and rounded corners, affine and not stretched twofold: each
    /// rounded corner's square (where the curve is, `QuadCoverage.RoundedRect`'s corner region)
    /// as a pixel box widened by the corner rule above, the only place pixels outside the
    /// straight edges can be covered.
    let fringes: [(x0: Double, x1: Double, y0: Double, y1: Double)]
    /// Half-plane clips as `A·px + B·py + C ≥ 0` in pixel coordinates: a half-plane of the
    /// layer's plane is one of the pixel plane too (multiply through by w > 0), so the test needs
    /// no divide and also trims the row spans.
    let pixelHalfPlanes: [(a: Double, b: Double, c: Double)]
    /// The shape's rectangle, and a border's inner edge (`nil` when the border fills the
    /// rectangle), resolved once for `coverage`; `unusedShape` and `nil` for a quad whose
    /// coverage is 0 or 1, for which `covers` decides (two objects fewer to allocate a quad,
    /// whose answers would be its inside tests).
    let outer: QuadCoverage.RoundedRect, inner: QuadCoverage.RoundedRect?
    /// The other clips (rounded rectangles), evaluated per pixel in their layers' planes.
    let clips: [(map: PlaneMap, shape: QuadCoverage.RoundedRect)]
    /// For a colour fill with aliased edges and no clips but half-planes, where coverage is
    /// exactly 1, whose pixels blend `solid` without the per-pixel function: the outline itself
    /// (square corners), or convex pixel-space polygons (one with the corners cut, or the two
    /// arms of a rounded rectangle's cross).
    enum Interior { case none, outline, polygons([EdgeList]) }
    let interior: Interior
    /// The premultiplied colour times opacity that the per-pixel function gives interior pixels.
    let solid: SIMD4<Float>
    /// For an aliased square border without clips but half-planes: the hole, in pixels, where
    /// coverage is exactly 0, whose pixels are skipped without the per-pixel function.
    let hole: EdgeList?

    enum FillKind { case color, image, pass }

    // The fill as plain values. Textures are unowned: the renderer keeps them alive for the
    // frame, and the per-pixel loop then does no reference counting.
    let kind: FillKind
    let color: SIMD4<Float>
    unowned(unsafe) let texture: Texture
    unowned(unsafe) let mask: Texture
    let hasMask: Bool
    let tint: SIMD4<Float>?
    /// Pass fills: the fraction of `mask`'s colour cross-faded in (a transition), or `nil`.
    let crossfade: Float?
    /// Image fills: what each texel is multiplied by (`ImageFill.modulation`), or `nil` for none.
    let modulation: SIMD4<Float>?
    /// Texel = k · local + c per axis, when the axis map has one segment.
    let linearX: (k: Double, c: Double)?, linearY: (k: Double, c: Double)?
    let axisX: AxisMap?, axisY: AxisMap?
    let minFilter: Filter, magFilter: Filter
    /// Whether the filter depends on the level of detail (min and mag differ, or trilinear).
    let needsLOD: Bool
    /// Whether coverage or filtering reads the pixel → local Jacobian (else a perspective quad
    /// maps each pixel centre without it).
    let needsJacobian: Bool
    let passScale: Double

    init?(_ q: DrawQuad, textures: (CGImage) -> Texture, passes: [Texture?], width: Int, height: Int) {
        (inverse, opacity) = (q.inverse, q.opacity)
        let r = q.rect.standardized
        (minX, minY, maxX, maxY) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        let (corners, border): (Corners, Double?)
        switch q.shape {
        case .rect(let c): (corners, border) = (c, nil)
        case let .border(width, c): (corners, border) = (c, width)
        }
        guard let projected = q.projectedOutline() else { return nil }
        bounds = PixelRect(around: projected, width: width, height: height)
        var halfPlanes: [(a: Double, b: Double, c: Double)] = [], otherClips: [(map: PlaneMap, shape: QuadCoverage.RoundedRect)] = []
        for c in q.clips {
            switch c.shape {
            case let .roundedRect(r, corners, aa):
                otherClips.append((c.map, QuadCoverage.RoundedRect(minX: Double(r.minX), minY: Double(r.minY), maxX: Double(r.maxX),
                                                                   maxY: Double(r.maxY), corners: corners, antialiased: aa)))
            case let .halfPlane(a, b, cc):
                halfPlanes.append(c.map.pulledBack((a, b, cc)))
            }
        }
        pixelHalfPlanes = halfPlanes
        clips = otherClips
        var outline = projected
        for h in halfPlanes { outline = clipPolygon(outline, h) }
        guard outline.count >= 3 else { return nil }
        self.outline = EdgeList(outline)
        // Without half-planes the outline is the projected one, whose box is `bounds`.
        guard let box = halfPlanes.isEmpty ? bounds : PixelRect(around: outline, width: width, height: height) else { return nil }
        (x0, x1, y0, y1) = (box.x0, box.x1, box.y0, box.y1)
        let m = q.inverse.m
        affine = m.2 == 0 && m.5 == 0 && m.8 > 0
        switch (q.shape, q.hasBinaryCoverage && otherClips.isEmpty) {
        case (.rect, true): (binaryCoverage, binaryBorderWidth) = (true, nil)
        case (.border(let width, _), true): (binaryCoverage, binaryBorderWidth) = (false, width)
        default: (binaryCoverage, binaryBorderWidth) = (false, nil)
        }
        if binaryCoverage || binaryBorderWidth != nil {
            (outer, inner) = (PreparedQuad.unusedShape, nil)
        } else {
            outer = QuadCoverage.RoundedRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY, corners: corners, antialiased: q.antialiased)
            inner = border.flatMap { [minX, minY, maxX, maxY] w in
                minX + w < maxX - w && minY + w < maxY - w
                    ? QuadCoverage.RoundedRect(minX: minX + w, minY: minY + w, maxX: maxX - w, maxY: maxY - w,
                                               corners: corners.inset(by: w), antialiased: q.antialiased)
                    : nil
            }
        }
        let moderate = outline.allSatisfy { abs($0.x) < 1e6 && abs($0.y) < 1e6 }
        let aliased = !q.antialiased && moderate
        // (Not asked of square aliased quads, which need no margin for corners.)
        let k = aliased && corners.isSquare ? nil : PreparedQuad.conditionNumber(q.inverse)
        var fringes: [(x0: Double, x1: Double, y0: Double, y1: Double)] = []
        if aliased && (corners.isSquare || (k.map { $0 < 2 } ?? false)) {
            (spanMargin, spanBand) = (1e-3, 0)
            if !corners.isSquare {
                fringes = PreparedQuad.cornerBoxes(q, projected, corners: corners, reach: 0.5 * k! + 1e-3)
            }
        } else if let k, k < 2, halfPlanes.isEmpty, moderate {
            (spanMargin, spanBand) = (0.5 * k + 0.501, 0.5 * k + 1e-3)
        } else {
            (spanMargin, spanBand) = (2, 1)
        }
        self.fringes = fringes
        var (kind, color, hasMask, tint, passScale) = (FillKind.color, SIMD4<Float>(), false, SIMD4<Float>?.none, 1.0)
        var crossfade: Float?
        var modulation: SIMD4<Float>?
        var (linearX, linearY, axisX, axisY): ((k: Double, c: Double)?, (k: Double, c: Double)?, AxisMap?, AxisMap?) = (nil, nil, nil, nil)
        var (minFilter, magFilter) = (Filter.linear, Filter.linear)
        var texture = PreparedQuad.placeholder, mask = PreparedQuad.placeholder
        switch q.fill {
        case .color(let c):
            color = SIMD4(c.r, c.g, c.b, c.a)
        case .image(let f):
            func linear(_ a: AxisMap) -> (k: Double, c: Double)? {
                guard a.stops.count == 2, a.stops[1] != a.stops[0] else { return nil }
                let k = (a.texels[1] - a.texels[0]) / (a.stops[1] - a.stops[0])
                return (k, a.texels[0] - a.stops[0] * k)
            }
            kind = .image
            texture = textures(f.image)
            if f.modulation != ImageFill.unmodulated { modulation = SIMD4(f.modulation.r, f.modulation.g, f.modulation.b, f.modulation.a) }
            linearX = linear(f.x)
            linearY = linear(f.y)
            axisX = linearX == nil ? f.x : nil
            axisY = linearY == nil ? f.y : nil
            minFilter = Filter(f.minification)
            magFilter = Filter(f.magnification)
        case .pass(let f):
            kind = .pass
            texture = passes[f.pass]!
            if let m = f.mask {
                mask = passes[m]!
                hasMask = true
            }
            if let c = f.crossfade {
                mask = passes[c.pass]!
                crossfade = c.fraction
            }
            tint = f.tint.map { SIMD4($0.r, $0.g, $0.b, $0.a) }
            passScale = f.scale
        }
        (self.kind, self.color, self.texture, self.mask, self.hasMask, self.tint, self.passScale) = (kind, color, texture, mask, hasMask, tint, passScale)
        self.crossfade = crossfade
        self.modulation = modulation
        (self.linearX, self.linearY, self.axisX, self.axisY) = (linearX, linearY, axisX, axisY)
        (self.minFilter, self.magFilter) = (minFilter, magFilter)
        needsLOD = minFilter != magFilter || magFilter == .trilinear
        needsJacobian = !(binaryCoverage || binaryBorderWidth != nil) || (kind == .image && needsLOD)
        solid = q.opacity == 1 ? color : color * q.opacity
        interior = kind == .color && otherClips.isEmpty ? PreparedQuad.interior(q, halfPlanes: halfPlanes, moderate: moderate) : .none
        // Where the outline is moderate, as `row` needs for a border's solid runs.
        hole = binaryBorderWidth.flatMap { w in
            guard moderate else { return nil }
            let r = q.rect.standardized.insetBy(dx: CGFloat(w), dy: CGFloat(w))
            return r.width > 0 && r.height > 0 ? PreparedQuad.safe(q.projectedOutline(rect: r), halfPlanes: halfPlanes).map(EdgeList.init) : nil
        }
    }

    /// A projected polygon clipped like the outline, for interior and hole runs; `nil` when
    /// empty, or so far out that `interiorMargin` would not be safe.
    private static func safe(_ projected: [SIMD2<Double>]?, halfPlanes: [(a: Double, b: Double, c: Double)]) -> [SIMD2<Double>]? {
        guard var poly = projected else { return nil }
        for h in halfPlanes { poly = clipPolygon(poly, h) }
        return poly.count >= 3 && poly.allSatisfy({ abs($0.x) < 1e6 && abs($0.y) < 1e6 }) ? poly : nil
    }

    /// Local regions where `QuadCoverage.RoundedRect` is exactly 1 for aliased edges, projected
    /// and clipped like the outline: the whole rectangle when square. Rounded, with an affine
    /// map, the rectangle less a corner triangle wherever u + v < e, u and v a point's
    /// distances to a corner's two edges and e the corners' extent plus 0.51 F, F the pixel →
    /// local Jacobian's Frobenius norm: such a point is in no corner region or, in one of
    /// half-axis a ≤ e − 0.51 F, at distance l ≤ qx + qy = 2a − u − v < a − 0.51 F from its
    /// centre (for the superellipse, its norm N ≤ l with a gradient of length ≤ 1), while
    /// the pixel-space gradient is at most F: 0.5 − d/g > 1, clamped to exactly 1. One convex
    /// polygon, so each row gets one run. In perspective (F varies), or where the cuts would
    /// meet, the two arms of the cross outside the corners, since only corners are antialiased. Nothing for antialiased edges,
    /// borders, or coordinates so large that the margin below is not safe.
    /// A square-cornered rectangle's interior is its outline (the same polygon projected and
    /// clipped the same way), when the outline's coordinates are `moderate`.
    private static func interior(_ q: DrawQuad, halfPlanes: [(a: Double, b: Double, c: Double)], moderate: Bool) -> Interior {
        guard case .rect(let corners) = q.shape, !q.antialiased else { return .none }
        let r = q.rect.standardized
        let rr = corners.extent(hw: Double(r.width) / 2, hh: Double(r.height) / 2)
        let m = q.inverse.m, w = m.8
        let f = m.2 == 0 && m.5 == 0 && w > 0 ? ((m.0 * m.0 + m.1 * m.1 + m.3 * m.3 + m.4 * m.4) / (w * w)).squareRoot() : .nan
        let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        // A rounding allowance relative to the coordinates, beyond the 2 % of F.
        let e = rr + 0.51 * f + 1e-9 * (abs(x0) + abs(y0) + abs(x1) + abs(y1))
        if rr > 0 && f > 1e-100 && f < 1e100 && 2 * e <= min(x1 - x0, y1 - y0) {
            let octagon = [SIMD2(x0 + e, y0), SIMD2(x1 - e, y0), SIMD2(x1, y0 + e), SIMD2(x1, y1 - e),
                           SIMD2(x1 - e, y1), SIMD2(x0 + e, y1), SIMD2(x0, y1 - e), SIMD2(x0, y0 + e)]
            return safe(q.projectedOutline(polygon: octagon), halfPlanes: halfPlanes).map { .polygons([EdgeList($0)]) } ?? .none
        }
        guard rr > 0 else { return r.width > 0 && r.height > 0 && moderate ? .outline : .none }
        let inset = CGFloat(rr)
        return .polygons([r.insetBy(dx: inset, dy: 0), r.insetBy(dx: 0, dy: inset)].compactMap {
            $0.width > 0 && $0.height > 0 ? safe(q.projectedOutline(rect: $0), halfPlanes: halfPlanes).map(EdgeList.init) : nil
        })
    }

    /// How far inside an interior polygon, in pixels, a pixel centre must lie to be drawn as
    /// interior: far more than the rounding that separates the projected outline from the
    /// per-pixel inverse map, so every interior pixel is one the per-pixel function covers.
    static let interiorMargin = 1e-4

    /// The condition number (largest over smallest singular value) of an affine pixel → local
    /// map's Jacobian; nil in perspective or when singular.
    static func conditionNumber(_ inverse: PlaneMap) -> Double? {
        let m = inverse.m
        guard m.2 == 0, m.5 == 0, m.8 != 0 else { return nil }
        let (a, b, c, d) = (m.0 / m.8, m.1 / m.8, m.3 / m.8, m.4 / m.8)
        let sum = a * a + b * b + c * c + d * d, det = abs(a * d - b * c)
        let root = max(sum * sum - 4 * det * det, 0).squareRoot()
        let small = (sum - root) / 2, large = (sum + root) / 2
        guard small > 0, large.isFinite else { return nil }
        return (large / small).squareRoot()
    }

    /// `outer` of the quads that `covers` decides, which ask it nothing.
    private static let unusedShape = QuadCoverage.RoundedRect(minX: 0, minY: 0, maxX: 0, maxY: 0, corners: .square, antialiased: false)

    /// Stands in for "no texture" so the unowned fields are always valid.
    private static let placeholder = Texture(Bitmap(width: 1, height: 1))

    /// Pixel boxes around the rounded corners' squares of an affine quad, widened by `reach`
    /// pixels on every side: a point within `reach` of the square is inside its box. `corners`
    /// are the projected rectangle's (min x min y first, then max x min y, max x max y, min x
    /// max y), which an affine map carries the squares' corners along.
    private static func cornerBoxes(_ q: DrawQuad, _ p: [SIMD2<Double>], corners: Corners, reach: Double) -> [(x0: Double, x1: Double, y0: Double, y1: Double)] {
        let r = q.rect.standardized
        let a = corners.extent(hw: Double(r.width) / 2, hh: Double(r.height) / 2)
        guard a > 0, p.count == 4 else { return [] }
        // The squares' sides in pixels: a along each edge of the rectangle.
        let (ex, ey) = ((p[1] - p[0]) * (a / Double(r.width)), (p[3] - p[0]) * (a / Double(r.height)))
        let lo = pointwiseMin(ex, .zero) + pointwiseMin(ey, .zero) - reach, hi = pointwiseMax(ex, .zero) + pointwiseMax(ey, .zero) + reach
        var boxes: [(x0: Double, x1: Double, y0: Double, y1: Double)] = []
        boxes.reserveCapacity(4)
        for i in 0..<4 {
            // Each square's corner nearest the rectangle's minimum x and y.
            let (c, o): (CACornerMask, SIMD2<Double>) = switch i {
            case 0: (.layerMinXMinYCorner, p[0])
            case 1: (.layerMaxXMinYCorner, p[1] - ex)
            case 2: (.layerMinXMaxYCorner, p[3] - ey)
            default: (.layerMaxXMaxYCorner, p[2] - ex - ey)
            }
            if corners.mask.contains(c) { boxes.append((o.x + lo.x, o.x + hi.x, o.y + lo.y, o.y + hi.y)) }
        }
        return boxes
    }

    /// What a row asks of the quad (see `row(_:)`).
    struct Row {
        var span: Range<Int>, solid: Range<Int>, skipped: Range<Int>, solidAfterHole: Range<Int>
    }

    /// What row `py` asks of the quad: `span`, the columns whose centres may be covered (those
    /// within `spanMargin` of the outline's x extent over the band y ± `spanBand`, since a
    /// fringe pixel can lie outside the outline in any direction, which along a nearly horizontal
    /// edge is many columns from where the edge crosses the centre line; and those in a corner's
    /// fringe box); the columns drawn as one colour (`solid`), in two runs either side of a
    /// border's hole; and the hole's, `skipped`. Solid and skipped columns get exactly what the
    /// per-pixel function would give them. A border's solid runs are its pixels whose centres
    /// lie inside the outline and beyond `spanMargin` of the hole (coverage exactly 1, as for an
    /// interior), so that a row of a border's top or bottom is one run, its sides one each.
    /// `nil` when the row has no columns to visit.
    @inline(__always)
    func row(_ py: Int) -> Row? {
        let y = Double(py) + 0.5
        let crossing = outline.reach(row: y, band: spanBand)
        var (lo, hi) = (crossing.lo - spanMargin, crossing.hi + spanMargin)
        for b in fringes where b.y0 <= y && y <= b.y1 {
            lo = min(lo, b.x0)
            hi = max(hi, b.x1)
        }
        guard lo.isFinite, !hi.isNaN else { return nil }
        let span = EdgeList.columns(lo, hi, within: x0..<x1)
        guard !span.isEmpty else { return nil }
        let none = 0..<0
        if let hole {
            let near = hole.reach(row: y, band: 0)
            let skipped = hole.inside(row: y, crossing: near)
            guard kind == .color else { return Row(span: span, solid: none, skipped: skipped, solidAfterHole: none) }
            // The outline's own crossing (aliased, so its band is the row) gives its interior.
            let outer = outline.inside(row: y, crossing: crossing)
            guard near.lo.isFinite && near.hi.isFinite else { return Row(span: span, solid: outer, skipped: skipped, solidAfterHole: none) }
            let beside = EdgeList.columns(near.lo - spanMargin, near.hi + spanMargin, within: outer)
            guard !beside.isEmpty else { return Row(span: span, solid: outer, skipped: skipped, solidAfterHole: none) }
            return Row(span: span, solid: outer.lowerBound..<beside.lowerBound, skipped: skipped,
                       solidAfterHole: beside.upperBound..<outer.upperBound)
        }
        switch interior {
        case .none:
            return Row(span: span, solid: none, skipped: none, solidAfterHole: none)
        case .outline:
            // Aliased and square, so the outline's band is the row and its crossing is the one
            // `inside` needs.
            return Row(span: span, solid: outline.inside(row: y, crossing: crossing), skipped: none, solidAfterHole: none)
        case .polygons(let polygons):
            // Where the two arms' runs do not meet, the longer.
            var run = none
            for p in polygons {
                let r = p.inside(row: y)
                if run.isEmpty || (!r.isEmpty && r.lowerBound <= run.upperBound && run.lowerBound <= r.upperBound) {
                    run = run.isEmpty ? r : min(run.lowerBound, r.lowerBound)..<max(run.upperBound, r.upperBound)
                } else if r.count > run.count {
                    run = r
                }
            }
            return Row(span: span, solid: run, skipped: none, solidAfterHole: none)
        }
    }

    /// Draws the quad's pixels in `rows`.
    func draw(rows: Range<Int>, columns: Range<Int>, into target: PixelWriter) {
        let m = inverse.m
        // Affine: local coordinates are linear along a row, and the Jacobian (with what the
        // coverage derives from it alone) is the same at every pixel.
        let iw = affine ? 1 / m.8 : 0
        let affineJac = (m.0 * iw, m.1 * iw, m.3 * iw, m.4 * iw)
        let affineSlack = QuadCoverage.slack(affineJac)
        clips.withUnsafeBufferPointer { clips in
        pixelHalfPlanes.withUnsafeBufferPointer { halfPlanes in
        for py in rows {
            guard let row = row(py) else { continue }
            let cols = row.span.clamped(to: columns)
            if cols.isEmpty { continue }
            let cy = Double(py) + 0.5
            let rowX = (cy * m.3 + m.6) * iw, rowY = (cy * m.4 + m.7) * iw
            @inline(__always) func shade(_ px: Int) {
                let x: Double, y: Double, jac: (Double, Double, Double, Double)
                if affine {
                    x = (Double(px) + 0.5) * m.0 * iw + rowX
                    y = (Double(px) + 0.5) * m.1 * iw + rowY
                    jac = affineJac
                } else if needsJacobian {
                    guard let l = QuadCoverage.local(inverse, Double(px) + 0.5, cy) else { return }
                    x = l.x
                    y = l.y
                    jac = (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy)
                } else {
                    // QuadCoverage.local's point, without the Jacobian nobody reads.
                    let h = inverse.apply(Double(px) + 0.5, cy)
                    guard h.w > 0 else { return }
                    let iw = 1 / h.w
                    x = h.x * iw
                    y = h.y * iw
                    jac = (0, 0, 0, 0)
                }
                for h in halfPlanes where h.a * (Double(px) + 0.5) + h.b * cy + h.c < 0 { return }
                var cov: Double
                if binaryCoverage {
                    guard x >= minX && x < maxX && y >= minY && y < maxY else { return }
                    cov = 1
                } else if let w = binaryBorderWidth {
                    guard x >= minX && x < maxX && y >= minY && y < maxY,
                          !(x >= minX + w && x < maxX - w && y >= minY + w && y < maxY - w) else { return }
                    cov = 1
                } else {
                    cov = shapeCoverage(x, y, jac: jac, slack: affine ? affineSlack : nil)
                    if cov <= 0 { return }
                    for i in 0..<clips.count where cov > 0 {
                        cov *= PreparedQuad.clipCoverage(clips[i], Double(px) + 0.5, cy)
                    }
                    if cov <= 0 { return }
                }
                let color = sample(x, y, jac: jac)
                if color.w <= 0 && color.x <= 0 && color.y <= 0 && color.z <= 0 { return }
                let source = cov == 1 && opacity == 1 ? color : color * (Float(cov) * opacity)
                if kind == .color { put(px..<(px + 1), source) } else { target.blend(px, py, source) }
            }
            // Neighbouring pixels of a colour fill that get the same colour (the whole pixels
            // beside an interior run, say) are blended as one run: the blend treats each pixel
            // on its own, so only the number of calls changes. (Not textures: their neighbours
            // seldom match, and the comparison cost image quads 3 % more instructions.)
            var pending = (pixels: 0..<0, color: SIMD4<Float>())
            @inline(__always) func put(_ pixels: Range<Int>, _ color: SIMD4<Float>) {
                if pixels.lowerBound == pending.pixels.upperBound && color == pending.color {
                    pending.pixels = pending.pixels.lowerBound..<pixels.upperBound
                } else {
                    if !pending.pixels.isEmpty { target.blend(pending.pixels, py, pending.color) }
                    pending = (pixels, color)
                }
            }
            // Solid runs get exactly what `shade` would give their pixels, a hole nothing,
            // without asking; the other columns are shaded.
            var px = cols.lowerBound
            for i in 0..<(row.skipped.isEmpty && row.solidAfterHole.isEmpty ? 1 : 3) {
                let run = (i == 0 ? row.solid : i == 1 ? row.skipped : row.solidAfterHole).clamped(to: px..<cols.upperBound)
                if run.isEmpty { continue }
                while px < run.lowerBound {
                    shade(px)
                    px += 1
                }
                if i != 1 { put(run, solid) }
                px = run.upperBound
            }
            while px < cols.upperBound {
                shade(px)
                px += 1
            }
            if !pending.pixels.isEmpty { target.blend(pending.pixels, py, pending.color) }
        }
        }
        }
    }

    /// The shape's coverage: 0 or 1 by `covers` for a quad whose coverage is only ever that,
    /// else `shapeCoverage`.
    func coverage(_ x: Double, _ y: Double, jac: (Double, Double, Double, Double)) -> Double {
        binaryCoverage || binaryBorderWidth != nil ? (covers(x, y) ? 1 : 0) : shapeCoverage(x, y, jac: jac)
    }

    /// `outer`'s coverage, less a border's `inner` edge (for the quads `covers` does not decide:
    /// the per-pixel loop, which has asked that already, calls it directly).
    @inline(__always)
    func shapeCoverage(_ x: Double, _ y: Double, jac: (Double, Double, Double, Double),
                       slack: Double? = nil) -> Double {
        let slack = slack ?? QuadCoverage.slack(jac)
        var cov = outer.coverage(x: x, y: y, jac: jac, slack: slack)
        if cov > 0, let inner { cov *= 1 - inner.coverage(x: x, y: y, jac: jac, slack: slack) }
        return cov
    }

    /// For a quad whose coverage is 0 or 1 (`binaryCoverage`, `binaryBorderWidth`): whether
    /// the local point is inside, the half-open test on the rectangle, less a border's hole
    /// (empty where the border fills the rectangle). What `QuadCoverage.RoundedRect` answers
    /// for aliased edges and square corners. (`draw` makes the same tests written out, one
    /// branch for each kind: as this one call they cost leaves-1000 0.6 % more instructions.)
    @inline(__always)
    func covers(_ x: Double, _ y: Double) -> Bool {
        guard x >= minX && x < maxX && y >= minY && y < maxY else { return false }
        guard let w = binaryBorderWidth else { return true }
        return !(x >= minX + w && x < maxX - w && y >= minY + w && y < maxY - w)
    }

    static func clipCoverage(_ c: (map: PlaneMap, shape: QuadCoverage.RoundedRect), _ cx: Double, _ cy: Double) -> Double {
        guard let l = QuadCoverage.local(c.map, cx, cy) else { return 0 }
        return c.shape.coverage(x: l.x, y: l.y, jac: (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy))
    }

    @inline(__always)
    func sample(_ x: Double, _ y: Double, jac: (Double, Double, Double, Double)) -> SIMD4<Float> {
        switch kind {
        case .color:
            return color
        case .image:
            let u = linearX.map { $0.k * x + $0.c } ?? axisX!.texel(x)
            let v = linearY.map { $0.k * y + $0.c } ?? axisY!.texel(y)
            let texel: SIMD4<Float>
            if !needsLOD {
                texel = magFilter == .nearest ? texture.base.nearest(u, v) : texture.base.linear(u, v)
            } else {
                let su = linearX?.k ?? axisX!.slope(x), sv = linearY?.k ?? axisY!.slope(y)
                let lod = QuadCoverage.lod(dudx: su * jac.0, dvdx: sv * jac.1, dudy: su * jac.2, dvdy: sv * jac.3)
                texel = texture.sample(u, v, lod: lod, min: minFilter, mag: magFilter)
            }
            return modulation.map { texel * $0 } ?? texel
        case .pass:
            let u = (x - minX) * passScale, v = (y - minY) * passScale
            var c = texture.base.linear(u, v)
            if hasMask { c *= mask.base.linear(u, v).w }
            if let crossfade { c = c * (1 - crossfade) + mask.base.linear(u, v) * crossfade }
            if let tint { c = tint * c.w }
            return c
        }
    }
}

extension EdgeList {
    /// The columns whose centres on the line `y` lie at least `PreparedQuad.interiorMargin`
    /// inside the polygon (convex).
    @inline(__always)
    func inside(row y: Double) -> Range<Int> {
        inside(row: y, crossing: reach(row: y, band: 0))
    }

    /// `inside(row:)` from the polygon's `reach` over the row alone. (Its edges along rows are
    /// at its top and bottom, which the margin leaves out.)
    @inline(__always)
    func inside(row y: Double, crossing: (lo: Double, hi: Double)) -> Range<Int> {
        let m = PreparedQuad.interiorMargin
        guard y > top + m && y < bottom - m, crossing.lo < crossing.hi, crossing.lo.isFinite, crossing.hi.isFinite else { return 0..<0 }
        let first = (crossing.lo + m - 0.5).roundedUp, end = (crossing.hi - m - 0.5).roundedDown + 1
        return first < end ? first..<end : 0..<0
    }
}
