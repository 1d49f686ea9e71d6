import Foundation

/// What the typed layers (shape, gradient, text) draw in place of `contents`: an image
/// rasterized on the CPU at `scale` pixels per point and the rectangle of the layer's bounds
/// space it covers. Both backends then draw it like any other contents, so they agree.
///
/// As in Core Animation, a typed layer's drawing is its backing store at `contentsScale`: it is
/// redrawn only when a property it depends on changes. Rasterizations are cached by everything
/// they depend on (the style, the bounds, the scale), so an unchanged layer costs a lookup per
/// frame and hands the backends the same `CGImage` object (whose identity their texture caches
/// key on).
package enum TypedContent {
    /// What a typed layer draws: its style.
    package enum Drawing: Equatable, Sendable {
        /// A `CAShapeLayer`'s path, filled and stroked.
        case shape(ShapeStyle)
        /// A `CAGradientLayer`'s gradient.
        case gradient(GradientStyle)
        /// A `CATextLayer`'s string.
        case text(TextStyle)
    }

    /// The longest side, in pixels, of a typed layer's image: a larger one is drawn at a lower
    /// scale and magnified, as an oversized offscreen pass is, rather than allocated unbounded.
    /// The compositor's offscreen passes share the bound (`Compositor.maxPassSize`).
    package static let maxImageSide = 4096

    /// `scale`, lowered where needed so that `points` is at most `maxImageSide` pixels.
    static func scale(_ scale: Double, fitting points: Double) -> Double {
        points * scale > Double(maxImageSide) ? Double(maxImageSide) / points : scale
    }

    /// The rasterized content of a typed layer with these `bounds`, drawn at `scale` pixels per
    /// point, or `nil` when it draws nothing.
    package static func render(_ drawing: Drawing, bounds: CGRect, scale: Double) -> (image: CGImage, rect: CGRect)? {
        TypedContentCache.shared.value(for: TypedContentCache.Key(drawing: drawing, bounds: bounds, scale: scale)) {
            switch drawing {
            case .shape(let s): return ShapeContent.render(s, bounds: bounds, scale: scale)
            case .gradient(let g): return GradientContent.render(g, bounds: bounds, scale: scale)
            case .text(let t): return TextContent.render(t, bounds: bounds, scale: scale)
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
        let drawing: TypedContent.Drawing
        let bounds: CGRect
        let scale: Double

        static func == (a: Key, b: Key) -> Bool { a.bounds == b.bounds && a.scale == b.scale && a.drawing == b.drawing }

        /// Hashes the cheap, telling parts; equality settles the rest.
        func hash(into h: inout Hasher) {
            h.combine(bounds.origin.x)
            h.combine(bounds.origin.y)
            h.combine(bounds.width)
            h.combine(bounds.height)
            h.combine(scale)
            switch drawing {
            case .shape(let s):
                h.combine(s.path?.elements.count)
                h.combine(s.lineWidth)
                h.combine(s.strokeStart)
                h.combine(s.strokeEnd)
                h.combine(s.fillColor)
                h.combine(s.strokeColor)
            case .gradient(let g):
                h.combine(g.colors)
                h.combine(g.locations)
                h.combine(g.type.rawValue)
            case .text(let t):
                h.combine(t.string)
                h.combine(t.fontSize)
                h.combine(t.font)
            }
        }
    }

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
