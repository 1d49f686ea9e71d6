import Foundation
import LayerCompositor
import LayerKit

/// A quad with everything per-pixel work needs resolved once: its projected outline (for
/// per-row spans), its textures, and plain numbers instead of enums where the loop reads them.
///
/// Per pixel the work is `Coverage`'s rules; what is hoisted is only what does not change
/// across the quad: affine quads step their local coordinates by constant increments (no
/// divide), single-segment texel maps are linear coefficients, and a quad whose coverage can
/// only be 0 or 1 skips the coverage arithmetic.
struct PreparedQuad {
    let quad: DrawQuad
    let x0: Int, x1: Int, y0: Int, y1: Int
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The projected outline in pixels (clipped at w = 1e-5), for row spans.
    let outline: [SIMD2<Double>]
    let fill: PreparedFill
    /// Local coordinates are affine in pixel coordinates (no perspective in the inverse map).
    let affine: Bool
    /// Coverage is exactly the half-open inside test: square, aliased, no clips.
    let binaryCoverage: Bool

    enum PreparedFill {
        case color(SIMD4<Float>)
        case image(Texture, ImageFill, linearX: (Double, Double)?, linearY: (Double, Double)?, needsLOD: Bool)
        case pass(Texture, mask: Texture?, scale: Double, tint: SIMD4<Float>?)
    }

