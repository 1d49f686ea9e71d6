import Foundation
import LayerCompositor
import LayerKit

/// A quad with everything per-pixel work needs resolved once: its pixel bounding box, its
/// textures, and plain numbers instead of enums where the loop reads them.
struct PreparedQuad {
    let quad: DrawQuad
    let x0: Int, x1: Int, y0: Int, y1: Int
    let texture: Texture?
    let maskTexture: Texture?
    let minX: Double, minY: Double, maxX: Double, maxY: Double

    init?(_ q: DrawQuad, textures: (CGImage) -> Texture, passes: [Texture], width: Int, height: Int) {
        quad = q
        let r = q.rect.standardized
        (minX, minY, maxX, maxY) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        // Pixel bounds of the projected rect, clipped at w = 1e-5 like the GL clipper.
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
        var lo = SIMD2(Double.infinity, Double.infinity), hi = -lo
        for p in pts {
            let s = SIMD2(p.x / p.w, p.y / p.w)
            lo = pointwiseMin(lo, s); hi = pointwiseMax(hi, s)
        }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // One pixel of slack for antialiased edges.
        x0 = max(Int(max(lo.x - 1, -1).rounded(.down)), 0)
        y0 = max(Int(max(lo.y - 1, -1).rounded(.down)), 0)
        x1 = min(Int(min(hi.x + 1, Double(width)).rounded(.up)), width)
        y1 = min(Int(min(hi.y + 1, Double(height)).rounded(.up)), height)
        guard x0 < x1, y0 < y1 else { return nil }
        switch q.fill {
        case .image(let f): texture = textures(f.image); maskTexture = nil
        case .pass(let f): texture = passes[f.pass]; maskTexture = f.mask.map { passes[$0] }
        case .color: texture = nil; maskTexture = nil
        }
    }

    /// Draws the quad's pixels in `rows`.
    func draw(rows: Range<Int>, into target: Target) {
        let q = quad
        let opacity = q.opacity
        for py in rows {
            for px in x0..<x1 {
                let cx = Double(px) + 0.5, cy = Double(py) + 0.5
                guard let l = Coverage.local(q.inverse, cx, cy) else { continue }
                let jac = (l.dxdpx, l.dydpx, l.dxdpy, l.dydpy)
                var cov: Double
                switch q.shape {
                case .rect(let radius):
                    cov = Coverage.roundedRect(x: l.x, y: l.y, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                               radius: radius, antialiased: q.antialiased, jac: jac)
                case let .border(width, radius):
                    cov = Coverage.roundedRect(x: l.x, y: l.y, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                               radius: radius, antialiased: q.antialiased, jac: jac)
                    if cov > 0 && minX + width < maxX - width && minY + width < maxY - width {
                        cov *= 1 - Coverage.roundedRect(x: l.x, y: l.y, minX: minX + width, minY: minY + width,
                                                        maxX: maxX - width, maxY: maxY - width, radius: max(radius - width, 0),
                                                        antialiased: q.antialiased, jac: jac)
                    }
                }
                if cov <= 0 { continue }
                for c in q.clips {
                    cov *= PreparedQuad.clipCoverage(c, cx, cy)
                    if cov <= 0 { break }
                }
                if cov <= 0 { continue }
                let color = sample(l.x, l.y, jac: jac)
                target.blend(px, py, color * Float(cov) * opacity)
            }
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
        switch quad.fill {
        case .color(let c):
            return SIMD4(c.r, c.g, c.b, c.a)
        case .image(let f):
            let u = f.x.texel(x), v = f.y.texel(y)
            let su = f.x.slope(x), sv = f.y.slope(y)
            let lod = Coverage.lod(dudx: su * jac.0, dvdx: sv * jac.1, dudy: su * jac.2, dvdy: sv * jac.3)
            return texture!.sample(u, v, lod: lod, min: f.minification, mag: f.magnification)
        case .pass(let f):
            let u = (x - minX) * f.scale, v = (y - minY) * f.scale
            var c = texture!.base.linear(u, v)
            if let m = maskTexture { c *= m.base.linear(u, v).w }
            if let t = f.tint { c = SIMD4(t.r, t.g, t.b, t.a) * c.w }
            return c
        }
    }
}
