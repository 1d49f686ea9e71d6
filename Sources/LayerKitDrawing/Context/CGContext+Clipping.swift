// The clip: a coverage mask per pixel in the graphics state, intersected by paths, rectangles
// and image masks.

import Foundation

extension CGContext {
    /// Intersects the clip with the current path filled under `rule`, then empties the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        defer { beginPath() }
        var mask = [UInt8](repeating: 0, count: width * height)
        if let c = coverage(fillPolygons(), rule: rule) {
            c.forEachPixel { x, y, k in mask[y * width + x] = k }
        }
        intersectClip(mask)
    }

    /// Makes the clip the product of the clip and `mask` (coverage per pixel).
    private func intersectClip(_ mask: [UInt8]) {
        var mask = mask
        if let old = state.clip {
            for i in mask.indices where mask[i] > 0 { mask[i] = UInt8((Int(mask[i]) * Int(old[i]) + 127) / 255) }
        }
        state.clip = mask
    }

    /// Intersects the clip with `mask` drawn into `rect` as `draw(_:in:)` would draw it (through
    /// the CTM, resampled as `interpolationQuality` says): outside the rectangle nothing is
    /// drawn any more, inside each pixel is kept as much as the mask says. An opaque mask is a
    /// greyscale image (Core Graphics asks for DeviceGray): its grey level (the luminance,
    /// 0.2126 R + 0.7152 G + 0.0722 B, for a coloured one) says, white keeping and black
    /// removing; a mask with transparency says with its alpha. Restored with the graphics state.
    public func clip(to rect: CGRect, mask: CGImage) {
        var clip = [UInt8](repeating: 0, count: width * height)
        if let (c, sample) = placement(of: mask, in: rect) {
            let opaque = !stride(from: 3, to: mask.bitmap.pixels.count, by: 4).contains { mask.bitmap.pixels[$0] < 255 }
            c.forEachPixel { x, y, k in
                let i = y * width + x
                let p = sample(i)
                let keep = opaque ? 0.2126 * p.r + 0.7152 * p.g + 0.0722 * p.b : p.a
                clip[i] = UInt8(min(max(keep * Float(k), 0), 255) + 0.5)
            }
        }
        intersectClip(clip)
    }

    /// Removes the clip: drawing reaches the whole context again (`CGContextResetClip`). In a
    /// layer's `draw(in:)` this also lifts the clip to the area `setNeedsDisplay(_:)` marked.
    public func resetClip() { state.clip = nil }

    /// Intersects the clip with a rectangle.
    public func clip(to rect: CGRect) { withPath {
        addRect(rect)
        clip()
    } }

    /// Intersects the clip with rectangles.
    public func clip(to rects: [CGRect]) { withPath {
        addRects(rects)
        clip()
    } }

    /// The bounding box of the clip in user space (the whole context when unclipped).
    public var boundingBoxOfClipPath: CGRect {
        var r = CGRect(x: 0, y: 0, width: width, height: height)
        if let clip = state.clip {
            var (x0, y0, x1, y1) = (width, height, 0, 0)
            for y in 0..<height { for x in 0..<width where clip[y * width + x] > 0 {
                x0 = min(x0, x)
                x1 = max(x1, x + 1)
                y0 = min(y0, y)
                y1 = max(y1, y + 1)
            } }
            r = x0 < x1 ? CGRect(x: x0, y: height - y1, width: x1 - x0, height: y1 - y0) : .null
        }
        return r.isNull ? r : r.applying(state.ctm.inverted())
    }
}
