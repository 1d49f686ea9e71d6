// Linear and radial gradients painted over the whole clip.

import Foundation

extension CGContext {
    /// Paints `gradient` along the line from `start` to `end` (user space) over the whole clip:
    /// each pixel's colour is that at its centre's projection onto the line. Without `options`
    /// only the band between the lines through `start` and `end` square to it is painted.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return }
        let s = SIMD2(Double(start.x), Double(start.y)), d = SIMD2(Double(end.x), Double(end.y)) - s
        let len2 = d.dot(d)
        drawGradient(gradient) { u in
            let t = len2 > 0 ? (u - s).dot(d) / len2 : 0
            if t < 0 && !options.contains(.drawsBeforeStartLocation) || t > 1 && !options.contains(.drawsAfterEndLocation) {
                return nil
            }
            return t
        }
    }

    /// Paints `gradient` between two circles (user space) over the whole clip, as Core
    /// Graphics does: the circles between them, centre and radius interpolated, sweep a cone,
    /// and each pixel centre takes the colour of the last circle (largest location) through it.
    /// Without `options` only the cone between the two circles is painted (the inside of a
    /// start circle with a radius is not); `.drawsBeforeStartLocation` carries the cone on
    /// before the start circle (down to radius 0) in the first colour and
    /// `.drawsAfterEndLocation` beyond the end circle in the last. The same cone as
    /// `CAGradientLayer`'s radial type (one piece of code). Negative radii are ignored.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard [startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius].allSatisfy(\.isFinite),
              startRadius >= 0, endRadius >= 0 else { return }
        let c0 = SIMD2(Double(startCenter.x), Double(startCenter.y)), c1 = SIMD2(Double(endCenter.x), Double(endCenter.y))
        drawGradient(gradient) { u in
            GradientContent.radialParameter(u, from: (c0, Double(startRadius)), to: (c1, Double(endRadius)),
                                            before: options.contains(.drawsBeforeStartLocation),
                                            after: options.contains(.drawsAfterEndLocation))
        }
    }

    /// Paints `gradient` over the whole clip where `parameter` (of a pixel centre in user
    /// space) gives a location, in the colour at that location.
    private func drawGradient(_ gradient: CGGradient, parameter: (SIMD2<Double>) -> Double?) {
        guard state.ctm.hasInverse else { return }
        let back = state.ctm.concatenating(deviceToPixels).inverted()
        let stops = GradientContent.stops(gradient.colors, gradient.locations)
        var cover = [UInt8](repeating: 0, count: width * height)
        var colors = [PremultipliedColor](repeating: .clear, count: width * height)
        for i in cover.indices {
            let u = CGPoint(x: Double(i % width) + 0.5, y: Double(i / width) + 0.5).applying(back)
            guard let t = parameter(SIMD2(Double(u.x), Double(u.y))) else { continue }
            let c = GradientContent.color(stops, at: t)
            cover[i] = 255
            colors[i] = PremultipliedColor(r: Float(c[0]), g: Float(c[1]), b: Float(c[2]), a: Float(c[3]))
        }
        composite(Coverage(box: cover, x0: 0, y0: 0, w: width, h: height), .perPixel { colors[$0] })
    }
}
