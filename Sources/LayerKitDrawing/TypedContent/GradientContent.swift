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
            // The ellipse is the unit circle once scaled: a cone from radius 0 to 1 about one centre.
            parameter = { p in
                radialParameter(SIMD2(unit(p.x - s.x, r.x), unit(p.y - s.y, r.y)), from: (.zero, 0), to: (.zero, 1),
                                before: true, after: true) ?? 1
            }
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

    /// The gradient parameter at `p` of a gradient between two circles, as Core Graphics'
    /// `drawRadialGradient` and `kCAGradientLayerRadial` define it: the circles in between
    /// (centre and radius interpolated, t = 0 the start circle, 1 the end one, extrapolated
    /// beyond) sweep a cone, and `p` takes the largest t whose circle passes through it with a
    /// radius of at least 0, among t in 0…1 plus t < 0 when `before` and t > 1 when `after`;
    /// `nil` where no such circle passes.
    static func radialParameter(_ p: SIMD2<Double>, from start: (center: SIMD2<Double>, radius: Double),
                                to end: (center: SIMD2<Double>, radius: Double), before: Bool, after: Bool) -> Double? {
        // |p − c0 − t·dc| = r0 + t·dr, squared: a·t² − 2b·t + c = 0.
        let q = p - start.center, dc = end.center - start.center, dr = end.radius - start.radius
        let a = dc.dot(dc) - dr * dr, b = q.dot(dc) + start.radius * dr, c = q.dot(q) - start.radius * start.radius
        func allowed(_ t: Double) -> Bool {
            t.isFinite && start.radius + t * dr >= 0 && (t >= 0 || before) && (t <= 1 || after)
        }
        if abs(a) < 1e-12 {
            // One circle grows as fast as its centre moves (or neither changes): one root.
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return allowed(t) ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let roots = [(b + disc.squareRoot()) / a, (b - disc.squareRoot()) / a]
        return roots.filter(allowed).max()
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
