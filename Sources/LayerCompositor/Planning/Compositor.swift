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
    /// list's memo, for the next frame.
    static func displayList(root: LayerSnapshot, width: Double, height: Double, scale: Double, background: CGColor?,
                            reusing previous: FlattenMemo?) -> (list: DisplayList, memo: FlattenMemo) {
        let pw = CanvasSizeError.pixels(width, scale: scale), ph = CanvasSizeError.pixels(height, scale: scale)
        let toPixels = CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), 1)
        var memo = FlattenMemo()
        func build(offscreenScale: Double) -> DisplayList {
            let builder = Builder(scale: scale, offscreenScale: offscreenScale, previous: previous)
            var quads: [DrawQuad] = []
            builder.emitSublayers([root], childrenTransform: .identity,
                                  parent: Placement(toTarget: toPixels, toCanvas: toPixels, flipped: false),
                                  opacity: 1, clips: [], previousChildren: previous?.root.map { [$0] }, into: &quads)
            builder.passes.append(RenderPass(index: builder.passes.count, purpose: .canvas, width: pw, height: ph,
                                             content: .quads(quads), label: "canvas"))
            memo = FlattenMemo(root: root, entries: builder.memo, contexts: builder.contexts, canvas: quads,
                               copiedQuads: builder.copiedQuads, keptInPlace: builder.keptInPlace)
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

/// What one build flattened into the canvas pass, kept for the next: for each layer drawn
/// straight into the canvas whose subtree needed no offscreen pass (so its quads name no pass
/// index and do not depend on the offscreen scale), where it was placed and the range of canvas
/// quads it drew; and for each flat sorting context drawn into the canvas, the order of its
/// sublayers and the quads of each (`ContextMemo`).
struct FlattenMemo {
    struct Entry {
        /// Held, so that its identity is not reused by another snapshot while the memo lives.
        let layer: LayerSnapshot
        let placement: Placement
        let opacity: Float
        let clips: [Clip]
        let quads: Range<Int>
    }

    /// The tree drawn.
    var root: LayerSnapshot?
    var entries: [ObjectIdentifier: Entry] = [:]
    /// Keyed by the layer whose sublayers the context holds.
    var contexts: [ObjectIdentifier: ContextMemo] = [:]
    /// The canvas pass's quads.
    var canvas: [DrawQuad] = []
    /// How many of them were copied from the memo before, not flattened again.
    var copiedQuads = 0
    /// The canvas quads copied to the index they had before, as ascending disjoint ranges:
    /// there the two canvases hold equal quads.
    var keptInPlace: [Range<Int>] = []
}

/// What a sorting context's quads depend on besides its sublayers.
struct ContextKey: Equatable {
    var parent: Placement
    var opacity: Float
    var clips: [Clip]
    var childrenTransform: CATransform3D
    var childrenFlip: Bool
}

/// The sublayers of a plain layer, none a transform layer, all in flat planes (so sorted by z
/// alone, without splitting), as one build drew them into the canvas. When the layer changes
/// but keeps its context, the next build draws the sublayers in the same order as long as
/// every changed one keeps its z and stays flat, copying the quads of the unchanged ones in
/// runs: a frame where 10 of 10,000 sublayers move touches 10 of them, not 10,000.
struct ContextMemo {
    /// Held, so that its identity is not reused while the memo lives.
    let owner: LayerSnapshot
    let key: ContextKey
    let children: [LayerSnapshot]
    /// Each sublayer's plane matrix in the context; `nil` for one not drawn (hidden,
    /// back-facing or not finite).
    var matrices: [CATransform3D?]
    /// Sublayer indices, back to front.
    let order: [Int]
    /// Each sublayer's canvas quads; `nil` where it drew an offscreen pass (or nothing).
    var ranges: [Range<Int>?]
}

/// Where a layer's bounds space lands: in the pass being drawn, and on the canvas (for the
/// back-face rule, which looks at the whole accumulated transform); and whether an odd number
/// of `isGeometryFlipped` ancestors mirror it, so its contents are mirrored back to display
/// the same, as Core Animation's `contentsAreFlipped`.
struct Placement: Equatable {
    var toTarget: CATransform3D
    var toCanvas: CATransform3D
    var flipped: Bool
}

final class Builder {
    let scale: Double
    /// Multiplies the scale of every offscreen pass (below 1 only to fit the memory budget).
    let offscreenScale: Double
    var passes: [RenderPass] = []
    /// The last build's memo, whose canvas quads are copied for subtrees drawn again as they were.
    private let previous: FlattenMemo?
    /// This build's memo entries.
    private(set) var memo: [ObjectIdentifier: FlattenMemo.Entry] = [:]
    /// This build's sorting contexts.
    private(set) var contexts: [ObjectIdentifier: ContextMemo] = [:]
    /// Canvas quads copied from `previous`.
    private(set) var copiedQuads = 0
    /// Of those, the ones copied to the index they had there (`FlattenMemo.keptInPlace`).
    private(set) var keptInPlace: [Range<Int>] = []
    /// Above 0 while emitting into an offscreen pass, whose quads are not the canvas's.
    private var offscreenDepth = 0

    init(scale: Double, offscreenScale: Double, previous: FlattenMemo? = nil) {
        self.scale = scale
        self.offscreenScale = offscreenScale
        self.previous = previous
        memo.reserveCapacity(previous?.entries.count ?? 0)
    }

    private func name(_ l: LayerSnapshot) -> String { l.properties.name ?? "unnamed" }

    /// Sorts and draws the sublayers of a plain layer (`owner`, `nil` for the canvas) placed at
    /// `parent`. `previousOwner` is the snapshot drawn at its place by the last build, and
    /// `previousChildren` its sublayers.
    func emitSublayers(_ children: [LayerSnapshot], childrenTransform: CATransform3D, childrenFlip: Bool = false,
                       parent: Placement, opacity: Float, clips: [Clip], owner: LayerSnapshot? = nil, previousOwner: LayerSnapshot? = nil,
                       previousChildren: [LayerSnapshot]? = nil, into quads: inout [DrawQuad]) {
        let key = ContextKey(parent: parent, opacity: opacity, clips: clips, childrenTransform: childrenTransform, childrenFlip: childrenFlip)
        if offscreenDepth == 0, let owner, let previousOwner, let memo = previous?.contexts[ObjectIdentifier(previousOwner)],
           memo.owner === previousOwner, memo.key == key, memo.children.count == children.count,
           patch(memo, owner: owner, children: children, into: &quads) {
            return
        }
        var layers: [(LayerSnapshot, Float)] = []
        var planes: [DepthSorter.Plane] = []
        let flatTarget = parent.toTarget.flattened, flatCanvas = parent.toCanvas.flattened
        collectPlanes(children, prefix: childrenTransform, opacity: opacity, flatCanvas: flatCanvas,
                      layers: &layers, planes: &planes)
        // Which sublayer each plane is, where no sublayer is a transform layer (whose descendants
        // would be planes of their own): then this context can be remembered, and a sublayer's
        // counterpart in the last build is the one at its index.
        var childIndex: [Int]? = nil
        if !children.contains(where: \.isTransformLayer) {
            var k = 0
            childIndex = layers.map { l in
                while children[k] !== l.0 { k += 1 }
                return k
            }
        }
        let counterparts = previousChildren.flatMap { $0.count == children.count ? $0 : nil }
        let flipped = parent.flipped != childrenFlip
        let pieces = DepthSorter.order(planes)
        var ranges = [Range<Int>?](repeating: nil, count: childIndex == nil ? 0 : children.count)
        for piece in pieces {
            let (layer, o) = layers[piece.plane]
            let m = planes[piece.plane].matrix
            let placement = Placement(toTarget: m.concatenating(flatTarget), toCanvas: m.concatenating(flatCanvas), flipped: flipped)
            var pieceClips = clips
            if !piece.halfPlanes.isEmpty, let inv = PlaneMap(inverseOf: placement.toTarget) {
                pieceClips += piece.halfPlanes.map { Clip(map: inv, shape: .halfPlane(a: $0.a, b: $0.b, c: $0.c)) }
            }
            let index = childIndex?[piece.plane]
            let start = quads.count, passCount = passes.count
            emitLayer(layer, placement: placement, opacity: o, clips: pieceClips, counterpart: index.flatMap { counterparts?[$0] },
                      into: &quads)
            if let index, passes.count == passCount { ranges[index] = start..<quads.count }
        }
        guard offscreenDepth == 0, let owner, let childIndex, planes.allSatisfy(\.isFlat) else { return }
        var matrices = [CATransform3D?](repeating: nil, count: children.count)
        for (plane, child) in childIndex.enumerated() { matrices[child] = planes[plane].matrix }
        contexts[ObjectIdentifier(owner)] = ContextMemo(owner: owner, key: key, children: children, matrices: matrices,
                                                        order: pieces.map { childIndex[$0.plane] }, ranges: ranges)
    }

    /// Draws `owner`'s sublayers `children` as `memo` (the last build's context at its place)
    /// drew them, copying the unchanged sublayers' quads and drawing the changed ones again;
    /// `false`, having drawn nothing, when a changed sublayer would sort elsewhere (a transform
    /// layer now, another z, drawn or hidden where it was not, or out of the flat).
    private func patch(_ memo: ContextMemo, owner: LayerSnapshot, children: [LayerSnapshot], into quads: inout [DrawQuad]) -> Bool {
        guard let previous else { return false }
        let changed = children.indices.map { children[$0] !== memo.children[$0] }
        // Most of them changed: placing them one by one costs more than sorting them all.
        guard changed.lazy.filter({ $0 }).count * 2 <= children.count else { return false }
        var matrices = memo.matrices
        for i in children.indices where changed[i] {
            let c = children[i]
            guard !c.isTransformLayer else { return false }
            var layers: [(LayerSnapshot, Float)] = []
            var planes: [DepthSorter.Plane] = []
            collectPlanes([c], prefix: memo.key.childrenTransform, opacity: memo.key.opacity,
                          flatCanvas: memo.key.parent.toCanvas.flattened, layers: &layers, planes: &planes)
            let m = planes.first?.matrix
            switch (m, memo.matrices[i]) {
            case (nil, nil): break
            case let (m?, old?) where planes[0].isFlat && m.m43 == old.m43: break
            default: return false
            }
            matrices[i] = m
        }
        let flatTarget = memo.key.parent.toTarget.flattened, flatCanvas = memo.key.parent.toCanvas.flattened
        let flipped = memo.key.parent.flipped != memo.key.childrenFlip
        var ranges = [Range<Int>?](repeating: nil, count: children.count)
        // Unchanged sublayers' quads, copied in runs (adjacent in the last canvas).
        var run: Range<Int>? = nil
        func flush() {
            guard let r = run else { return }
            copy(r, from: previous, into: &quads)
            run = nil
        }
        for i in memo.order {
            guard let m = matrices[i] else { continue }
            if !changed[i], let old = memo.ranges[i] {
                if let r = run, r.upperBound == old.lowerBound {
                    run = r.lowerBound..<old.upperBound
                } else {
                    flush()
                    run = old
                }
                let end = quads.count + run!.count
                ranges[i] = (end - old.count)..<end
                continue
            }
            flush()
            let placement = Placement(toTarget: m.concatenating(flatTarget), toCanvas: m.concatenating(flatCanvas), flipped: flipped)
            let start = quads.count, passCount = passes.count
            emitLayer(children[i], placement: placement, opacity: memo.key.opacity, clips: memo.key.clips,
                      counterpart: changed[i] ? memo.children[i] : nil, into: &quads)
            if passes.count == passCount { ranges[i] = start..<quads.count }
        }
        flush()
        contexts[ObjectIdentifier(owner)] = ContextMemo(owner: owner, key: memo.key, children: children, matrices: matrices,
                                                        order: memo.order, ranges: ranges)
        return true
    }

    /// The planes of one sorting context: plain sublayers, and the plain descendants of
    /// transform-layer sublayers (whose opacity multiplies in). Hidden and back-facing
    /// single-sided layers are dropped here, before sorting, and so are layers with non-finite
    /// properties (only possible by writing `properties` directly), which have no place.
    private func collectPlanes(_ children: [LayerSnapshot], prefix: CATransform3D, opacity: Float, flatCanvas: CATransform3D,
                               layers: inout [(LayerSnapshot, Float)], planes: inout [DepthSorter.Plane]) {
        guard TreeRecursion.hasRoom else {
            return TreeRecursion.onFreshStack {
                collectPlanes(children, prefix: prefix, opacity: opacity, flatCanvas: flatCanvas, layers: &layers, planes: &planes)
            }
        }
        for c in children where !c.properties.isHidden && c.properties.hasFiniteValues {
            let m = c.properties.localTransform.concatenating(prefix)
            if c.isTransformLayer {
                collectPlanes(c.sublayers, prefix: c.properties.childrenTransform.concatenating(m),
                              opacity: opacity * c.properties.drawnOpacity, flatCanvas: flatCanvas, layers: &layers, planes: &planes)
                continue
            }
            if !c.properties.isDoubleSided && m.concatenating(flatCanvas).isBackFacing { continue }
            layers.append((c, opacity))
            planes.append(DepthSorter.Plane(rect: c.properties.bounds, matrix: m))
        }
    }

    /// Draws one plain layer and its flattened subtree, offscreen when a rule demands it;
    /// `counterpart` is the snapshot the last build drew at its place, if it knows it.
    func emitLayer(_ l: LayerSnapshot, placement: Placement, opacity o: Float, clips: [Clip], counterpart: LayerSnapshot? = nil,
                   into quads: inout [DrawQuad]) {
        guard TreeRecursion.hasRoom else {
            return TreeRecursion.onFreshStack {
                emitLayer(l, placement: placement, opacity: o, clips: clips, counterpart: counterpart, into: &quads)
            }
        }
        guard offscreenDepth == 0 else { return flatten(l, placement: placement, opacity: o, clips: clips, into: &quads) }
        let key = ObjectIdentifier(l), start = quads.count
        if let previous, let e = previous.entries[key], e.layer === l, e.opacity == o, e.placement == placement, e.clips == clips {
            copy(e.quads, from: previous, into: &quads)
        } else {
            let passCount = passes.count
            flatten(l, placement: placement, opacity: o, clips: clips, counterpart: counterpart, into: &quads)
            guard passes.count == passCount else { return }
        }
        memo[key] = FlattenMemo.Entry(layer: l, placement: placement, opacity: o, clips: clips, quads: start..<quads.count)
    }

    /// Appends the last build's canvas quads `r` to the canvas `quads`.
    private func copy(_ r: Range<Int>, from previous: FlattenMemo, into quads: inout [DrawQuad]) {
        if quads.count == r.lowerBound {
            if let last = keptInPlace.last, last.upperBound == r.lowerBound {
                keptInPlace[keptInPlace.count - 1] = last.lowerBound..<r.upperBound
            } else if !r.isEmpty {
                keptInPlace.append(r)
            }
        }
        quads.append(contentsOf: previous.canvas[r])
        copiedQuads += r.count
    }

    /// `emitLayer` without the memo.
    private func flatten(_ l: LayerSnapshot, placement: Placement, opacity o: Float, clips: [Clip], counterpart: LayerSnapshot? = nil,
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
            emitContents(l, placement: placement, inverse: inv, opacity: o * p.drawnOpacity, clips: clips, counterpart: counterpart,
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
        emitContents(l, placement: inner, inverse: passInverse, opacity: 1, clips: [], into: &content)
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
    private func fittedScale(_ extent: CGRect, _ scale: Double) -> Double {
        min(scale, Double(Compositor.maxPassSize) / Double(max(extent.width, extent.height)))
    }

    /// The pixel size of a pass holding `extent` (bounds space) at `passScale`, the map from
    /// bounds space to its pixels and back; `nil` when the map cannot be inverted (a subtree
    /// 1e300 points across gets a pass scale whose square underflows: nothing to draw).
    private func passFrame(_ extent: CGRect, _ passScale: Double) -> (Int, Int, CATransform3D, PlaneMap)? {
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
    private func passQuad(_ fill: PassFill, extent: CGRect, shift: CATransform3D, opacity: Float, clips: [Clip],
                          into: CATransform3D, inverse: PlaneMap, label: String) -> DrawQuad {
        let t = shift.concatenating(into)
        return DrawQuad(transform: t, inverse: PlaneMap(inverseOf: t) ?? inverse, rect: extent, shape: .rect(corners: .square),
                        fill: .pass(fill), opacity: opacity, antialiased: false, clips: clips, label: label)
    }

    /// A layer during a `CATransition`: its old and new renderings (each with opacity 1) in
    /// offscreen passes of one extent in the layer's plane, composed by the transition's type:
    /// a fade is one quad cross-fading the two; a moving type draws each moved by its offset
    /// into a third pass the size of the bounds, which clips them. The result takes the layer's opacity.
    private func emitTransition(_ l: LayerSnapshot, _ t: LayerTransition, placement: Placement, inverse inv: PlaneMap,
                                opacity o: Float, clips: [Clip], into quads: inout [DrawQuad]) {
        let p = l.properties
        guard p.drawnOpacity > 0 else { return }
        offscreenDepth += 1
        defer { offscreenDepth -= 1 }
        func whole(_ s: LayerSnapshot) -> LayerSnapshot {
            var q = s.properties
            q.opacity = 1
            return LayerSnapshot(properties: q, kind: s.kind, sublayers: s.sublayers, mask: s.mask)
        }
        let (old, new) = (whole(t.before), whole(l))
        let unbounded = p.bounds.insetBy(dx: -8192, dy: -8192)
        let offsets = t.offsets(size: p.bounds.size)
        // A moving transition shows only what falls within the bounds.
        var extent = offsets != nil ? p.bounds
            : (placedExtent(old, matrix: .identity) ?? unbounded).union(placedExtent(new, matrix: .identity) ?? unbounded)
        extent = extent.integral.intersection(unbounded)
        guard !extent.isNull, extent.width > 0, extent.height > 0 else { return }
        let passScale = fittedScale(extent, offscreenScale * scale)
        guard let (pw, ph, toPass, passInverse) = passFrame(extent, passScale) else { return }
        let inner = Placement(toTarget: toPass, toCanvas: placement.toCanvas, flipped: placement.flipped)
        let label = name(l)
        var (oldQuads, newQuads): ([DrawQuad], [DrawQuad]) = ([], [])
        emitLayer(old, placement: inner, opacity: 1, clips: [], into: &oldQuads)
        emitLayer(new, placement: inner, opacity: 1, clips: [], into: &newQuads)
        let from = addPass(.transitionFrom, pw, ph, .quads(oldQuads), label + " transition from")
        let to = addPass(.transitionTo, pw, ph, .quads(newQuads), label + " transition to")
        let opacity = o * p.drawnOpacity
        guard let offsets else {
            let fade = PassFill(pass: from, scale: passScale, crossfade: PassCrossfade(pass: to, fraction: Float(t.progress)))
            quads.append(passQuad(fade, extent: extent, shift: .identity, opacity: opacity, clips: clips,
                                  into: placement.toTarget, inverse: inv, label: label))
            return
        }
        // The composed pass is the bounds' size: it clips what moves out.
        func moved(_ pass: Int, _ by: CGPoint) -> DrawQuad {
            passQuad(PassFill(pass: pass, scale: passScale), extent: extent, shift: CATransform3DMakeTranslation(by.x, by.y, 0),
                     opacity: 1, clips: [], into: toPass, inverse: passInverse, label: label)
        }
        // Reveal uncovers the new rendering from under the old; the others bring it over.
        let composed = t.type == .reveal ? [moved(to, offsets.new), moved(from, offsets.old)]
            : [moved(from, offsets.old), moved(to, offsets.new)]
        let both = addPass(.transition, pw, ph, .quads(composed), label + " transition")
        quads.append(passQuad(PassFill(pass: both, scale: passScale), extent: extent, shift: .identity, opacity: opacity, clips: clips,
                              into: placement.toTarget, inverse: inv, label: label))
    }

    private func addPass(_ purpose: RenderPass.Purpose, _ w: Int, _ h: Int, _ content: RenderPass.Content, _ label: String) -> Int {
        passes.append(RenderPass(index: passes.count, purpose: purpose, width: w, height: h, content: content, label: label))
        return passes.count - 1
    }

    /// Background, contents, sorted sublayers and border of a plain layer.
    private func emitContents(_ l: LayerSnapshot, placement: Placement, inverse inv: PlaneMap, opacity o: Float,
                              clips: [Clip], counterpart: LayerSnapshot? = nil, into quads: inout [DrawQuad]) {
        let p = l.properties
        let aa = p.allowsEdgeAntialiasing
        let corners = Corners(p)
        let label = name(l)
        func quad(_ rect: CGRect, _ shape: DrawQuad.Shape, _ fill: Fill, _ clips: [Clip]) {
            guard rect.width > 0, rect.height > 0, o > 0 else { return }
            quads.append(DrawQuad(transform: placement.toTarget, inverse: inv, rect: rect, shape: shape, fill: fill,
                                  opacity: o, antialiased: aa, clips: clips, label: label))
        }
        var inner = clips
        if p.masksToBounds {
            inner.append(Clip(map: inv, shape: .roundedRect(p.bounds, corners: corners, antialiased: aa)))
        }
        if let bg = p.backgroundColor, bg.alpha > 0 {
            quad(p.bounds, .rect(corners: corners), .color(PremultipliedColor(bg)), clips)
        }
        func imageQuad(_ rect: CGRect, _ fill: ImageFill) {
            if let r = ContentsGeometry.inked(rect, fill: fill, antialiased: aa) { quad(r, .rect(corners: .square), .image(fill), inner) }
        }
        if let image = p.contents, let (rect, fill) = ContentsGeometry.imageFill(for: p, image: image, flippedY: placement.flipped) {
            imageQuad(rect, fill)
        }
        if let (image, rect, mirrored) = Compositor.typedContent(l) {
            let x = AxisMap(stops: [Double(rect.minX), Double(rect.maxX)], texels: [0, Double(image.width)])
            var y = AxisMap(stops: [Double(rect.minY), Double(rect.maxY)], texels: [0, Double(image.height)])
            // Text reads upright, as a contents image does: mirrored back under flipped ancestors.
            var isText = false
            if case .text = l.kind { isText = true }
            if mirrored || (isText && placement.flipped) { y.texels.reverse() }
            imageQuad(rect, ImageFill(image: image, x: x, y: y, minification: p.minificationFilter, magnification: p.magnificationFilter))
        }
        if !l.sublayers.isEmpty {
            emitSublayers(l.sublayers, childrenTransform: p.childrenTransform, childrenFlip: p.isGeometryFlipped,
                          parent: placement, opacity: o, clips: inner, owner: l, previousOwner: counterpart,
                          previousChildren: counterpart?.sublayers, into: &quads)
        }
        if p.borderWidth > 0, let bc = p.borderColor, bc.alpha > 0 {
            quad(p.bounds, .border(width: Double(p.borderWidth), corners: corners), .color(PremultipliedColor(bc)), clips)
        }
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
            case .layer, .transformLayer: break
            }
        }
        for s in l.sublayers where n < limit { n += quadCount(s, limit: limit - n) }
        return n
    }

    /// The bounding box, in the layer's bounds space, of everything its subtree draws: nothing
    /// outside its mask (so nested masked layers keep their passes the mask's size, however
    /// far their sublayers' shadows reach), or `.null` when the mask leaves nothing.
    private func subtreeExtent(_ l: LayerSnapshot) -> CGRect {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { subtreeExtent(l) } }
        let drawn = unmaskedExtent(l)
        guard let mask = maskExtent(l) else { return drawn }
        return drawn.intersection(mask)
    }

    /// Where `l`'s mask reaches in `l`'s bounds space; `nil` when it has none that bounds it.
    private func maskExtent(_ l: LayerSnapshot) -> CGRect? {
        guard let m = l.mask, !m.properties.isHidden, m.properties.hasFiniteValues else { return nil }
        return placedExtent(m, matrix: m.properties.localTransform)
    }

    /// The pass a masked layer with a shadow needs: what it draws and the shadow that casts
    /// (`blurMargin` wider), within the mask and what casts a shadow into the mask (the mask
    /// moved back by the shadow's offset, `blurMargin` wider), since the mask multiplies both.
    private func maskedShadowExtent(_ l: LayerSnapshot, blurMargin: Double) -> CGRect {
        let offset = l.properties.shadowOffset
        let drawn = withShadowPath(l, unmaskedExtent(l), if: true)
        let cast = drawn.union(drawn.offsetBy(dx: offset.width, dy: offset.height)).insetBy(dx: -blurMargin, dy: -blurMargin)
        guard let mask = maskExtent(l) else { return cast }
        return cast.intersection(mask.union(mask.offsetBy(dx: -offset.width, dy: -offset.height)).insetBy(dx: -blurMargin, dy: -blurMargin))
    }

    /// `drawn` and, where `l` casts a shadow (`shadow`) from a `shadowPath`, the path, which
    /// may reach beyond what the layer draws: a pass holding the shadow's source must hold it.
    private func withShadowPath(_ l: LayerSnapshot, _ drawn: CGRect, if shadow: Bool) -> CGRect {
        guard shadow, let path = l.properties.shadowPath else { return drawn }
        return drawn.union(path.boundingBoxOfPath)
    }

    /// Where `l`'s subtree, its shadow included, lands in the space `matrix` maps it to: the
    /// bounding box of the projected corners, `nil` when a corner is behind the eye (unbounded).
    private func placedExtent(_ l: LayerSnapshot, matrix m: CATransform3D) -> CGRect? {
        var e = subtreeExtent(l)
        guard !e.isNull else { return e }
        if l.properties.drawnShadowOpacity > 0 {
            let margin = 3 * l.properties.drawnShadowRadius + 1
            let caster = l.properties.shadowPath?.boundingBoxOfPath ?? e
            e = e.union(caster.offsetBy(dx: l.properties.shadowOffset.width, dy: l.properties.shadowOffset.height))
                .insetBy(dx: -margin, dy: -margin)
        }
        var r = CGRect.null
        for (x, y) in [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)] {
            let h = m.apply(x: x, y: y, z: 0)
            guard h.w > frontClipW else { return nil }
            r = r.union(CGRect(x: h.x / h.w, y: h.y / h.w, width: 0, height: 0))
        }
        return r
    }

    /// `subtreeExtent` before the mask.
    private func unmaskedExtent(_ l: LayerSnapshot) -> CGRect {
        let p = l.properties
        var r = p.bounds
        if p.masksToBounds { return r }
        if let image = p.contents, let (rect, _) = ContentsGeometry.imageFill(for: p, image: image, flippedY: false) {
            r = r.union(rect)
        }
        if let (_, rect, _) = Compositor.typedContent(l) {
            r = r.union(rect)   // shapes may overflow their bounds; the rasterization is cached
        }
        var layers: [(LayerSnapshot, Float)] = []
        var planes: [DepthSorter.Plane] = []
        collectPlanes(l.sublayers, prefix: p.childrenTransform, opacity: 1, flatCanvas: .identity, layers: &layers, planes: &planes)
        for (i, (child, _)) in layers.enumerated() {
            // A corner behind the eye: the projection is unbounded; the caller clamps.
            guard let e = placedExtent(child, matrix: planes[i].matrix) else { return r.insetBy(dx: -8192, dy: -8192) }
            if !e.isNull { r = r.union(e) }
        }
        return r
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

extension Compositor {
    /// What a typed layer draws in place of `contents`, rasterized at its `contentsScale`
    /// (cached, so asking twice in a frame costs a lookup), and where; `nil` for plain layers.
    /// A shape or gradient draws in the layer's geometry as its `draw(in:)` would, in a context
    /// y-flipped when `contentsAreFlipped()`: the flips of its ancestors are already in the
    /// layer's placement, so only its own `isGeometryFlipped` is left to apply, mirroring the
    /// drawing about the bounds' mid-line (`mirrored`: the image's rows run up).
    static func typedContent(_ l: LayerSnapshot) -> (image: CGImage, rect: CGRect, mirrored: Bool)? {
        let p = l.properties
        guard let drawing = l.kind.drawing,
              let (image, rect) = TypedContent.render(drawing, bounds: p.bounds, scale: Double(p.contentsScale)) else { return nil }
        if case .text = drawing { return (image, rect, false) }
        guard p.isGeometryFlipped else { return (image, rect, false) }
        let b = p.bounds
        return (image, CGRect(x: rect.minX, y: b.minY + b.maxY - rect.maxY, width: rect.width, height: rect.height), true)
    }
}
