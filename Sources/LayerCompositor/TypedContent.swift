import Foundation
import LayerKit

/// What the typed layers (shape, gradient, text) draw in place of `contents`: an image
/// rasterized on the CPU at `scale` pixels per point and the rectangle of the layer's bounds
/// space it covers. Both backends then draw it like any other contents, so they agree.
///
/// As in Core Animation, a typed layer's drawing is its backing store at `contentsScale`: it is
/// redrawn only when a property it depends on changes. Rasterizations are cached by everything
/// they depend on (the style, the bounds, the scale), so an unchanged layer costs a lookup per
/// frame and hands the backends the same `CGImage` object (whose identity their texture caches
/// key on).
enum TypedContent {
    /// The longest side, in pixels, of a typed layer's image: a larger one is drawn at a lower
    /// scale and magnified, as an oversized offscreen pass is, rather than allocated unbounded.
    static let maxImageSide = Double(Compositor.maxPassSize)

    /// `scale`, lowered where needed so that `points` is at most `maxImageSide` pixels.
    static func scale(_ scale: Double, fitting points: Double) -> Double {
        points * scale > maxImageSide ? maxImageSide / points : scale
    }

    /// The rasterized content of a typed layer, or `nil` when it draws nothing.
    static func render(_ kind: LayerSnapshot.Kind, properties: LayerProperties, scale: Double) -> (image: CGImage, rect: CGRect)? {
        switch kind {
        case .layer, .transformLayer:
            return nil
        case .shape, .gradient, .text:
            let key = TypedContentCache.Key(kind: kind, bounds: properties.bounds, scale: scale)
            return TypedContentCache.shared.value(for: key) {
                switch kind {
                case .shape(let s): return ShapeContent.render(s, bounds: properties.bounds, scale: scale)
                case .gradient(let g): return GradientContent.render(g, bounds: properties.bounds, scale: scale)
                case .text(let t): return TextContent.render(t, bounds: properties.bounds, scale: scale)
                case .layer, .transformLayer: return nil
                }
            }
        }
    }
}

/// Recently drawn typed-layer images, least recently used first out, within a byte budget and
/// an entry count.
/// Thread-safe: snapshots may be composited on any thread.
final class TypedContentCache: @unchecked Sendable {
    /// What a rasterization depends on.
    struct Key: Hashable {
        let kind: LayerSnapshot.Kind
        let bounds: CGRect
        let scale: Double

        static func == (a: Key, b: Key) -> Bool { a.bounds == b.bounds && a.scale == b.scale && a.kind == b.kind }

        /// Hashes the cheap, telling parts; equality settles the rest.
        func hash(into h: inout Hasher) {
            h.combine(bounds.origin.x); h.combine(bounds.origin.y); h.combine(bounds.width); h.combine(bounds.height)
            h.combine(scale)
            switch kind {
            case .layer, .transformLayer: break
            case .shape(let s):
                h.combine(s.path?.elements.count); h.combine(s.lineWidth); h.combine(s.strokeStart); h.combine(s.strokeEnd)
                h.combine(s.fillColor); h.combine(s.strokeColor)
            case .gradient(let g):
                h.combine(g.colors); h.combine(g.locations); h.combine(g.type.rawValue)
            case .text(let t):
                h.combine(t.string); h.combine(t.fontSize); h.combine(t.font)
            }
        }
    }

    /// The cache the compositor uses.
    static let shared = TypedContentCache(byteBudget: 64 << 20, maxEntries: 1024)

    private struct Entry {
        let value: (image: CGImage, rect: CGRect)?
        let bytes: Int
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private let byteBudget: Int
    private let maxEntries: Int
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0

    /// A cache that keeps at most about `byteBudget` bytes of pixels in `maxEntries` entries.
    init(byteBudget: Int, maxEntries: Int) { (self.byteBudget, self.maxEntries) = (byteBudget, maxEntries) }

    /// The cached value for `key`, or `make()`'s, which is then remembered. `make` runs outside
    /// the lock, so other threads are not held up by a long rasterization.
    func value(for key: Key, make: () -> (image: CGImage, rect: CGRect)?) -> (image: CGImage, rect: CGRect)? {
        lock.lock()
        clock += 1
        if var e = entries[key] {
            e.lastUse = clock
            entries[key] = e
            lock.unlock()
            return e.value
        }
        lock.unlock()
        let value = make()
        // An entry costs its pixels, and a little even when it draws nothing.
        let size = 64 + (value.map { $0.image.width * $0.image.height * 4 } ?? 0)
        guard size <= byteBudget / 4 else { return value }
        lock.lock()
        defer { lock.unlock() }
        // Another thread may have drawn the same meanwhile: keep one image per key.
        if let e = entries[key] { return e.value }
        clock += 1
        entries[key] = Entry(value: value, bytes: size, lastUse: clock)
        bytes += size
        while bytes > byteBudget || entries.count > maxEntries, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.bytes
            entries[oldest.key] = nil
        }
        return value
    }
}

extension Bitmap {
    /// Source-over of `color` (premultiplied) at `coverage`/255 onto pixel `i`, rounding to
    /// 8 bits as the renderers do.
    mutating func blend(_ color: PremultipliedColor, coverage: UInt8, pixel i: Int) {
        let k = Float(coverage) / 255
        let src = (color.r * k, color.g * k, color.b * k, color.a * k)
        let keep = 1 - src.3
        func byte(_ s: Float, _ d: UInt8) -> UInt8 { UInt8(min(max(s + Float(d) / 255 * keep, 0), 1) * 255 + 0.5) }
        pixels[i * 4] = byte(src.0, pixels[i * 4])
        pixels[i * 4 + 1] = byte(src.1, pixels[i * 4 + 1])
        pixels[i * 4 + 2] = byte(src.2, pixels[i * 4 + 2])
        pixels[i * 4 + 3] = byte(src.3, pixels[i * 4 + 3])
    }
}
