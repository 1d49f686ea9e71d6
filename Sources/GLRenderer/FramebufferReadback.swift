import CGL
import Foundation
import LayerCompositor
import LayerKitCore

/// Reads `width` x `height` pixels of `framebuffer` (0: the window's back buffer, the frame
/// just drawn and not yet presented) as a premultiplied RGBA8 `Bitmap`, rows top-down.
///
/// GL numbers framebuffer rows bottom-up and LayerKit's bitmaps run top-down, so the rows are
/// flipped here; pixel (0, 0) of the result is the framebuffer's top-left, as `GLRenderer`
/// draws the canvas's top-left there. Leaves `framebuffer` bound for reading.
///
/// - Throws: `GLError` when `glReadPixels` fails (an incomplete framebuffer, a size past its edge).
public func readPixels(framebuffer: GLuint, width: Int, height: Int) throws -> Bitmap {
    try GLDevice().readBitmap(framebuffer: framebuffer, width: width, height: height)
}

extension GLDevice {
    /// `readPixels(framebuffer:width:height:)` through this device; into `reusing`'s pixels
    /// when it has the size and they are not shared, so that a frame loop reading every frame
    /// neither allocates nor faults in a new canvas of memory each time.
    func readBitmap(framebuffer: GLuint, width: Int, height: Int, reusing: consuming Bitmap? = nil) throws -> Bitmap {
        var bitmap = reusing ?? Bitmap(width: 0, height: 0)
        if bitmap.width != width || bitmap.height != height {
            // Every byte is read into, so no zero fill first.
            let count = width * height * 4
            bitmap = Bitmap(width: width, height: height, pixels: [UInt8](unsafeUninitializedCapacity: count) { $1 = count })
        }
        let row = width * 4
        try bitmap.pixels.withUnsafeMutableBytes { dst in
            guard dst.count > 0 else { return }
            try readPixels(framebuffer: framebuffer, width: width, height: height, into: dst)
            // GL's rows are bottom-up: flip them in place, a pair of rows at a time.
            withUnsafeTemporaryAllocation(byteCount: row, alignment: 16) { tmp in
                for y in 0..<(height / 2) {
                    let a = dst.baseAddress! + y * row, b = dst.baseAddress! + (height - 1 - y) * row
                    memcpy(tmp.baseAddress!, a, row)
                    memcpy(a, b, row)
                    memcpy(b, tmp.baseAddress!, row)
                }
            }
        }
        return bitmap
    }

    /// Reads the pixels of `rects` (top-down rows, as in `bitmap`) of `framebuffer` into
    /// `bitmap`, which has the framebuffer's size; the rest of `bitmap` stays as it was.
    func readRects(_ rects: [PixelRect], framebuffer: GLuint, into bitmap: inout Bitmap) throws {
        let height = bitmap.height, stride = bitmap.width * 4
        for r in rects {
            let w = r.x1 - r.x0, h = r.y1 - r.y0
            let raw = try readPixels(framebuffer: framebuffer, x: r.x0, y: height - r.y1, width: w, height: h)
            bitmap.pixels.withUnsafeMutableBytes { dst in
                raw.withUnsafeBytes { src in
                    for j in 0..<h {
                        memcpy(dst.baseAddress! + (r.y0 + j) * stride + r.x0 * 4, src.baseAddress! + (h - 1 - j) * w * 4, w * 4)
                    }
                }
            }
        }
    }
}
