import Dispatch
import Foundation
import LayerCompositor
import LayerKit

/// The reference renderer: executes a `DisplayList` into a `Bitmap`, one pixel at a time, with
/// the rules in `Coverage` — the executable definition of LayerKit's pixels.
///
/// For each quad and each pixel whose centre its projection may cover: map the centre to the
/// layer's local plane (perspective-correct), take the coverage of the shape and of every clip
/// there, sample the fill, and blend source-over onto the premultiplied 8-bit target, rounding
/// to nearest as the GL framebuffer does. Rows are split into bands drawn on all cores.
public final class CPURenderer {
    /// Rows per band handed to one core at a time.
    let bandHeight = 32
    /// Decoded images and their mipmaps, kept while the same `CGImage` is drawn.
    private var textures: [ObjectIdentifier: (image: CGImage, texture: Texture)] = [:]

    /// A renderer; keep it across frames to reuse decoded mipmaps.
    public init() {}

    /// Renders the display list; the result is the canvas pass, cleared to its background.
    public func render(_ list: DisplayList) -> Bitmap {
        var results: [Texture] = []
        results.reserveCapacity(list.passes.count)
        var used = Set<ObjectIdentifier>()
        for pass in list.passes {
            let isCanvas = pass.index == list.passes.count - 1
            let clear = isCanvas ? list.background : .clear
            let target = Target(width: pass.width, height: pass.height, clear: clear)
            switch pass.content {
            case .quads(let quads):
                let prepared = quads.compactMap { q -> PreparedQuad? in
                    if case .image(let f) = q.fill { used.insert(ObjectIdentifier(f.image)) }
                    return PreparedQuad(q, textures: texture(for:), passes: results, width: pass.width, height: pass.height)
                }
                draw(prepared, into: target)
            case let .blur(source, horizontal, weights):
                blur(results[source], horizontal: horizontal, weights: weights, into: target)
            }
            results.append(Texture(target.bitmap()))
        }
        textures = textures.filter { used.contains($0.key) }
        return results[results.count - 1].bitmap
    }

    private func texture(for image: CGImage) -> Texture {
        let key = ObjectIdentifier(image)
        if let t = textures[key], t.image === image { return t.texture }
        let t = Texture(image.bitmap)
        textures[key] = (image, t)
        return t
    }

    private func draw(_ quads: [PreparedQuad], into target: Target) {
        let bands = (target.height + bandHeight - 1) / bandHeight
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let y0 = band * bandHeight, y1 = min(y0 + bandHeight, target.height)
            for q in quads where q.y0 < y1 && q.y1 > y0 {
                q.draw(rows: max(y0, q.y0)..<min(y1, q.y1), into: target)
            }
        }
    }

    private func blur(_ src: Texture, horizontal: Bool, weights: [Float], into target: Target) {
        let w = target.width, h = target.height, n = weights.count - 1
        let s = src.base
        DispatchQueue.concurrentPerform(iterations: (h + bandHeight - 1) / bandHeight) { band in
            for y in (band * bandHeight)..<min(band * bandHeight + bandHeight, h) {
                for x in 0..<w {
                    var acc = SIMD4<Float>(0, 0, 0, 0)
                    for k in -n...n {
                        let sx = horizontal ? x + k : x, sy = horizontal ? y : y + k
                        if sx < 0 || sy < 0 || sx >= w || sy >= h { continue }
                        acc += s.texel(sx, sy) * weights[abs(k)]
                    }
                    target.store(x, y, acc)
                }
            }
        }
    }
}

/// A render target: premultiplied RGBA8, written by bands in parallel (disjoint rows).
final class Target: @unchecked Sendable {
    let width: Int
    let height: Int
    let pixels: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int, clear: PremultipliedColor) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height * 4)
        let c = [clear.r, clear.g, clear.b, clear.a].map { Target.byte($0) }
        for i in 0..<(width * height) {
            pixels[i * 4] = c[0]; pixels[i * 4 + 1] = c[1]; pixels[i * 4 + 2] = c[2]; pixels[i * 4 + 3] = c[3]
        }
    }

    deinit { pixels.deallocate() }

    /// A copy of the pixels as a bitmap.
    func bitmap() -> Bitmap {
        Bitmap(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
    }

    /// Float 0…1 → 8 bits, rounding to nearest as GL's unorm conversion does.
    @inline(__always)
    static func byte(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }

    /// Source-over: `src + dst · (1 − src.a)`, premultiplied, computed in 0…255 units and
    /// rounded to nearest.
    @inline(__always)
    func blend(_ x: Int, _ y: Int, _ src: SIMD4<Float>) {
        let i = (y * width + x) * 4
        let k = 1 - src.w
        let p = pixels + i
        let dst = SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
        var out = src * 255 + dst * k
        out = out.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255)) + 0.5
        p[0] = UInt8(out.x); p[1] = UInt8(out.y); p[2] = UInt8(out.z); p[3] = UInt8(out.w)
    }

    @inline(__always)
    func store(_ x: Int, _ y: Int, _ v: SIMD4<Float>) {
        let i = (y * width + x) * 4
        pixels[i] = Target.byte(v.x); pixels[i + 1] = Target.byte(v.y)
        pixels[i + 2] = Target.byte(v.z); pixels[i + 3] = Target.byte(v.w)
    }
}
