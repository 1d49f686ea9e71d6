import Foundation
import LayerCompositor
import LayerKitCore

/// One mip level as normalised floats, in memory the owning `Texture` frees: plain pointers,
/// so sampling in the per-pixel loop does no reference counting.
struct Level {
    let width: Int
    let height: Int
    let data: UnsafeMutablePointer<SIMD4<Float>>

    init(_ b: Bitmap) {
        width = b.width
        height = b.height
        data = .allocate(capacity: max(b.width * b.height, 1))
        // Typed out: the untyped SIMD4 literal took the type checker 3.5 s.
        let unit: Float = 1 / 255
        b.pixels.withUnsafeBufferPointer { p in
            for i in 0..<(b.width * b.height) {
                let texel = SIMD4<Float>(Float(p[i * 4]), Float(p[i * 4 + 1]), Float(p[i * 4 + 2]), Float(p[i * 4 + 3]))
                data[i] = texel * unit
            }
        }
    }

    @inline(__always)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> { data[y * width + x] }

    /// GL_NEAREST at texel coordinates (pixel edges at integers), clamped to the edge.
    @inline(__always)
    func nearest(_ u: Double, _ v: Double) -> SIMD4<Float> {
        texel(edgeClamped(u, width - 1), edgeClamped(v, height - 1))
    }

    /// GL_LINEAR at texel coordinates, clamped to the edge.
    @inline(__always)
    func linear(_ u: Double, _ v: Double) -> SIMD4<Float> {
        let fu = u - 0.5, fv = v - 0.5
        let iu = fu.rounded(.down), iv = fv.rounded(.down)
        let a = Float(fu - iu), b = Float(fv - iv)
        let x0 = edgeClamped(iu, width - 1), x1 = edgeClamped(iu + 1, width - 1)
        let y0 = edgeClamped(iv, height - 1), y1 = edgeClamped(iv + 1, height - 1)
        let top = texel(x0, y0) * (1 - a) + texel(x1, y0) * a
        let bottom = texel(x0, y1) * (1 - a) + texel(x1, y1) * a
        return top * (1 - b) + bottom * b
    }
}

/// `v` rounded down and clamped to `0...last`, for any `Double`: converting to `Int` first would
/// trap on coordinates far outside the texture (1e30), and NaN lands on 0.
@inline(__always)
func edgeClamped(_ v: Double, _ last: Int) -> Int {
    v >= 1 ? (v < Double(last) ? Int(v) : last) : 0
}

/// How a lookup filters, decided once per quad from `CALayerContentsFilter`.
enum Filter: UInt8 {
    case nearest, linear, trilinear

    init(_ f: CALayerContentsFilter) {
        switch f {
        case .nearest: self = .nearest
        case .trilinear: self = .trilinear
        default: self = .linear
        }
    }
}

/// An image (or a finished pass) ready to sample, with its mipmaps made on first need.
final class Texture: @unchecked Sendable {
    let bitmap: Bitmap
    /// Level 0, read without locking by every band.
    let base: Level
    private let lock = NSLock()
    private var levels: [Level]?

    init(_ bitmap: Bitmap) {
        self.bitmap = bitmap
        base = Level(bitmap)
    }

    deinit {
        base.data.deallocate()
        for l in (levels ?? []).dropFirst() { l.data.deallocate() }
    }

    /// All levels; the first call makes the mipmaps (bands may ask concurrently).
    func mipLevels() -> [Level] {
        lock.lock()
        defer { lock.unlock() }
        if let levels { return levels }
        let made = [base] + Mipmaps.levels(of: bitmap).map(Level.init)
        levels = made
        return made
    }

    /// Samples at texel coordinates of level 0 with the filter GL would pick for `lod`.
    func sample(_ u: Double, _ v: Double, lod: Double, min minFilter: Filter, mag: Filter) -> SIMD4<Float> {
        let filter = lod > 0 ? minFilter : mag
        switch filter {
        case .nearest: return base.nearest(u, v)
        case .trilinear where lod > 0:
            let ls = mipLevels()
            let l = min(lod, Double(ls.count - 1))
            let l0 = Int(l.rounded(.down)), l1 = min(l0 + 1, ls.count - 1)
            let f = Float(l - Double(l0))
            func at(_ k: Int) -> SIMD4<Float> {
                let lv = ls[k]
                return lv.linear(u * Double(lv.width) / Double(base.width), v * Double(lv.height) / Double(base.height))
            }
            let a = at(l0)
            return f > 0 ? a * (1 - f) + at(l1) * f : a
        default: return base.linear(u, v)
        }
    }
}
