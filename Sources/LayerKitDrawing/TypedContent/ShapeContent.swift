import Foundation

/// What a `CAShapeLayer` draws: its path filled (under `fillRule`), then stroked on top, both
/// antialiased, into one image.
///
/// Core Animation does not clip a shape layer to its bounds, so the image covers the pixel
/// box of what is drawn, on the layer's pixel grid (whole pixels from the bounds' origin), plus
/// one transparent pixel all round so that its edges stay antialiased when the layer is
/// transformed.
enum ShapeContent {
    /// The shape drawn at `scale` pixels per point and the rectangle of the bounds space it
    /// covers; `nil` when nothing is drawn.
    static func render(_ style: ShapeStyle, bounds: CGRect, scale: Double) -> (image: CGImage, rect: CGRect)? {
        typealias Point = PathRasterizer.Point
        guard let path = style.path, !path.isEmpty else { return nil }
        // The control points bound the path; a stroke reaches at most miterLimit (or, with
        // square caps, √2) half widths beyond it on each side.
        let reach = style.strokeColor == nil ? 0 : Double(style.lineWidth) * max(Double(style.miterLimit), 2)
        let box = path.boundingBox
        let scale = TypedContent.scale(scale, fitting: max(Double(box.width), Double(box.height)) + reach)
        let origin = Point(Double(bounds.minX), Double(bounds.minY))
        let toPixels = { (p: CGPoint) in (Point(Double(p.x), Double(p.y)) - origin) * scale }
        var paints: [(polygons: [[Point]], rule: CAShapeLayerFillRule, color: PremultipliedColor)] = []
        if let fill = style.fillColor, fill.alpha > 0 {
            paints.append((PathRasterizer.polylines(path, map: toPixels).map(\.points), style.fillRule, PremultipliedColor(fill)))
        }
        if let stroke = style.strokeColor, stroke.alpha > 0, style.lineWidth > 0 {
            let halfWidth = Double(style.lineWidth) * scale / 2
            let stroker = PathStroker(halfWidth: halfWidth, cap: style.lineCap, join: style.lineJoin,
                                      miterLimit: Double(style.miterLimit),
                                      dashes: style.lineDashPattern?.map { Double($0) * scale },
                                      dashPhase: Double(style.lineDashPhase) * scale,
                                      start: Double(style.strokeStart.clampedToUnitInterval),
                                      end: Double(style.strokeEnd.clampedToUnitInterval))
            let lines = PathRasterizer.polylines(path, maxTurn: PathStroker.maxTurn(halfWidth: halfWidth), map: toPixels)
            paints.append((stroker.outline(lines), .nonZero, PremultipliedColor(stroke)))
        }
        var lo = Point(repeating: .infinity), hi = Point(repeating: -.infinity)
        for paint in paints { for poly in paint.polygons { for p in poly {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        } } }
        // Pixels 2^53 or more from the bounds' origin are past whole-pixel precision (and, a
        // little further, Int's range): a shape starting there is not drawn.
        guard lo.x <= hi.x, lo.y <= hi.y, abs(lo.x) < 0x1p53, abs(lo.y) < 0x1p53 else { return nil }
        hi = pointwiseMin(hi, lo + Double(TypedContent.maxImageSide))
        let x0 = Int(lo.x.rounded(.down)) - 1, y0 = Int(lo.y.rounded(.down)) - 1
        let w = Int(hi.x.rounded(.up)) + 1 - x0, h = Int(hi.y.rounded(.up)) + 1 - y0
        guard w > 0, h > 0 else { return nil }
        let shift = Point(Double(x0), Double(y0))
        var bitmap = Bitmap(width: w, height: h)
        for paint in paints {
            let cover = PathRasterizer.coverage(of: paint.polygons.map { $0.map { $0 - shift } }, rule: paint.rule, width: w, height: h)
            cover.forEachPixel { x, y, k in bitmap.blend(paint.color, coverage: k, pixel: y * w + x) }
        }
        let rect = CGRect(x: Double(bounds.minX) + Double(x0) / scale, y: Double(bounds.minY) + Double(y0) / scale,
                          width: Double(w) / scale, height: Double(h) / scale)
        return (CGImage(bitmap: bitmap, source: "shape"), rect)
    }
}
