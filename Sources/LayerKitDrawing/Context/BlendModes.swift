import Foundation

extension Bitmap {
    /// `color` (premultiplied) at `coverage`/255 onto pixel `i` under `mode`. Source over goes
    /// through the one source-over blend (`blend(_:coverage:pixel:)`); the other modes are the
    /// PDF formulas on premultiplied colour, with the coverage scaling the source (for these
    /// modes the same as mixing the blended result with the old pixel by the coverage), except
    /// `clear` and `copy`, which mix the old pixel towards nothing or the source by the coverage.
    package mutating func blend(_ color: PremultipliedColor, coverage: UInt8, pixel i: Int, mode: CGBlendMode) {
        if mode == .normal { return blend(color, coverage: coverage, pixel: i) }
        let k = Float(coverage) / 255
        let p = i * 4
        let d = (0..<4).map { Float(pixels[p + $0]) / 255 }
        let s0 = [color.r, color.g, color.b, color.a]
        let s = s0.map { $0 * k }
        let sa = s[3], da = d[3]
        var out = [Float](repeating: 0, count: 4)
        for c in 0..<4 {
            let (cs, cb) = (s[c], d[c])
            switch mode {
            case .normal: out[c] = cs + cb * (1 - sa)
            case .multiply: out[c] = c == 3 ? sa + da - sa * da : cs * (1 - da) + cb * (1 - sa) + cs * cb
            case .screen: out[c] = cs + cb - cs * cb
            case .darken: out[c] = c == 3 ? sa + da - sa * da : cs + cb - max(cs * da, cb * sa)
            case .lighten: out[c] = c == 3 ? sa + da - sa * da : cs + cb - min(cs * da, cb * sa)
            case .clear: out[c] = cb * (1 - k)
            case .copy: out[c] = cb * (1 - k) + s0[c] * k
            case .plusLighter: out[c] = cs + cb
            }
        }
        for c in 0..<4 { pixels[p + c] = UInt8(min(max(out[c], 0), 1) * 255 + 0.5) }
    }
}
