import Foundation
import LayerKit

/// What a `CAShapeLayer` draws: its path filled (under `fillRule`), then stroked on top, both
/// antialiased, into one image.
///
/// Core Animation does not clip a shape layer to its bounds, so the image covers the pixel
/// box of what is drawn, on the layer's pixel grid (whole pixels from the bounds' origin), plus
/// one transparent pixel all round so that its edges stay antialiased when the layer is
/// transformed.
enum ShapeContent {
    /// How far, in pixels, a shape may reach outside its bounds before it is cut off: keeps a
    /// path with runaway coordinates from allocating a huge image.
    static let maxOverhang = 4096.0

    /// The shape drawn at `scale` pixels per point and the rectangle of the bounds space it
    /// covers; `nil` when nothing is drawn.
    static func render(_ style: ShapeStyle, bounds: CGRect, scale: Double) -> (image: CGImage, rect: CGRect)? {
        typealias Point = PathRasterizer.Point
        guard let path = style.path, !path.isEmpty else { return nil }
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
                                      start: Double(style.strokeStart), end: Double(style.strokeEnd))
            let lines = PathRasterizer.polylines(path, maxTurn: PathStroker.maxTurn(halfWidth: halfWidth), map: toPixels)
            paints.append((stroker.outline(lines), .nonZero, PremultipliedColor(stroke)))
        }
        var lo = Point(repeating: .infinity), hi = Point(repeating: -.infinity)
        for paint in paints { for poly in paint.polygons { for p in poly { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) } } }
        guard lo.x <= hi.x, lo.y <= hi.y else { return nil }
        let limitLo = Point(repeating: -maxOverhang)
        let limitHi = Point(Double(bounds.width), Double(bounds.height)) * scale + maxOverhang
        lo = pointwiseMax(lo, limitLo); hi = pointwiseMin(hi, limitHi)
        let x0 = Int(lo.x.rounded(.down)) - 1, y0 = Int(lo.y.rounded(.down)) - 1
        let w = Int(hi.x.rounded(.up)) + 1 - x0, h = Int(hi.y.rounded(.up)) + 1 - y0
        guard w > 0, h > 0 else { return nil }
        let shift = Point(Double(x0), Double(y0))
        var bitmap = Bitmap(width: w, height: h)
        for paint in paints {
            let cover = PathRasterizer.coverage(of: paint.polygons.map { $0.map { $0 - shift } }, rule: paint.rule, width: w, height: h)
            for i in 0..<(w * h) where cover[i] > 0 { bitmap.blend(paint.color, coverage: cover[i], pixel: i) }
        }
        let rect = CGRect(x: Double(bounds.minX) + Double(x0) / scale, y: Double(bounds.minY) + Double(y0) / scale,
                          width: Double(w) / scale, height: Double(h) / scale)
        return (CGImage(bitmap: bitmap, source: "shape"), rect)
    }
}
