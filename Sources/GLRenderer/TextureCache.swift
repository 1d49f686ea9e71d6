import CGL
import Foundation
import LayerCompositor
import LayerKitCore

/// Layer contents as GL textures, uploaded once per `CGImage` object and kept while the image
/// lives, within a byte budget.
///
/// Entries are keyed by the image's identity and hold it weakly: when the last reference to an
/// image goes, its texture is deleted at the end of the next frame (and a new image that
/// happens to reuse the old one's address is never mistaken for it). Beyond `budget` bytes the
/// least recently drawn textures are deleted first, never one drawn in the current frame.
///
/// Images larger than the texture size limit (`GL_MAX_TEXTURE_SIZE`, or a lower
/// `GLRenderer.textureSizeLimit`) are box-filtered down to fit on upload, with a warning on
/// standard error; the renderer scales texel coordinates to match, so such an image shows
/// whole but softer than the CPU reference draws it.
final class TextureCache {
    final class Entry {
        weak var image: CGImage?
        let texture: GLuint
        /// Uploaded size (smaller than the image's where it was downscaled).
        let width: Int
        let height: Int
        /// Uploaded texels per image pixel, per axis.
        let scale: (Double, Double)
        var bytes: Int
        var hasMipmaps = false
        var lastUsedFrame: Int

