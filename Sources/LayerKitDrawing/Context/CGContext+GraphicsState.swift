// The graphics state's setters: save and restore, the CTM, colours, line style, blend mode,
// antialiasing, shadow and interpolation quality.

import Foundation

extension CGContext {
    /// Pushes a copy of the graphics state (CTM, colours, line style, blend mode, clip).
    public func saveGState() { stack.append(state) }

    /// Pops the graphics state saved last; a restore with none saved is ignored.
    public func restoreGState() { if let s = stack.popLast() { state = s } }

    /// The current transformation matrix: user space to the context's y-up device space.
    public var ctm: CGAffineTransform { state.ctm }

    private func setCTM(_ t: CGAffineTransform) {
        guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite) else { return }
        state.ctm = t
    }

    /// Moves user space's origin by (`tx`, `ty`) user units.
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { setCTM(state.ctm.translatedBy(x: tx, y: ty)) }
    /// Scales user space.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { setCTM(state.ctm.scaledBy(x: sx, y: sy)) }
    /// Rotates user space by `angle` radians (counterclockwise in y-up space).
    public func rotate(by angle: CGFloat) { setCTM(state.ctm.rotated(by: angle)) }
    /// Applies `transform` to user space before the current CTM.
    public func concatenate(_ transform: CGAffineTransform) { setCTM(transform.concatenating(state.ctm)) }

    /// Sets the fill colour.
    public func setFillColor(_ color: CGColor) { state.fill = PremultipliedColor(color) }
    /// Sets the fill colour from sRGB components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// Sets the fill colour to a grey level (0 black, 1 white).
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the stroke colour.
    public func setStrokeColor(_ color: CGColor) { state.stroke = PremultipliedColor(color) }
    /// Sets the stroke colour from sRGB components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// Sets the stroke colour to a grey level (0 black, 1 white).
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the opacity everything drawn is multiplied by (clamped to 0…1).
    public func setAlpha(_ alpha: CGFloat) { if alpha.isFinite { state.alpha = Float(min(max(alpha, 0), 1)) } }
    /// Sets the stroke width in user units (negative or non-finite widths are ignored).
    public func setLineWidth(_ width: CGFloat) { if width.isFinite, width >= 0 { state.lineWidth = Double(width) } }
    /// Sets the ends of stroked open subpaths and dashes.
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    /// Sets the corners of strokes.
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    /// Sets the longest miter, as a multiple of the line width.
    public func setMiterLimit(_ limit: CGFloat) { if limit.isFinite { state.miterLimit = Double(limit) } }
    /// Sets the dash pattern (alternating painted and unpainted lengths in user units) and how
    /// far into it each subpath starts; empty `lengths` draws solid lines.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        guard phase.isFinite, lengths.allSatisfy(\.isFinite) else { return }
        state.dashes = lengths.isEmpty ? nil : lengths.map { Double($0) }
        state.dashPhase = Double(phase)
    }
    /// Sets how drawing combines with the pixels beneath.
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }
    /// Turns antialiasing on or off; off, a pixel is painted when at least half of it is covered.
    public func setShouldAntialias(_ antialias: Bool) { state.antialias = antialias }

    /// Makes everything drawn after it cast a shadow (`setShadow(offset:blur:color:)`), drawn
    /// beneath it: the drawing's alpha, blurred, moved by `offset` and painted in `color`, then
    /// clipped, faded by the alpha and blended as the drawing is. As in Core Graphics the
    /// offset and blur are in base space (in a bitmap context, its pixels with y up), whatever
    /// the CTM, and a `nil` or transparent colour turns shadows off. Core Graphics does not
    /// state how its blur maps to a Gaussian; LayerKit uses sigma = blur / 2 (at most
    /// `GaussianBlur.maxSigma`, 64 pixels), and rounds the offset to whole pixels. The shadow is
    /// cast by what lands inside the context; `clear(_:)` casts none. Part of the graphics state.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        let b = baseTransform
        let dx = Double(offset.width * b.a + offset.height * b.c), dy = Double(offset.width * b.b + offset.height * b.d)
        let sigma = Double(max(blur, 0)) / 2 * abs(Double(b.a * b.d - b.b * b.c)).squareRoot()
        guard let color, color.alpha > 0, dx.isFinite, dy.isFinite, sigma.isFinite else {
            state.shadow = nil
            return
        }
        let limit = Double(CanvasSizeError.maximumSide)
        func pixels(_ v: Double) -> Int { Int(min(max(v, -limit), limit).rounded()) }
        state.shadow = Shadow(dx: pixels(dx), dy: pixels(dy), sigma: min(sigma, GaussianBlur.maxSigma),
                              color: PremultipliedColor(color))
    }

    /// Shadows in Core Graphics' default colour, black at 1/3 alpha (`setShadow(offset:blur:)`).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// How images are resampled by `draw(_:in:)`.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }
}
