// Offscreen passes: when Core Animation's rules force a subtree offscreen (group opacity, a
// mask, a shadow, shouldRasterize), how big and at what scale the pass is, and how it is
// masked, blurred and drawn back as one quad.
import Foundation
import LayerKitCore

extension Builder {
    /// `emitLayer` without the memo.
    func flatten(_ l: LayerSnapshot, placement: Placement, opacity o: Float, clips: [Clip], counterpart: LayerSnapshot? = nil,
                         into quads: inout [DrawQuad]) {
        let p = l.properties
        // Sublayers were checked for finite values when their planes were collected; masks are here.
        guard p.hasFiniteValues, let inv = PlaneMap(inverseOf: placement.toTarget) else { return }  // or seen edge-on
        if let t = l.transition {
            return emitTransition(l, t, placement: placement, inverse: inv, opacity: o, clips: clips, into: &quads)
        }
        let shadow = p.drawnShadowOpacity > 0 && (p.shadowColor?.alpha ?? 0) > 0 && shadowIsVisible(l)
        let group = p.drawnOpacity < 1 && p.allowsGroupOpacity && quadCount(l, limit: 2) > 1
        guard shadow || l.mask != nil || p.shouldRasterize || group else {
            emitContents(l, p, placement: placement, inverse: inv, opacity: o * p.drawnOpacity, clips: clips, counterpart: counterpart,
                         into: &quads)
            return
        }
        if p.drawnOpacity <= 0 { return }
        offscreenDepth += 1
        defer { offscreenDepth -= 1 }

        // Offscreen: render the subtree in the layer's own plane, then draw it as one quad.
        let blurMargin = shadow ? 3 * p.drawnShadowRadius + 1 : 0
        var extent = (shadow && l.mask != nil ? maskedShadowExtent(l, blurMargin: blurMargin)
                      : withShadowPath(l, subtreeExtent(l), if: shadow).insetBy(dx: -blurMargin, dy: -blurMargin)).integral
        extent = extent.intersection(p.bounds.insetBy(dx: -8192, dy: -8192))
        guard !extent.isNull, extent.width > 0, extent.height > 0 else { return }
        // Core Animation's rasterizationScale is the bitmap's pixels per point, not a factor of
        // the screen's scale: left at 1 on a 2x canvas the bitmap is magnified (and blurry).
        var passScale = fittedScale(extent, offscreenScale * (p.shouldRasterize ? Double(max(p.rasterizationScale, 0.01)) : scale))
        if shadow, p.drawnShadowRadius * passScale > Compositor.maxBlurSigma { passScale = Compositor.maxBlurSigma / p.drawnShadowRadius }
        guard let (pw, ph, toPass, passInverse) = passFrame(extent, passScale) else { return }
        let inner = Placement(toTarget: toPass, toCanvas: placement.toCanvas, flipped: placement.flipped)
        let label = name(l)

        var content: [DrawQuad] = []
        emitContents(l, p, placement: inner, inverse: passInverse, opacity: 1, clips: [], into: &content)
        let purpose: RenderPass.Purpose = l.mask != nil && !shadow ? .maskedContent : p.shouldRasterize ? .rasterized
            : group ? .groupOpacity : .shadowSource
        var source = addPass(purpose, pw, ph, .quads(content), label)
        var maskPass: Int? = nil
        if let m = l.mask, !m.properties.isHidden {
            var mq: [DrawQuad] = []
            let mm = m.properties.localTransform
            emitLayer(m, placement: Placement(toTarget: mm.concatenating(toPass), toCanvas: mm.concatenating(placement.toCanvas.flattened),
                                              flipped: placement.flipped),
                      opacity: 1, clips: [], into: &mq)
            maskPass = addPass(.mask, pw, ph, .quads(mq), label + " mask")
        }
        // A pass drawn back with the layer's placement (`into` the target), or with `toPass` into
        // another pass of the same extent.
        let passQuad = { (pass: Int, scale: Double, mask: Int?, tint: PremultipliedColor?, shift: CATransform3D, o: Float, clips: [Clip],
                          into: CATransform3D, inverse: PlaneMap) -> DrawQuad in
            self.passQuad(PassFill(pass: pass, scale: scale, mask: mask, tint: tint), extent: extent, shift: shift, opacity: o, clips: clips,
                          into: into, inverse: inverse, label: label)
        }
        if shadow {
            var shadowSource = source
            if let path = p.shadowPath {
                let img = PathRasterizer.fill(path, rule: .nonZero, into: extent, scale: passScale)
                let fill = ImageFill(image: img, x: AxisMap(stops: [Double(extent.minX), Double(extent.maxX)], texels: [0, Double(pw)]),
                                     y: AxisMap(stops: [Double(extent.minY), Double(extent.maxY)], texels: [0, Double(ph)]),
                                     minification: .nearest, magnification: .nearest)
                let q = DrawQuad(transform: toPass, inverse: passInverse, rect: extent, shape: .rect(corners: .square),
                                 fill: .image(fill), opacity: 1, antialiased: false, clips: [], label: label + " shadowPath")
                shadowSource = addPass(.shadowSource, pw, ph, .quads([q]), label + " shadowPath")
            }
            let sigma = p.drawnShadowRadius * passScale
            var factor = 1
            while sigma > Compositor.fullResolutionBlurSigma * Double(factor) { factor *= 2 }
            var (bw, bh, blurSource) = (pw, ph, shadowSource)
            if factor > 1 {
                (bw, bh) = ((pw + factor - 1) / factor, (ph + factor - 1) / factor)
                blurSource = addPass(.shadowDownsample, bw, bh, .downsample(source: shadowSource, factor: factor), label)
            }
            let weights = GaussianBlur.weights(sigma: downsampledSigma(sigma, factor: factor))
            let h = addPass(.shadowBlur, bw, bh, .blur(source: blurSource, horizontal: true, weights: weights), label)
            let v = addPass(.shadowBlur, bw, bh, .blur(source: h, horizontal: false, weights: weights), label)
            let boundsClip = { (map: PlaneMap) in
                Clip(map: map, shape: .roundedRect(p.bounds, corners: Corners(p), antialiased: p.allowsEdgeAntialiasing))
            }
            let tint = PremultipliedColor(p.shadowColor ?? .black, opacity: p.drawnShadowOpacity)
            let shift = CATransform3DMakeTranslation(p.shadowOffset.width, p.shadowOffset.height, 0)
            let shadowScale = passScale / Double(factor)
            if maskPass != nil {
                // Core Animation masks everything the layer draws, its shadow included: the
                // shadow of the unmasked subtree and the subtree go into one pass, which the
                // mask multiplies below.
                let shadowQuad = passQuad(v, shadowScale, nil, tint, shift, 1, p.masksToBounds ? [boundsClip(passInverse)] : [],
                                          toPass, passInverse)
                let contentQuad = passQuad(source, passScale, nil, nil, .identity, 1, [], toPass, passInverse)
                source = addPass(.maskedContent, pw, ph, .quads([shadowQuad, contentQuad]), label)
            } else {
                let shadowClips = clips + (p.masksToBounds ? [boundsClip(inv)] : [])
                quads.append(passQuad(v, shadowScale, nil, tint, shift, o * p.drawnOpacity, shadowClips, placement.toTarget, inv))
            }
        }
        quads.append(passQuad(source, passScale, maskPass, nil, .identity, o * p.drawnOpacity, clips, placement.toTarget, inv))
    }

