import Foundation

/// What a `CAGradientLayer` draws: its bounds filled with a colour gradient.
///
/// `startPoint` and `endPoint` are unit coordinates of the bounds, mapped onto them before any
/// geometry, so gradients follow the layer's shape in points as Core Animation's do:
/// - axial: colours vary along the line from start to end, constant across it;
/// - radial: an ellipse centred on the start point with radii `|end − start|` in x and y
///   (`kCAGradientLayerRadial`), the last colour at its edge;
/// - conic: the angle about the start point, from the direction of the end point, growing
///   clockwise on the y-down screen (towards positive y), a full turn from the first colour
///   to the last.
/// The gradient parameter is clamped to the first and last locations (colours extend beyond
/// the ends). Colours are interpolated premultiplied, in sRGB-encoded values, as Core
/// Animation does, and sampled at each pixel's centre.
enum GradientContent {
    /// The gradient over `bounds` at `scale` pixels per point; `nil` without colours.
    static func render(_ style: GradientStyle, bounds: CGRect, scale: Double) -> (image: CGImage, rect: CGRect)? {
        guard let colors = style.colors, !colors.isEmpty, bounds.width > 0, bounds.height > 0 else { return nil }
        let stops = Self.stops(colors, style.locations)
        let bw = Double(bounds.width), bh = Double(bounds.height)
        let scale = TypedContent.scale(scale, fitting: max(bw, bh))
        let w = max(Int((bw * scale).rounded(.up)), 1), h = max(Int((bh * scale).rounded(.up)), 1)
        let s = SIMD2(Double(style.startPoint.x) * bw, Double(style.startPoint.y) * bh)
        let e = SIMD2(Double(style.endPoint.x) * bw, Double(style.endPoint.y) * bh)
        let d = e - s
        let parameter: (SIMD2<Double>) -> Double
        switch style.type {
        case .axial:
            let len2 = d.dot(d)
            parameter = { p in len2 > 0 ? (p - s).dot(d) / len2 : 0 }
        case .radial:
            let r = SIMD2(abs(d.x), abs(d.y))
            // A zero radius flattens the ellipse to a line: everything off it is outside.
            func unit(_ v: Double, _ r: Double) -> Double { r > 0 ? v / r : (v == 0 ? 0 : .infinity) }
            parameter = { p in SIMD2(unit(p.x - s.x, r.x), unit(p.y - s.y, r.y)).length }
        case .conic:
            let a0 = atan2(d.y, d.x)
            parameter = { p in
                let t = (atan2(p.y - s.y, p.x - s.x) - a0) / (2 * .pi)
                return t - t.rounded(.down)
            }
        }
        var bmp = Bitmap(width: w, height: h)
        for j in 0..<h {
            for i in 0..<w {
                // The texel centre, where the image quad maps it in the bounds.
                let p = SIMD2((Double(i) + 0.5) * bw / Double(w), (Double(j) + 0.5) * bh / Double(h))
                let c = color(stops, at: parameter(p))
                let k = (j * w + i) * 4
                for ch in 0..<4 { bmp.pixels[k + ch] = UInt8(min(max(c[ch], 0), 1) * 255 + 0.5) }
            }
        }
        return (CGImage(bitmap: bmp, source: "gradient"), bounds)
    }

    /// Premultiplied colours with their locations: the given ones when there is one per colour,
    /// otherwise evenly spaced from 0 to 1 (Core Animation's default).
    static func stops(_ colors: [CGColor], _ locations: [CGFloat]?) -> [(location: Double, color: SIMD4<Double>)] {
        let n = colors.count
        var locs: [Double] = (0..<n).map { i in n > 1 ? Double(i) / Double(n - 1) : 0 }
        if let given = locations, given.count == n { locs = given.map { Double($0) } }
        return zip(locs, colors).map { l, c in
            let straight = SIMD4<Double>(Double(c.red), Double(c.green), Double(c.blue), 1)
            return (l, straight * Double(c.alpha))
        }
    }

    /// The colour at gradient parameter `t`: clamped to the end colours, linear between
    /// neighbouring stops; where two stops share a location the later one wins.
    static func color(_ stops: [(location: Double, color: SIMD4<Double>)], at t: Double) -> SIMD4<Double> {
        guard t > stops[0].location else { return stops[0].color }
        for i in 1..<stops.count where t <= stops[i].location {
            let (l0, c0) = stops[i - 1], (l1, c1) = stops[i]
            let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
            return c0 + (c1 - c0) * f
        }
        return stops[stops.count - 1].color
    }
}