    init?(_ q: DrawQuad, textures: (CGImage) -> Texture, passes: [Texture], width: Int, height: Int) {
        quad = q
        let r = q.rect.standardized
        (minX, minY, maxX, maxY) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        var pts: [SIMD4<Double>] = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)].map { c in
            let h = q.transform.apply(x: CGFloat(c.0), y: CGFloat(c.1), z: 0)
            return SIMD4(Double(h.x), Double(h.y), Double(h.z), Double(h.w))
        }
        if pts.contains(where: { $0.w < 1e-5 }) {
            var out: [SIMD4<Double>] = []
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if a.w >= 1e-5 { out.append(a) }
                if (a.w >= 1e-5) != (b.w >= 1e-5) { out.append(a + (b - a) * ((1e-5 - a.w) / (b.w - a.w))) }
            }
            pts = out
        }
        guard pts.count >= 3 else { return nil }
        outline = pts.map { SIMD2($0.x / $0.w, $0.y / $0.w) }
        var lo = SIMD2(Double.infinity, Double.infinity), hi = -lo
        for p in outline { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // One pixel of slack for antialiased edges.
        x0 = max(Int(max(lo.x - 1, -1).rounded(.down)), 0)
        y0 = max(Int(max(lo.y - 1, -1).rounded(.down)), 0)
        x1 = min(Int(min(hi.x + 1, Double(width)).rounded(.up)), width)
        y1 = min(Int(min(hi.y + 1, Double(height)).rounded(.up)), height)
        guard x0 < x1, y0 < y1 else { return nil }
        let m = q.inverse.m
        affine = m.2 == 0 && m.5 == 0 && m.8 > 0
        if case .rect(let radius) = q.shape, radius <= 0, !q.antialiased, q.clips.isEmpty {
            binaryCoverage = true
        } else {
            binaryCoverage = false
        }
        switch q.fill {
        case .color(let c):
            fill = .color(SIMD4(c.r, c.g, c.b, c.a))
        case .image(let f):
            func linear(_ a: AxisMap) -> (Double, Double)? {
                guard a.stops.count == 2, a.stops[1] != a.stops[0] else { return nil }
                let k = (a.texels[1] - a.texels[0]) / (a.stops[1] - a.stops[0])
                return (k, a.texels[0] - a.stops[0] * k)
            }
            fill = .image(textures(f.image), f, linearX: linear(f.x), linearY: linear(f.y),
                          needsLOD: f.minification != f.magnification)
        case .pass(let f):
            fill = .pass(passes[f.pass], mask: f.mask.map { passes[$0] }, scale: f.scale,
                         tint: f.tint.map { SIMD4($0.r, $0.g, $0.b, $0.a) })
        }
    }

    /// The pixel columns whose centres may be covered on row `py`: the outline's crossing of
    /// the row centre line, widened by a pixel for antialiased fringes.
    @inline(__always)
    func span(_ py: Int) -> Range<Int>? {
        let y = Double(py) + 0.5
        var lo = Double.infinity, hi = -Double.infinity
        let n = outline.count
        for i in 0..<n {
            let a = outline[i], b = outline[(i + 1) % n]
            if a.y == b.y {
                if a.y == y { lo = min(lo, a.x, b.x); hi = max(hi, a.x, b.x) }
            } else if min(a.y, b.y) <= y && max(a.y, b.y) >= y {
                let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                lo = min(lo, x); hi = max(hi, x)
            }
        }
        // Rows just outside the outline can still hold antialiased fringe pixels.
        if !lo.isFinite {
            guard !binaryCoverage else { return nil }
            return x0..<x1
        }
        let s = max(Int((lo - 1.5).rounded(.down)), x0), e = min(Int((hi + 1.5).rounded(.up)), x1)
        return s < e ? s..<e : nil
    }

    /// Draws the quad's pixels in `rows`.
    func draw(rows: Range<Int>, into target: Target) {
        let q = quad
        let opacity = q.opacity
        let m = q.inverse.m
        for py in rows {
            guard let cols = span(py) else { continue }
            let cy = Double(py) + 0.5
            // Affine: local coordinates and the Jacobian are linear along the row.
            let iw = affine ? 1 / m.8 : 0
            let stepX = m.0 * iw, stepY = m.1 * iw
            var ax = (Double(cols.lowerBound) + 0.5) * m.0 * iw + (cy * m.3 + m.6) * iw
            var ay = (Double(cols.lowerBound) + 0.5) * m.1 * iw + (cy * m.4 + m.7) * iw
            let affineJac = (m.0 * iw, m.1 * iw, m.3 * iw, m.4 * iw)
            for px in cols {
                let x: Double, y: Double, jac: (Double, Double, Double, Double)
                if affine {
                    x = ax; y = ay; jac = affineJac
                    ax += stepX; ay += stepY
                } else {
                    guard let l = Coverage.local(q.inverse, Double(px) + 0.5, cy) else { continue }
                    x = l.x; y = l.y; jac = (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy)
                }
                var cov: Double
                if binaryCoverage {
                    guard x >= minX && x < maxX && y >= minY && y < maxY else { continue }
                    cov = 1
                } else {
                    cov = coverage(x, y, jac: jac)
                    if cov <= 0 { continue }
                    for c in q.clips {
                        cov *= PreparedQuad.clipCoverage(c, Double(px) + 0.5, cy)
                        if cov <= 0 { break }
                    }
                    if cov <= 0 { continue }
                }
                let color = sample(x, y, jac: jac)
                if color.w <= 0 && color.x <= 0 && color.y <= 0 && color.z <= 0 { continue }
                target.blend(px, py, cov == 1 && opacity == 1 ? color : color * (Float(cov) * opacity))
            }
        }
    }

    @inline(__always)
    func coverage(_ x: Double, _ y: Double, jac: (Double, Double, Double, Double)) -> Double {
        switch quad.shape {
        case .rect(let radius):
            return Coverage.roundedRect(x: x, y: y, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                        radius: radius, antialiased: quad.antialiased, jac: jac)
        case let .border(width, radius):
            var cov = Coverage.roundedRect(x: x, y: y, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                           radius: radius, antialiased: quad.antialiased, jac: jac)
            if cov > 0 && minX + width < maxX - width && minY + width < maxY - width {
                cov *= 1 - Coverage.roundedRect(x: x, y: y, minX: minX + width, minY: minY + width,
                                                maxX: maxX - width, maxY: maxY - width, radius: max(radius - width, 0),
                                                antialiased: quad.antialiased, jac: jac)
            }
            return cov
        }
    }

    static func clipCoverage(_ c: Clip, _ cx: Double, _ cy: Double) -> Double {
        guard let l = Coverage.local(c.map, cx, cy) else { return 0 }
        switch c.shape {
        case let .roundedRect(r, radius, aa):
            return Coverage.roundedRect(x: l.x, y: l.y, minX: Double(r.minX), minY: Double(r.minY),
                                        maxX: Double(r.maxX), maxY: Double(r.maxY), radius: radius, antialiased: aa,
                                        jac: (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy))
        case let .halfPlane(a, b, cc):
            return a * l.x + b * l.y + cc >= 0 ? 1 : 0
        }
    }

    @inline(__always)
    func sample(_ x: Double, _ y: Double, jac: (Double, Double, Double, Double)) -> SIMD4<Float> {
        switch fill {
        case .color(let c):
            return c
        case let .image(texture, f, lx, ly, needsLOD):
            let u = lx.map { $0.0 * x + $0.1 } ?? f.x.texel(x)
            let v = ly.map { $0.0 * y + $0.1 } ?? f.y.texel(y)
            if !needsLOD && f.magnification != .trilinear {
                return f.magnification == .nearest ? texture.base.nearest(u, v) : texture.base.linear(u, v)
            }
            let su = lx?.0 ?? f.x.slope(x), sv = ly?.0 ?? f.y.slope(y)
            let lod = Coverage.lod(dudx: su * jac.0, dvdx: sv * jac.1, dudy: su * jac.2, dvdy: sv * jac.3)
            return texture.sample(u, v, lod: lod, min: f.minification, mag: f.magnification)
        case let .pass(texture, mask, scale, tint):
            let u = (x - minX) * scale, v = (y - minY) * scale
            var c = texture.base.linear(u, v)
            if let mask { c *= mask.base.linear(u, v).w }
            if let tint { c = tint * c.w }
            return c
        }
    }
}
