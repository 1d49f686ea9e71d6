import Foundation

/// The one Gaussian blur of LayerKit: its taps serve layer shadows (the compositor's blur
/// passes, run by both renderers) and `CGContext` shadows, which also run them here over a
/// plane of values.
package enum GaussianBlur {
    /// The largest sigma, in pixels, that a blur is drawn with: wider ones are as blurry as
    /// makes no visible difference and would cost without bound.
    package static let maxSigma = 64.0

    /// Normalised Gaussian taps for sigma in pixels: `w[0]` the centre, `w[i]` at ±i, out to 3σ.
    package static func weights(sigma: Double) -> [Float] {
        guard sigma > 0.01 else { return [1] }
        let n = Int((3 * sigma).rounded(.up))
        var w = (0...n).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = w[0] + 2 * w.dropFirst().reduce(0, +)
        w = w.map { $0 / total }
        return w.map { Float($0) }
    }

    /// The blur of a `width` x `height` plane of values (row by row, top first) with
    /// `weights`, horizontally then vertically, outside the plane counting as 0, at the
    /// pixels `columns` x `rows` only (plane coordinates, reaching beyond it as far as the
    /// blur spreads), row by row. Only the plane's own rows are blurred across and only the
    /// pixels asked for down, so a wide blur of a small drawing, or one mostly outside a
    /// context, costs what lands; the sums skip only zeros, so each value is what blurring the
    /// whole padded plane gives.
    package static func blurred(_ plane: [Float], width: Int, height: Int, weights: [Float],
                                columns: Range<Int>, rows: Range<Int>) -> [Float] {
        let n = weights.count - 1, cw = columns.count
        var across = [Float](repeating: 0, count: height * cw)
        for y in 0..<height {
            for (i, x) in columns.enumerated() {
                let lo = max(-n, -x), hi = min(n, width - 1 - x)
                guard lo <= hi else { continue }
                var acc: Float = 0
                for k in lo...hi { acc += plane[y * width + x + k] * weights[abs(k)] }
                across[y * cw + i] = acc
            }
        }
        var out = [Float](repeating: 0, count: rows.count * cw)
        for (j, y) in rows.enumerated() {
            let lo = max(-n, -y), hi = min(n, height - 1 - y)
            guard lo <= hi else { continue }
            for i in 0..<cw {
                var acc: Float = 0
                for k in lo...hi { acc += across[(y + k) * cw + i] * weights[abs(k)] }
                out[j * cw + i] = acc
            }
        }
        return out
    }
}