        init(image: CGImage, texture: GLuint, width: Int, height: Int, scale: (Double, Double), bytes: Int, frame: Int) {
            self.image = image
            self.texture = texture
            self.width = width
            self.height = height
            self.scale = scale
            self.bytes = bytes
            self.lastUsedFrame = frame
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Bytes of all textures held (levels included).
    private(set) var bytesHeld = 0
    /// Textures held.
    var count: Int { entries.count }
    /// Most bytes kept across frames.
    var budget: Int
    /// Largest side uploaded.
    var sizeLimit: Int

    init(budget: Int, sizeLimit: Int) {
        self.budget = budget
        self.sizeLimit = sizeLimit
    }

    /// The texture for `image`, uploading it (and its mip levels when `mipmaps`) if needed.
    func texture(for image: CGImage, mipmaps: Bool, frame: Int, state: inout GLDevice, stats: inout GLRenderer.FrameStats) -> Entry {
        let key = ObjectIdentifier(image)
        let entry: Entry
        if let e = entries[key], e.image === image {
            entry = e
        } else {
            if let stale = entries[key] {
                delete(stale, state: &state)
                entries[key] = nil
            }
            entry = upload(image, frame: frame, state: &state, stats: &stats)
            entries[key] = entry
        }
        entry.lastUsedFrame = frame
        if mipmaps && !entry.hasMipmaps { uploadMipmaps(entry, image: image, state: &state, stats: &stats) }
        return entry
    }

    /// End of frame: drops textures of images that no longer exist, then the least recently
    /// used ones while over budget.
    func trim(frame: Int, state: inout GLDevice) {
        for (key, e) in entries where e.image == nil {
            delete(e, state: &state)
            entries[key] = nil
        }
        guard bytesHeld > budget else { return }
        let old = entries.filter { $0.value.lastUsedFrame < frame }.sorted { $0.value.lastUsedFrame < $1.value.lastUsedFrame }
        for (key, e) in old where bytesHeld > budget {
            delete(e, state: &state)
            entries[key] = nil
        }
    }

    /// Deletes every texture.
    func removeAll(state: inout GLDevice) {
        for e in entries.values { delete(e, state: &state) }
        entries = [:]
    }

    private func delete(_ e: Entry, state: inout GLDevice) {
        state.deleteTexture(e.texture)
        bytesHeld -= e.bytes
    }

    private func upload(_ image: CGImage, frame: Int, state: inout GLDevice, stats: inout GLRenderer.FrameStats) -> Entry {
        var bitmap = image.bitmap
        let w = max(bitmap.width, 1), h = max(bitmap.height, 1)
        let tw = min(w, sizeLimit), th = min(h, sizeLimit)
        if tw != w || th != h {
            FileHandle.standardError.write(Data(("GLRenderer: warning: image \(image.source) is \(w)x\(h) pixels, over the "
                + "texture size limit \(sizeLimit); uploading it downscaled to \(tw)x\(th)\n").utf8))
            bitmap = TextureCache.downscale(bitmap, width: tw, height: th)
        }
        if bitmap.width == 0 || bitmap.height == 0 { bitmap = Bitmap(width: 1, height: 1) }
        let t = state.makeTexture(min: GL_LINEAR_MIPMAP_LINEAR, mag: GL_LINEAR)
        bitmap.pixels.withUnsafeBytes {
            state.defineTexels(level: 0, format: GL_RGBA8, width: bitmap.width, height: bitmap.height, $0.baseAddress)
        }
        let bytes = bitmap.pixels.count
        bytesHeld += bytes
        stats.textureUploads += 1
        stats.uploadedBytes += bytes
        return Entry(image: image, texture: t, width: bitmap.width, height: bitmap.height,
                     scale: (Double(bitmap.width) / Double(w), Double(bitmap.height) / Double(h)), bytes: bytes, frame: frame)
    }

    /// Uploads `Mipmaps.levels` (the reference's chain, not the driver's) below level 0.
    private func uploadMipmaps(_ e: Entry, image: CGImage, state: inout GLDevice, stats: inout GLRenderer.FrameStats) {
        var base = image.bitmap
        if base.width != e.width || base.height != e.height { base = TextureCache.downscale(base, width: e.width, height: e.height) }
        let levels = Mipmaps.levels(of: base)
        state.bindForEditing(e.texture, unit: GLRenderer.Unit.upload)
        for (i, level) in levels.enumerated() {
            level.pixels.withUnsafeBytes {
                state.defineTexels(level: i + 1, format: GL_RGBA8, width: level.width, height: level.height, $0.baseAddress)
            }
            e.bytes += level.pixels.count
            bytesHeld += level.pixels.count
            stats.uploadedBytes += level.pixels.count
        }
        state.setMaximumLevel(levels.count)
        stats.textureUploads += 1
        e.hasMipmaps = true
    }

    /// Box-filters `b` to `width` x `height` (each output pixel the area average of the input
    /// pixels it covers, fractional at its edges), premultiplied, rounded to nearest.
    static func downscale(_ b: Bitmap, width: Int, height: Int) -> Bitmap {
        // One axis at a time: weights of source index i for destination index o.
        func weights(_ n: Int, _ m: Int) -> [[(Int, Float)]] {
            let step = Double(n) / Double(m)
            return (0..<m).map { o in
                let a = Double(o) * step, b = Double(o + 1) * step
                var out: [(Int, Float)] = []
                var i = Int(a.rounded(.down))
                while Double(i) < b && i < n {
                    let cover = min(b, Double(i + 1)) - max(a, Double(i))
                    if cover > 0 { out.append((i, Float(cover / step))) }
                    i += 1
                }
                return out
            }
        }
        let wx = weights(b.width, width), wy = weights(b.height, height)
        var rows = [Float](repeating: 0, count: width * b.height * 4)
        b.pixels.withUnsafeBufferPointer { p in
            for y in 0..<b.height {
                for x in 0..<width {
                    for (i, k) in wx[x] {
                        for c in 0..<4 { rows[(y * width + x) * 4 + c] += Float(p[(y * b.width + i) * 4 + c]) * k }
                    }
                }
            }
        }
        var out = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var acc = SIMD4<Float>(0, 0, 0, 0)
                for (j, k) in wy[y] {
                    let i = (j * width + x) * 4
                    acc += SIMD4(rows[i], rows[i + 1], rows[i + 2], rows[i + 3]) * k
                }
                for c in 0..<4 { out.pixels[(y * width + x) * 4 + c] = UInt8(min(max(acc[c], 0), 255) + 0.5) }
            }
        }
        return out
    }
}
