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

    /// Blurs a `width` x `height` plane of values (row by row, top first) with `weights`,
    /// horizontally then vertically; outside the plane counts as 0.
    package static func blur(_ plane: inout [Float], width: Int, height: Int, weights: [Float]) {
        let n = weights.count - 1
        guard n > 0 else { return }
        var pass = [Float](repeating: 0, count: plane.count)
        for horizontal in [true, false] {
            for y in 0..<height {
                for x in 0..<width {
                    var acc: Float = 0
                    for k in -n...n {
                        let sx = horizontal ? x + k : x, sy = horizontal ? y : y + k
                        if sx < 0 || sy < 0 || sx >= width || sy >= height { continue }
                        acc += plane[sy * width + sx] * weights[abs(k)]
                    }
                    pass[y * width + x] = acc
                }
            }
            swap(&plane, &pass)
        }
    }
}
