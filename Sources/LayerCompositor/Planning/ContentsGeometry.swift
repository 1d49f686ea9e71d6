import Foundation
import LayerKitCore

/// Where a layer's contents land in its bounds and which texels they show: Core Animation's
/// `contentsGravity`, `contentsScale`, `contentsRect` and `contentsCenter` rules.
///
/// The logical size of the contents is the `contentsRect` part of the image in pixels divided by
/// `contentsScale`. Gravity places that size in the bounds ("bottom" is minimum y, "top"
/// maximum y, as in CALayer.h). `contentsRect` outside 0…1 reads clamped edge texels (the
/// samplers clamp); an empty one draws nothing. `contentsCenter` splits each axis into three
/// segments whose outer two keep their size in points, shrinking together when the layer is
/// smaller than both.
enum ContentsGeometry {
    /// The destination rectangle in bounds space and the per-axis texel maps, or `nil` when
    /// nothing is drawn.
    static func imageFill(for p: LayerProperties, image: CGImage, flippedY: Bool) -> (rect: CGRect, fill: ImageFill)? {
        let cr = p.contentsRect
        guard cr.width > 0, cr.height > 0, image.width > 0, image.height > 0, p.contentsScale > 0 else { return nil }
        let iw = Double(image.width), ih = Double(image.height)
        let u0 = Double(cr.minX) * iw, u1 = Double(cr.maxX) * iw
        let v0 = Double(cr.minY) * ih, v1 = Double(cr.maxY) * ih
        let scale = Double(p.contentsScale)
        let w = (u1 - u0) / scale, h = (v1 - v0) / scale
        let b = p.bounds
        let (bw, bh) = (Double(b.width), Double(b.height))
        var dw = w, dh = h
        switch p.contentsGravity {
        case .resizeAspect:
            let s = min(bw / w, bh / h)
            dw = w * s
            dh = h * s
        case .resizeAspectFill:
            let s = max(bw / w, bh / h)
            dw = w * s
            dh = h * s
        case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight:
            break
        default: // resize, and unknown values
            dw = bw
            dh = bh
        }
        let g = p.contentsGravity
        let x: Double
        switch g {
        case .left, .topLeft, .bottomLeft: x = 0
        case .right, .topRight, .bottomRight: x = bw - dw
        default: x = (bw - dw) / 2
        }
        let y: Double
        switch g {
        case .bottom, .bottomLeft, .bottomRight: y = 0
        case .top, .topLeft, .topRight: y = bh - dh
        default: y = (bh - dh) / 2
        }
        let rect = CGRect(x: Double(b.minX) + x, y: Double(b.minY) + y, width: dw, height: dh)
        guard dw.isFinite, dh.isFinite, dw > 0, dh > 0 else { return nil }
        let cc = p.contentsCenter
        let xMap = axisMap(from: Double(rect.minX), to: Double(rect.maxX), texels: (u0, u1),
                           center: (Double(cc.minX), Double(cc.maxX)), scale: scale)
        var yMap = axisMap(from: Double(rect.minY), to: Double(rect.maxY), texels: (v0, v1),
                           center: (Double(cc.minY), Double(cc.maxY)), scale: scale)
        if flippedY {
            // Contents display the same under a flipped geometry: mirror the texel map.
            yMap.texels = yMap.texels.map { v0 + v1 - $0 }
        }
        return (rect, ImageFill(image: image, x: xMap, y: yMap, minification: p.minificationFilter,
                                magnification: p.magnificationFilter))
    }

    /// The part of `rect` where an image quad with aliased edges can change a pixel: pixel
    /// centres whose local point maps more than a texel outside the image's ink (its pixels
    /// that are not transparent black) sample only transparent black, under nearest and linear
    /// filtering alike, and so add nothing. Returns `rect` itself where that does not hold
    /// (antialiased edges would move with the rectangle; trilinear filtering reads coarser mip
    /// levels, whose texels reach further) and `nil` when the quad can add nothing at all.
    static func inked(_ rect: CGRect, fill: ImageFill, antialiased: Bool) -> CGRect? {
        guard !antialiased, fill.minification != .trilinear, fill.magnification != .trilinear else { return rect }
        guard let ink = fill.image.inkBounds else { return nil }
        // Clamp-to-edge sampling repeats an inked edge texel beyond the image.
        func range(_ a: Int, _ b: Int, size: Int) -> (Double, Double) {
            (a == 0 ? -.infinity : Double(a) - 1, b == size ? .infinity : Double(b) + 1)
        }
        let (xl, xh) = range(ink.x0, ink.x1, size: fill.image.width)
        let (yl, yh) = range(ink.y0, ink.y1, size: fill.image.height)
        guard let x = fill.x.preimage(xl, xh), let y = fill.y.preimage(yl, yh) else { return nil }
        let r = rect.standardized
        let x0 = max(Double(r.minX), x.lo), x1 = min(Double(r.maxX), x.hi)
        let y0 = max(Double(r.minY), y.lo), y1 = min(Double(r.maxY), y.hi)
        guard x0 < x1, y0 < y1 else { return nil }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// One axis: a single segment, or three for a nine-slice centre other than 0…1.
    static func axisMap(from d0: Double, to d1: Double, texels: (Double, Double), center: (Double, Double), scale: Double) -> AxisMap {
        let (t0, t1) = texels
        guard center.0 > 0 || center.1 < 1 else { return AxisMap(stops: [d0, d1], texels: [t0, t1]) }
        let c0 = min(max(center.0, 0), 1), c1 = min(max(center.1, c0), 1)
        let capA = c0 * (t1 - t0), capB = (1 - c1) * (t1 - t0)      // texels
        var a = capA / scale, bb = capB / scale                        // points
        let span = d1 - d0
        if a + bb > span, a + bb > 0 {
            let k = span / (a + bb)
            a *= k
            bb *= k
        }
        return AxisMap(stops: [d0, d0 + a, d1 - bb, d1], texels: [t0, t0 + capA, t1 - capB, t1])
    }
}