    /// How many quads a layer draws (stopping at `limit`), to decide whether group opacity
    /// changes anything.
    private func quadCount(_ l: LayerSnapshot, limit: Int) -> Int {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { quadCount(l, limit: limit) } }
        let p = l.properties
        if p.isHidden { return 0 }
        var n = 0
        if !l.isTransformLayer {
            if (p.backgroundColor?.alpha ?? 0) > 0 { n += 1 }
            if p.contents != nil { n += 1 }
            if p.borderWidth > 0 && (p.borderColor?.alpha ?? 0) > 0 { n += 1 }
            if p.drawnShadowOpacity > 0 { n += 1 }
            switch l.kind {
            case .shape, .gradient, .text: n += 1
            // Particles may overlap: counted as two when the emitter can draw any.
            case .emitter(let s): if s.mayDrawParticles { n += 2 }
            case .tiled: if p.contents == nil { n += 1 }
            case .layer, .transformLayer, .replicator, .scroll: break
            }
        }
        for s in l.sublayers where n < limit { n += quadCount(s, limit: limit - n) }
        return n
    }

    /// Whether `l`'s shadow can change a pixel. A blur of sigma R spreads a W x H drawing's
    /// alpha to a peak of at most min(1, W / (R·√(2π))) · min(1, H / (R·√(2π))) (each axis's
    /// Gaussian mass over the drawing's width), times the shadow colour's alpha and opacity;
    /// below half a level of 8-bit alpha (1/510) it rounds to nothing everywhere, and the layer
    /// is drawn without it, at its own resolution (a wide shadow would lower the pass's).
    private func shadowIsVisible(_ l: LayerSnapshot) -> Bool {
        let p = l.properties
        let sigma = p.drawnShadowRadius
        guard sigma > 0 else { return true }
        var drawn = unmaskedExtent(l)
        if let path = p.shadowPath { drawn = drawn.union(path.boundingBoxOfPath) }
        let reach = sigma * (2 * Double.pi).squareRoot()
        let peak = min(1, Double(drawn.width) / reach) * min(1, Double(drawn.height) / reach)
        return peak * Double(p.drawnShadowOpacity) * Double(p.shadowColor?.alpha ?? 1) >= 1.0 / 510
    }

    /// `scale` lowered where needed so that `extent` fits in a pass of `Compositor.maxPassSize`.
    /// (Compared in points: the extent's pixel size at a `rasterizationScale` of 1e308 is
    /// infinite.)
    func fittedScale(_ extent: CGRect, _ scale: Double) -> Double {
        min(scale, Double(Compositor.maxPassSize) / Double(max(extent.width, extent.height)))
    }

    /// The pixel size of a pass holding `extent` (bounds space) at `passScale`, the map from
    /// bounds space to its pixels and back; `nil` when the map cannot be inverted (a subtree
    /// 1e300 points across gets a pass scale whose square underflows: nothing to draw).
    func passFrame(_ extent: CGRect, _ passScale: Double) -> (Int, Int, CATransform3D, PlaneMap)? {
        let pw = max(Int((Double(extent.width) * passScale).rounded(.up)), 1)
        let ph = max(Int((Double(extent.height) * passScale).rounded(.up)), 1)
        let toPass = CATransform3DMakeTranslation(-extent.minX, -extent.minY, 0)
            .concatenating(CATransform3DMakeScale(CGFloat(passScale), CGFloat(passScale), 1))
        guard let inverse = PlaneMap(inverseOf: toPass) else { return nil }
        return (pw, ph, toPass, inverse)
    }

    /// A quad drawing pass `fill` over `extent` (the pass's bounds-space rectangle), moved by
    /// `shift` in bounds space and then placed by `into` (the target's map, whose inverse is
    /// `inverse`).
    func passQuad(_ fill: PassFill, extent: CGRect, shift: CATransform3D, opacity: Float, clips: [Clip],
                          into: CATransform3D, inverse: PlaneMap, label: String) -> DrawQuad {
        let t = shift.concatenating(into)
        return DrawQuad(transform: t, inverse: PlaneMap(inverseOf: t) ?? inverse, rect: extent, shape: .rect(corners: .square),
                        fill: .pass(fill), opacity: opacity, antialiased: false, clips: clips, label: label)
    }

    func addPass(_ purpose: RenderPass.Purpose, _ w: Int, _ h: Int, _ content: RenderPass.Content, _ label: String) -> Int {
        passes.append(RenderPass(index: passes.count, purpose: purpose, width: w, height: h, content: content, label: label))
        return passes.count - 1
    }
}

/// The sigma, in pixels of a pass downsampled `factor` times, whose blur drawn back with
/// bilinear filtering spreads as a blur of `sigma` at full resolution: the variances add, and
/// the box mean of `factor` pixels brings (factor² − 1) / 12 and the bilinear tent of a
/// low-resolution pixel factor² / 6 (in full-resolution pixels²).
func downsampledSigma(_ sigma: Double, factor: Int) -> Double {
    guard factor > 1 else { return sigma }
    let k = Double(factor)
    return (max(sigma * sigma - (k * k - 1) / 12 - k * k / 6, 0)).squareRoot() / k
}
