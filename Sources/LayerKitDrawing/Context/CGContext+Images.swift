// Images drawn into a rectangle of user space, resampled nearest or bilinear.

import Foundation

extension CGContext {
    /// Draws `image` upright into `rect` of user space (its top row at the rect's top, that is
    /// its maximum y), through the CTM, resampled as `interpolationQuality` says: nearest for
    /// `.none`, else bilinear with edges clamped. The rectangle's edges are antialiased and the
    /// clip, alpha, blend mode and shadow apply.
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard let (c, sample) = placement(of: image, in: rect) else { return }
        composite(c, .perPixel(sample))
    }

    /// Where `image` drawn upright into `rect` (user space) lands: the rectangle's coverage in
    /// pixels, and the image's colour at a pixel (by index), resampled as `interpolationQuality`
    /// says; `nil` when nothing lands in the context.
    func placement(of image: CGImage, in rect: CGRect) -> (Coverage, (Int) -> PremultipliedColor)? {
        let r = rect.standardized
        guard image.width > 0, image.height > 0, r.width > 0, r.height > 0 else { return nil }
        // Image pixel space (x right, y down, in pixels) to user space, then to bitmap pixels.
        let toUser = CGAffineTransform(a: r.width / CGFloat(image.width), b: 0, c: 0, d: -r.height / CGFloat(image.height),
                                       tx: r.minX, ty: r.maxY)
        let toPixels = toUser.concatenating(state.ctm).concatenating(deviceToPixels)
        guard toPixels.hasInverse else { return nil }
        let back = toPixels.inverted()
        var cover: Coverage?
        withPath {
            addRect(r)
            cover = coverage(fillPolygons(), rule: .winding)
        }
        guard let c = cover else { return nil }
        let src = image.bitmap, width = width
        let nearest = state.interpolationQuality == .none
        return (c, { i in
            let p = CGPoint(x: Double(i % width) + 0.5, y: Double(i / width) + 0.5).applying(back)
            return nearest ? Self.nearest(src, Double(p.x), Double(p.y)) : Self.bilinear(src, Double(p.x), Double(p.y))
        })
    }

    static func texel(_ b: Bitmap, _ x: Int, _ y: Int) -> PremultipliedColor {
        let px = b[min(max(x, 0), b.width - 1), min(max(y, 0), b.height - 1)]
        return PremultipliedColor(r: Float(px.r) / 255, g: Float(px.g) / 255, b: Float(px.b) / 255, a: Float(px.a) / 255)
    }

    private static func nearest(_ b: Bitmap, _ x: Double, _ y: Double) -> PremultipliedColor {
        texel(b, Int(x.rounded(.down)), Int(y.rounded(.down)))
    }

    private static func bilinear(_ b: Bitmap, _ x: Double, _ y: Double) -> PremultipliedColor {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        let c00 = texel(b, x0, y0), c10 = texel(b, x0 + 1, y0), c01 = texel(b, x0, y0 + 1), c11 = texel(b, x0 + 1, y0 + 1)
        func mix(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Float {
            (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
        }
        return PremultipliedColor(r: mix(c00.r, c10.r, c01.r, c11.r), g: mix(c00.g, c10.g, c01.g, c11.g),
                                  b: mix(c00.b, c10.b, c01.b, c11.b), a: mix(c00.a, c10.a, c01.a, c11.a))
    }
}
