import Foundation
import LayerKit

/// Fills paths into coverage images on the CPU, once, so both backends draw the same pixels
/// (shadow paths now; shape layers use the same rasterizer).
///
/// Curves are flattened to lines within 0.1 pixel; coverage is the fraction of a 4x4 grid of
/// samples per pixel inside the path under the fill rule, so edges are antialiased.
enum PathRasterizer {
    static let samples = 4

    /// A white (premultiplied: coverage in every channel) image of `rect` at `scale` pixels per
    /// unit, with `path` (in the same units) filled.
    static func fill(_ path: CGPath, rule: CAShapeLayerFillRule, into rect: CGRect, scale: Double) -> CGImage {
        let w = max(Int((Double(rect.width) * scale).rounded(.up)), 1)
        let h = max(Int((Double(rect.height) * scale).rounded(.up)), 1)
        let ox = Double(rect.minX), oy = Double(rect.minY)
        let edges = flatten(path) { p in ((Double(p.x) - ox) * scale, (Double(p.y) - oy) * scale) }
        var cover = [Int](repeating: 0, count: w * h)
        let n = samples
        var crossings: [(x: Double, dir: Int)] = []
        for sy in 0..<(h * n) {
            let y = (Double(sy) + 0.5) / Double(n)
            crossings.removeAll(keepingCapacity: true)
            for e in edges {
                let (y0, y1) = (e.1, e.3)
                if (y0 <= y && y1 > y) || (y1 <= y && y0 > y) {
                    let t = (y - y0) / (y1 - y0)
                    crossings.append((e.0 + (e.2 - e.0) * t, y1 > y0 ? 1 : -1))
                }
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            let row = (sy / n) * w
            for i in 0..<crossings.count - (crossings.isEmpty ? 0 : 1) {
                winding += crossings[i].dir
                let inside = rule == .evenOdd ? winding % 2 != 0 : winding != 0
                guard inside else { continue }
                // Horizontal samples at (k + 0.5) / n inside [xa, xb).
                let xa = crossings[i].x * Double(n) - 0.5, xb = crossings[i + 1].x * Double(n) - 0.5
                var s = max(Int(xa.rounded(.up)), 0)
                let e = min(Int((xb).rounded(.up)) - 1, w * n - 1)
                while s <= e { cover[row + s / n] += 1; s += 1 }
            }
        }
        var bmp = Bitmap(width: w, height: h)
        let full = n * n
        for i in 0..<(w * h) where cover[i] > 0 {
            let v = UInt8((cover[i] * 255 + full / 2) / full)
            bmp.pixels[i * 4] = v; bmp.pixels[i * 4 + 1] = v; bmp.pixels[i * 4 + 2] = v; bmp.pixels[i * 4 + 3] = v
        }
        return CGImage(bitmap: bmp, source: "path")
    }

    /// The path as closed polygons of line segments `(x0, y0, x1, y1)` in mapped coordinates.
    static func flatten(_ path: CGPath, map: (CGPoint) -> (Double, Double)) -> [(Double, Double, Double, Double)] {
        var edges: [(Double, Double, Double, Double)] = []
        var start = (0.0, 0.0), cur = (0.0, 0.0), open = false
        func line(to p: (Double, Double)) { edges.append((cur.0, cur.1, p.0, p.1)); cur = p }
        func close() { if open && (cur.0 != start.0 || cur.1 != start.1) { line(to: start) }; cur = start }
        func curve(_ pts: [(Double, Double)]) {
            // Enough segments that the flattening error stays under ~0.1 px.
            var len = 0.0
            for i in 1..<pts.count { len += hypot(pts[i].0 - pts[i - 1].0, pts[i].1 - pts[i - 1].1) }
            let steps = max(1, min(1000, Int((len / 2).squareRoot().rounded(.up) * 2)))
            for s in 1...steps {
                let t = Double(s) / Double(steps), u = 1 - t
                let p: (Double, Double)
                if pts.count == 3 {
                    p = (u * u * pts[0].0 + 2 * u * t * pts[1].0 + t * t * pts[2].0,
                         u * u * pts[0].1 + 2 * u * t * pts[1].1 + t * t * pts[2].1)
                } else {
                    p = (u * u * u * pts[0].0 + 3 * u * u * t * pts[1].0 + 3 * u * t * t * pts[2].0 + t * t * t * pts[3].0,
                         u * u * u * pts[0].1 + 3 * u * u * t * pts[1].1 + 3 * u * t * t * pts[2].1 + t * t * t * pts[3].1)
                }
                line(to: p)
            }
        }
        for e in path.elements {
            switch e {
            case .moveTo(let p): close(); start = map(p); cur = start; open = true
            case .lineTo(let p): line(to: map(p))
            case .quadCurveTo(let p, let c): curve([cur, map(c), map(p)])
            case .curveTo(let p, let c1, let c2): curve([cur, map(c1), map(c2), map(p)])
            case .closeSubpath: close()
            }
        }
        close()
        return edges
    }
}
