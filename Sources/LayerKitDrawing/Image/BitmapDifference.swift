import Foundation

/// How two bitmaps of the same size differ: the figures `layerkit diff` prints and the tests'
/// pixel budgets are stated in.
public struct BitmapDifference: Sendable, CustomStringConvertible {
    /// Mean absolute difference per channel, 0…255.
    public let mean: Double
    /// Largest difference of any channel of any pixel, 0…255.
    public let max: Int
    /// Fraction of pixels whose largest channel difference exceeds `threshold`.
    public let fraction: Double
    /// Peak signal-to-noise ratio in dB (infinite when identical).
    public let psnr: Double
    /// Number of pixels over the threshold.
    public let pixelsOver: Int
    /// The threshold used, 0…255.
    public let threshold: Int
    /// Per-pixel largest channel difference, for heat maps.
    public let perPixel: [UInt8]
    /// Width of the compared bitmaps.
    public let width: Int
    /// Height of the compared bitmaps.
    public let height: Int

    /// Compares `a` with `b`, which must have the same size.
    public init(_ a: Bitmap, _ b: Bitmap, threshold: Int = 2) {
        precondition(a.width == b.width && a.height == b.height, "compared bitmaps differ in size")
        var sum = 0, sq = 0, mx = 0, over = 0
        var per = [UInt8](repeating: 0, count: a.width * a.height)
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<(a.width * a.height) {
                    var m = 0
                    for c in 0..<4 {
                        let d = abs(Int(pa[i * 4 + c]) - Int(pb[i * 4 + c]))
                        sum += d
                        sq += d * d
                        if d > m { m = d }
                    }
                    per[i] = UInt8(m)
                    if m > mx { mx = m }
                    if m > threshold { over += 1 }
                }
            }
        }
        let n = Swift.max(a.width * a.height, 1)
        mean = Double(sum) / Double(n * 4)
        max = mx
        pixelsOver = over
        fraction = Double(over) / Double(n)
        let mse = Double(sq) / Double(n * 4)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        self.threshold = threshold
        perPixel = per
        width = a.width
        height = a.height
    }

    /// `mean=… max=… fraction=… psnr=…`, the line `layerkit diff` prints.
    public var description: String {
        String(format: "mean=%.4f max=%d fraction=%.6f psnr=%@", mean, max, fraction,
               psnr.isInfinite ? "inf" : String(format: "%.2f", psnr))
    }

    /// A heat map: black where equal, red where over the threshold (brighter = larger), grey
    /// where different within it.
    public func heatmap() -> Bitmap {
        var out = Bitmap(width: width, height: height)
        for i in 0..<perPixel.count {
            let d = Int(perPixel[i])
            if d > threshold {
                out.pixels[i * 4] = UInt8(Swift.min(128 + d * 4, 255))
            } else if d > 0 {
                out.pixels[i * 4] = 60
                out.pixels[i * 4 + 1] = 60
                out.pixels[i * 4 + 2] = 60
            }
            out.pixels[i * 4 + 3] = 255
        }
        return out
    }
}
