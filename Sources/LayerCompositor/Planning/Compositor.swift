// The compositor's front door: a layer-tree snapshot in, a display list out, retried at a lower
// offscreen scale while it exceeds the memory budget. The rules themselves live beside it:
// Compositor+Flattening (the walk), +Passes (offscreen), +Extents (pass sizes), +Transitions,
// +Memo (reuse across frames).
import Foundation
import LayerKitCore

/// Turns a layer-tree snapshot into a `DisplayList`: Core Animation's rules of flattening,
/// 3D sorting, culling, clipping and offscreen passes, decided once for every backend.
///
/// Canvas matrices follow `W(L) = local(L) · S(P) · flatten(W(P))` (no flattening below a
/// transform layer). Each plain layer sorts its sublayers' planes with `DepthSorter`. A layer is
/// drawn as shadow, background, contents, sorted sublayers, border. A subtree goes offscreen
/// only when a rule forces it: group opacity over more than one quad, a mask, a shadow, or
/// `shouldRasterize`; the pass is rendered in the layer's own plane (where the subtree is
/// flattened anyway) and drawn back as one quad with the layer's transform.
public enum Compositor {
    /// Largest offscreen pass side in pixels; a larger subtree is rendered at a lower scale.
    /// Typed layers' images share the bound.
    public static let maxPassSize = TypedContent.maxImageSide
    /// Largest shadow blur sigma in pass pixels; a wider blur is rendered at a lower scale,
    /// where it looks the same (it is that blurry) and its cost stays bounded whatever the
    /// `shadowRadius`.
    public static let maxBlurSigma = GaussianBlur.maxSigma
    /// Widest blur sigma, in pass pixels, run at the pass's own resolution. A wider one runs on
    /// the pass downsampled by the smallest power of two that brings sigma within it (at most 8,
    /// since `maxBlurSigma` is 8 times this), and is drawn back with bilinear filtering, as Skia
    /// and Chromium blur: a blur never costs more than 49 taps a pixel in each direction,
    /// whatever its sigma.
    public static let fullResolutionBlurSigma = 8.0
    /// The most bytes of offscreen targets (RGBA8) a frame may hold at once
    /// (`DisplayList.peakOffscreenBytes`: each from its pass until its last reader has drawn).
    /// A frame that would hold more renders every offscreen pass at a lower scale, the same for
    /// all, chosen to fit: those layers look softer, the canvas keeps its resolution, and
    /// nothing fails to allocate.
    public static let offscreenMemoryBudget = 128 << 20

    /// The display list of `root` on a canvas of `width` x `height` points at `scale` pixels per
    /// point. The canvas is an implicit plain layer with bounds `[0, 0, width, height]` whose only
    /// sublayer is `root`.
    public static func displayList(root: LayerSnapshot, width: Double, height: Double, scale: Double,
                                   background: CGColor?) -> DisplayList {
        displayList(root: root, width: width, height: height, scale: scale, background: background, reusing: nil).list
    }

    /// `displayList(root:width:height:scale:background:)`, copying from `previous` (the memo of
    /// the last list built at this `scale`) the canvas quads of every subtree drawn again as it
    /// was: the same snapshot object with the same placement, opacity and clips, that needed no
    /// offscreen pass. Flattening is a pure function of those, so the list is the one a full
    /// build makes; only the subtrees that changed are flattened again. Also returns this
    /// list's memo, for the next frame. Replicators are first rewritten into the layers their
    /// copies draw (`ReplicatorExpansion`, which the memo keeps so that an unchanged replicator
    /// gives back the same rewritten subtree).
    static func displayList(root model: LayerSnapshot, width: Double, height: Double, scale: Double, background: CGColor?,
                            reusing previous: FlattenMemo?) -> (list: DisplayList, memo: FlattenMemo) {
        let replicators = ReplicatorExpansion(previous: previous?.replicators)
        let root = replicators.expand(model)
        let pw = CanvasSizeError.pixels(width, scale: scale), ph = CanvasSizeError.pixels(height, scale: scale)
        let previous = previous.flatMap { $0.serves(canvasWidth: pw, canvasHeight: ph) ? $0 : nil }
        let toPixels = CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), 1)
        var memo = FlattenMemo()
        func build(offscreenScale: Double) -> DisplayList {
            let builder = Builder(scale: scale, offscreenScale: offscreenScale, canvasWidth: pw, canvasHeight: ph, previous: previous)
            var quads: [DrawQuad] = []
            // As many as the last build drew (so most frames): regrowing would copy every quad.
            quads.reserveCapacity(previous?.canvas.count ?? 0)
            builder.emitSublayers([root], childrenTransform: .identity,
                                  parent: Placement(toTarget: toPixels, toCanvas: toPixels, flipped: false),
                                  opacity: 1, clips: [], previousChildren: previous?.root.map { [$0] }, into: &quads)
            builder.passes.append(RenderPass(index: builder.passes.count, purpose: .canvas, width: pw, height: ph,
                                             content: .quads(quads), label: "canvas"))
            memo = FlattenMemo(root: root, entries: builder.memo, contexts: builder.contexts, canvas: quads,
                               copiedQuads: builder.copiedQuads, keptInPlace: builder.keptInPlace, replicators: replicators,
                               particles: builder.particlesPlaced, canvasWidth: pw, canvasHeight: ph,
                               // Quads copied from the last build may hold tiles this one did not draw.
                               drawsTiles: builder.drawsTiles || previous?.drawsTiles == true)
            return DisplayList(passes: builder.passes, width: pw, height: ph,
                               background: background.map { PremultipliedColor($0) } ?? .clear)
        }
        var list = build(offscreenScale: 1)
        // Over the budget: shrink every offscreen pass by the square root of the excess (bytes go
        // with area), a little more for the pixels that rounding up adds, until it fits. Pass
        // sizes do not all shrink in proportion (a pass is at least a pixel), so a few rounds.
        var offscreenScale = 1.0
        for _ in 0..<8 {
            let peak = list.peakOffscreenBytes
            guard peak > offscreenMemoryBudget else { break }
            offscreenScale *= 0.95 * (Double(offscreenMemoryBudget) / Double(peak)).squareRoot()
            list = build(offscreenScale: offscreenScale)
        }
        return (list, memo)
    }
}

extension Compositor {
    /// What a typed layer draws in place of `contents`, rasterized at its `contentsScale`
    /// (cached, so asking twice in a frame costs a lookup), and where; `nil` for plain layers.
    /// A shape or gradient draws in the layer's geometry as its `draw(in:)` would, in a context
    /// y-flipped when `contentsAreFlipped()`: the flips of its ancestors are already in the
    /// layer's placement, so only its own `isGeometryFlipped` is left to apply, mirroring the
    /// drawing about the bounds' mid-line (`mirrored`: the image's rows run up).
    static func typedContent(_ l: LayerSnapshot) -> (image: CGImage, rect: CGRect, mirrored: Bool)? {
        guard let drawing = l.kind.drawing else { return nil }
        let p = l.properties
        guard let (image, rect) = TypedContent.render(drawing, bounds: p.bounds, scale: Double(p.contentsScale)) else { return nil }
        if case .text = drawing { return (image, rect, false) }
        guard p.isGeometryFlipped else { return (image, rect, false) }
        let b = p.bounds
        return (image, CGRect(x: rect.minX, y: b.minY + b.maxY - rect.maxY, width: rect.width, height: rect.height), true)
    }
}
