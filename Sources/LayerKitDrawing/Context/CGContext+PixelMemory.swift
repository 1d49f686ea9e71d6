// The context's pixels: the working bitmap and the caller's memory in any supported layout,
// kept in step run by run around each drawing call; and `makeImage()`.

import Foundation

extension CGContext {
    /// Where R, G, B and A lie within a pixel's four bytes (A `nil` when skipped: opaque).
    struct PixelLayout {
        let alphaInfo: CGImageAlphaInfo
        let r: Int, g: Int, b: Int, a: Int?
        /// The byte that is skipped, written as 255.
        let skip: Int?

        init?(_ info: CGBitmapInfo) {
            guard let alpha = CGImageAlphaInfo(rawValue: info.intersection(.alphaInfoMask).rawValue),
                  !info.contains(.floatComponents) else { return nil }
            let order = info.intersection(.byteOrderMask)
            guard order == .byteOrderDefault || order == .byteOrder32Big || order == .byteOrder32Little else { return nil }
            // Big-endian order of the 32-bit pixel, then reversed for little-endian memory.
            var slots: [Character]
            switch alpha {
            case .premultipliedLast: slots = ["r", "g", "b", "a"]
            case .premultipliedFirst: slots = ["a", "r", "g", "b"]
            case .noneSkipLast: slots = ["r", "g", "b", "x"]
            case .noneSkipFirst: slots = ["x", "r", "g", "b"]
            default: return nil
            }
            if order == .byteOrder32Little { slots.reverse() }
            alphaInfo = alpha
            r = slots.firstIndex(of: "r")!
            g = slots.firstIndex(of: "g")!
            b = slots.firstIndex(of: "b")!
            a = slots.firstIndex(of: "a")
            skip = slots.firstIndex(of: "x")
        }
    }

    /// Stretches of pixels along rows (top down): `count` pixels from column `x` of row `y`.
    typealias PixelRuns = [Coverage.Run]

    /// Calls `body` with each pixel's byte offset in the caller's memory and in the bitmap.
    private func forEachPixel(in runs: PixelRuns, _ body: (_ memory: Int, _ bitmap: Int) -> Void) {
        for r in runs { for x in r.x..<(r.x + r.count) { body(r.y * bytesPerRow + x * 4, (r.y * width + x) * 4) } }
    }

    /// All the context's pixels.
    var everyPixel: PixelRuns { (0..<height).map { Coverage.Run(y: $0, x: 0, start: 0, count: width) } }

    /// Whether the caller's pixels are laid out as the bitmap's (premultiplied RGBA), so rows
    /// copy as they are.
    var isRGBA: Bool { layout.r == 0 && layout.g == 1 && layout.b == 2 && layout.a == 3 }

    /// Copies `runs` between the caller's memory and the bitmap, whose layouts are the same
    /// (`isRGBA`): a byte copy a run instead of a shuffle a pixel.
    private func copyRows(_ runs: PixelRuns, memory: UnsafeMutableRawPointer, toBitmap: Bool) {
        bitmap.pixels.withUnsafeMutableBytes { pixels in
            for r in runs {
                let caller = memory + r.y * bytesPerRow + r.x * 4, own = pixels.baseAddress! + (r.y * width + r.x) * 4
                if toBitmap { own.copyMemory(from: caller, byteCount: r.count * 4) } else { caller.copyMemory(from: own, byteCount: r.count * 4) }
            }
        }
    }

    /// Reads the caller's memory in `runs` into the working bitmap (a caller may write pixels
    /// between calls).
    func load(_ runs: PixelRuns) {
        guard let memory else { return }
        if isRGBA { return copyRows(runs, memory: memory, toBitmap: true) }
        let src = memory.assumingMemoryBound(to: UInt8.self)
        let layout = layout
        bitmap.pixels.withUnsafeMutableBufferPointer { dst in
            forEachPixel(in: runs) { s, d in
                dst[d] = src[s + layout.r]
                dst[d + 1] = src[s + layout.g]
                dst[d + 2] = src[s + layout.b]
                dst[d + 3] = layout.a.map { src[s + $0] } ?? 255
            }
        }
    }

    /// Writes the working bitmap in `runs` back to the caller's memory.
    func store(_ runs: PixelRuns) {
        guard let memory else { return }
        if isRGBA { return copyRows(runs, memory: memory, toBitmap: false) }
        let dst = memory.assumingMemoryBound(to: UInt8.self)
        let layout = layout
        bitmap.pixels.withUnsafeBufferPointer { src in
            forEachPixel(in: runs) { d, s in
                dst[d + layout.r] = src[s]
                dst[d + layout.g] = src[s + 1]
                dst[d + layout.b] = src[s + 2]
                if let a = layout.a { dst[d + a] = src[s + 3] }
                if let x = layout.skip { dst[d + x] = 255 }
            }
        }
    }

    /// Runs one drawing operation that reads and writes only the pixels in `runs` on the
    /// bitmap, in step with the memory if there is one: a thin line copies few pixels.
    func paint(_ runs: PixelRuns, _ body: () -> Void) {
        load(runs)
        body()
        store(runs)
    }

    /// An image of the context's current pixels (`makeImage()`), premultiplied RGBA.
    public func makeImage() -> CGImage? {
        load(everyPixel)
        return CGImage(bitmap: bitmap, source: "CGContext")
    }
}
