import LayerKitCore

/// The mipmap chain both backends sample for `trilinear` minification: each level halves the
/// previous one (never below 1 pixel) with a 2x2 box filter on premultiplied values, rounded to
/// nearest; odd edges reuse their last row or column. The GL backend uploads these levels
/// instead of asking the driver for its own, so both sample the same texels.
package enum Mipmaps {
    /// Level 1 onwards (level 0 is the image itself), down to 1x1.
    package static func levels(of base: Bitmap) -> [Bitmap] {
        var out: [Bitmap] = []
        var cur = base
        while cur.width > 1 || cur.height > 1 {
            let w = max(cur.width / 2, 1), h = max(cur.height / 2, 1)
            var next = Bitmap(width: w, height: h)
            for y in 0..<h {
                let y0 = min(2 * y, cur.height - 1), y1 = min(2 * y + 1, cur.height - 1)
                for x in 0..<w {
                    let x0 = min(2 * x, cur.width - 1), x1 = min(2 * x + 1, cur.width - 1)
                    for c in 0..<4 {
                        let s = Int(cur.pixels[(y0 * cur.width + x0) * 4 + c]) + Int(cur.pixels[(y0 * cur.width + x1) * 4 + c])
                            + Int(cur.pixels[(y1 * cur.width + x0) * 4 + c]) + Int(cur.pixels[(y1 * cur.width + x1) * 4 + c])
                        next.pixels[(y * w + x) * 4 + c] = UInt8((s + 2) / 4)
                    }
                }
            }
            out.append(next)
            cur = next
        }
        return out
    }
}
