// Filling, stroking and clearing: the path's coverage in pixels (strokes outlined under the CTM),
// composited with the clip, alpha, blend mode and shadow of the graphics state.

import Foundation

extension CGContext {
    /// Device space (y up) to bitmap pixels (rows top down).
    var deviceToPixels: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// The bitmap row position of a device (y-up) point.
    private func pixel(_ p: CGPoint) -> PathRasterizer.Point {
        PathRasterizer.Point(Double(p.x), Double(height) - Double(p.y))
    }

    /// Coverage of `polygons` (in pixels, top-down) under `rule`, within the context, with the
    /// box of pixels it was computed for; `nil` when nothing is inside the context.
    func coverage(_ polygons: [[PathRasterizer.Point]], rule: CGPathFillRule)
        -> Coverage? {
        var lo = PathRasterizer.Point(repeating: .infinity), hi = -lo
        for poly in polygons { for p in poly {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        } }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // Clamped to the context on both sides before the conversion: a path far off one side
        // (or an enormous pen) reaches beyond Int's range.
        func column(_ v: Double) -> Int { Int(min(max(v, 0), Double(width))) }
        func row(_ v: Double) -> Int { Int(min(max(v, 0), Double(height))) }
        let x0 = column(lo.x.rounded(.down)), y0 = row(lo.y.rounded(.down))
        let x1 = column(hi.x.rounded(.up)), y1 = row(hi.y.rounded(.up))
        guard x0 < x1, y0 < y1 else { return nil }
        let shift = PathRasterizer.Point(Double(x0), Double(y0))
        var cover = PathRasterizer.coverage(of: polygons.map { $0.map { $0 - shift } },
                                            rule: rule == .evenOdd ? .evenOdd : .nonZero, width: x1 - x0, height: y1 - y0)
            .offsetBy(dx: x0, dy: y0)
        if !state.antialias { for i in cover.values.indices { cover.values[i] = cover.values[i] >= 128 ? 255 : 0 } }
        return cover
    }

    /// The current path's subpaths as polygons in pixels.
    func fillPolygons() -> [[PathRasterizer.Point]] {
        PathRasterizer.polylines(devicePath, map: pixel).map(\.points)
    }

    /// The current path's stroke outline in pixels. The stroke is outlined in user space under
    /// the CTM at stroke time (as Core Graphics strokes), then mapped to pixels, so a scaled
    /// CTM scales the line width and dashes and a non-uniform one makes an elliptical pen.
    private func strokePolygons() -> [[PathRasterizer.Point]] {
        strokeOutline().map { $0.map { pixel(CGPoint(x: $0.x, y: $0.y)) } }
    }

    /// The current path's stroke outline in device space: closed polygons whose winding fill
    /// is the stroke.
    private func strokeOutline() -> [[PathRasterizer.Point]] {
        let t = state.ctm
        guard t.hasInverse, state.lineWidth > 0 else { return [] }
        let inverse = t.inverted()
        let halfWidth = state.lineWidth / 2
        let stroker = PathStroker(halfWidth: halfWidth, cap: CAShapeLayerLineCap(state.lineCap),
                                  join: CAShapeLayerLineJoin(state.lineJoin), miterLimit: state.miterLimit,
                                  dashes: state.dashes, dashPhase: state.dashPhase, start: 0, end: 1)
        // Flattening happens in user space: tighten it by the CTM's largest stretch.
        let stretch = max(abs(Double(t.a)) + abs(Double(t.c)), abs(Double(t.b)) + abs(Double(t.d)), 1e-9)
        let lines = PathRasterizer.polylines(devicePath, maxTurn: PathStroker.maxTurn(halfWidth: halfWidth * stretch)) {
            let u = $0.applying(inverse)
            return PathRasterizer.Point(Double(u.x), Double(u.y)) * stretch
        }
        return stroker.outline(lines.map { PathRasterizer.Polyline(points: $0.points.map { $0 / stretch }, closed: $0.closed) })
            .map { $0.map { CGPoint(x: $0.x, y: $0.y).applying(t) }.map { PathRasterizer.Point(Double($0.x), Double($0.y)) } }
    }

    /// Replaces the current path with the outline of its stroke under the line width, cap,
    /// join, miter limit, dash and CTM (`CGContextReplacePathWithStrokedPath`): filling the
    /// new path with the winding rule paints what `strokePath()` would have painted.
    public func replacePathWithStrokedPath() {
        devicePath = CGMutablePath(elements: CGPath.polygonPath(strokeOutline().map { ($0, true) }, transform: .identity).elements)
    }

    /// What a drawing operation lays down: one colour (a fill or a stroke), or a colour per
    /// pixel index (an image, a gradient).
    enum Source {
        case uniform(PremultipliedColor)
        case perPixel((Int) -> PremultipliedColor)

        func color(at i: Int) -> PremultipliedColor {
            switch self {
            case .uniform(let c): c
            case .perPixel(let color): color(i)
            }
        }
    }

    /// Blends `source` over the coverage, limited by the clip, under the blend mode, after its
    /// shadow when there is one.
    func composite(_ c: Coverage, mode: CGBlendMode? = nil, _ source: Source) {
        let mode = mode ?? state.blendMode
        if let shadow = state.shadow, mode != .clear, let cast = shadowCoverage(shadow, of: c, source: source) {
            state.shadow = nil
            composite(cast, mode: mode, .uniform(shadow.color))
            state.shadow = shadow
        }
        let alpha = state.alpha
        func faded(_ s: PremultipliedColor) -> PremultipliedColor {
            PremultipliedColor(r: s.r * alpha, g: s.g * alpha, b: s.b * alpha, a: s.a * alpha)
        }
        if case .uniform(let color) = source, mode == .normal, state.clip == nil {
            return paint(c.runs) { blendStretches(faded(color), over: c) }
        }
        paint(c.runs) {
            for r in c.runs {
                var j = 0
                while j < r.count {
                    var k = Int(c.values[r.start + j])
                    let i = r.y * width + r.x + j
                    j += 1
                    guard k > 0 else { continue }
                    if let clip = state.clip {
                        k = (k * Int(clip[i]) + 127) / 255
                        if k == 0 { continue }
                    }
                    bitmap.blend(faded(source.color(at: i)), coverage: UInt8(k), pixel: i, mode: mode)
                }
            }
        }
    }

    /// Source-over of one colour over the coverage, unclipped: each stretch of equal coverage
    /// along a run (a span's inside) is blended at once.
    private func blendStretches(_ color: PremultipliedColor, over c: Coverage) {
        let width = width
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            c.values.withUnsafeBufferPointer { values in
                for r in c.runs {
                    var j = 0
                    while j < r.count {
                        let k = values[r.start + j]
                        var end = j + 1
                        while end < r.count && values[r.start + end] == k { end += 1 }
                        if k > 0 { Bitmap.blend(color, coverage: k, count: end - j, at: pixels.baseAddress! + (r.y * width + r.x + j) * 4) }
                        j = end
                    }
                }
            }
        }
    }

    /// The coverage of the shadow cast by drawing `color` over `c`: the drawing's alpha,
    /// blurred (wider by 3 sigma on every side) and moved by the shadow's offset; `nil` when it
    /// falls outside the context.
    private func shadowCoverage(_ shadow: Shadow, of c: Coverage, source: Source) -> Coverage? {
        guard let box = c.bounds else { return nil }
        let weights = GaussianBlur.weights(sigma: shadow.sigma)
        let m = weights.count - 1, bw = box.x1 - box.x0, bh = box.y1 - box.y0
        // The drawing's pixel (x, y) casts onto (x + dx, y − dy): the offset is y up, rows run
        // down. Only the part of the blurred shadow inside the context is worked out.
        let left = box.x0 + shadow.dx, top = box.y0 - shadow.dy
        let x0 = max(left - m, 0), y0 = max(top - m, 0), x1 = min(left + bw + m, width), y1 = min(top + bh + m, height)
        guard x0 < x1, y0 < y1 else { return nil }
        var plane = [Float](repeating: 0, count: bw * bh)
        c.forEachPixel { x, y, k in
            plane[(y - box.y0) * bw + x - box.x0] = Float(k) / 255 * source.color(at: y * width + x).a
        }
        let blurred = GaussianBlur.blurred(plane, width: bw, height: bh, weights: weights,
                                           columns: (x0 - left)..<(x1 - left), rows: (y0 - top)..<(y1 - top))
        let cover = blurred.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }
        return Coverage(box: cover, x0: x0, y0: y0, w: x1 - x0, h: y1 - y0)
    }

    /// Fills the current path under `rule` with the fill colour, then empties the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        defer { beginPath() }
        guard let c = coverage(fillPolygons(), rule: rule) else { return }
        let fill = state.fill
        composite(c, .uniform(fill))
    }

    /// Fills the current path with the even-odd rule (`eoFillPath`).
    public func eoFillPath() { fillPath(using: .evenOdd) }

    /// Strokes the current path with the stroke colour and line style, then empties the path.
    public func strokePath() {
        defer { beginPath() }
        guard let c = coverage(strokePolygons(), rule: .winding) else { return }
        let stroke = state.stroke
        composite(c, .uniform(stroke))
    }

    /// Paints the current path as `mode` says (fill, then stroke on top), then empties it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let kept = devicePath
        switch mode {
        case .fill: fillPath(using: .winding)
        case .eoFill: fillPath(using: .evenOdd)
        case .stroke: strokePath()
        case .fillStroke, .eoFillStroke:
            fillPath(using: mode == .fillStroke ? .winding : .evenOdd)
            devicePath = kept
            strokePath()
        }
    }

    /// Runs `body` on a path of its own, keeping the current path (the rectangle and ellipse
    /// conveniences leave it alone, as in Core Graphics).
    func withPath(_ body: () -> Void) {
        let kept = devicePath
        beginPath()
        body()
        devicePath = kept
    }

    /// Fills a rectangle with the fill colour.
    public func fill(_ rect: CGRect) { withPath {
        addRect(rect)
        fillPath()
    } }
    /// Fills rectangles with the fill colour.
    public func fill(_ rects: [CGRect]) { withPath {
        addRects(rects)
        fillPath()
    } }
    /// Strokes a rectangle with the stroke colour and line style.
    public func stroke(_ rect: CGRect) { withPath {
        addRect(rect)
        strokePath()
    } }
    /// Strokes a rectangle with a line of `width` (the state's width is kept).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState()
        setLineWidth(width)
        stroke(rect)
        restoreGState()
    }
    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) { withPath {
        addEllipse(in: rect)
        fillPath()
    } }
    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) { withPath {
        addEllipse(in: rect)
        strokePath()
    } }
    /// Strokes a line between each pair of points (a trailing odd point is ignored).
    public func strokeLineSegments(between points: [CGPoint]) {
        withPath {
            for i in stride(from: 0, to: points.count - 1, by: 2) {
                move(to: points[i])
                addLine(to: points[i + 1])
            }
            strokePath()
        }
    }

    /// Makes a rectangle transparent black, whatever the blend mode and alpha (within the clip).
    public func clear(_ rect: CGRect) {
        withPath {
            addRect(rect)
            if let c = coverage(fillPolygons(), rule: .winding) { composite(c, mode: .clear, .uniform(.clear)) }
        }
    }
}
