// The walk that turns a tree into quads: each plain layer's sublayers collected into planes,
// depth-sorted, and drawn straight into the target; a layer that needs an offscreen pass is
// handed to Compositor+Passes.
import Foundation
import LayerKitCore

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
    let previous: FlattenMemo?
    /// This build's memo entries.
    private(set) var memo: [ObjectIdentifier: FlattenMemo.Entry] = [:]
    /// This build's sorting contexts.
    var contexts: [ObjectIdentifier: ContextMemo] = [:]
    /// Canvas quads copied from `previous`.
    var copiedQuads = 0
    /// Of those, the ones copied to the index they had there (`FlattenMemo.keptInPlace`).
    var keptInPlace: [Range<Int>] = []
    /// Particles placed by emitters flattened in this build (`FrameCounter.particles`).
    var particlesPlaced = 0
    /// Above 0 while emitting into an offscreen pass, whose quads are not the canvas's.
    var offscreenDepth = 0
    /// The canvas in pixels: a tiled layer draws only the tiles that lie on it.
    let canvasWidth: Int, canvasHeight: Int
    /// Whether a tiled layer was drawn, whose quads depend on the canvas's size.
    var drawsTiles = false

    init(scale: Double, offscreenScale: Double, canvasWidth: Int = 0, canvasHeight: Int = 0, previous: FlattenMemo? = nil) {
        self.scale = scale
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.offscreenScale = offscreenScale
        self.previous = previous
        memo.reserveCapacity(previous?.entries.count ?? 0)
    }

    func name(_ l: LayerSnapshot) -> String { l.properties.name ?? "unnamed" }

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
        // A plane a sublayer, but for transform layers' descendants. Grown by appends, 10,000
        // planes took 14 regrowths, each copying the planes so far.
        layers.reserveCapacity(children.count)
        planes.reserveCapacity(children.count)
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

    /// The planes of one sorting context: plain sublayers, and the plain descendants of
    /// transform-layer sublayers (whose opacity multiplies in). Hidden and back-facing
    /// single-sided layers are dropped here, before sorting, and so are layers with non-finite
    /// properties (only possible by writing `properties` directly), which have no place.
    func collectPlanes(_ children: [LayerSnapshot], prefix: CATransform3D, opacity: Float, flatCanvas: CATransform3D,
                               layers: inout [(LayerSnapshot, Float)], planes: inout [DepthSorter.Plane]) {
        guard TreeRecursion.hasRoom else {
            return TreeRecursion.onFreshStack {
                collectPlanes(children, prefix: prefix, opacity: opacity, flatCanvas: flatCanvas, layers: &layers, planes: &planes)
            }
        }
        for c in children where !c.properties.isHidden {
            // Copied once: each getter called on `c.properties` in place copies all of them.
            let p = c.properties
            guard p.hasFiniteValues else { continue }
            let m = p.localTransform.concatenating(prefix)
            if c.isTransformLayer {
                collectPlanes(c.sublayers, prefix: p.childrenTransform.concatenating(m),
                              opacity: opacity * p.drawnOpacity, flatCanvas: flatCanvas, layers: &layers, planes: &planes)
                continue
            }
            if !p.isDoubleSided && m.concatenating(flatCanvas).isBackFacing { continue }
            layers.append((c, opacity))
            planes.append(DepthSorter.Plane(rect: p.bounds, matrix: m))
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

    /// Background, contents, sorted sublayers and border of a plain layer; `p` is its
    /// `properties`, which the caller has copied out of the snapshot (a copy costs a retain of
    /// every reference in them, and reading a computed one in place makes such a copy).
    func emitContents(_ l: LayerSnapshot, _ p: LayerProperties, placement: Placement, inverse inv: PlaneMap, opacity o: Float,
                      clips: [Clip], counterpart: LayerSnapshot? = nil, into quads: inout [DrawQuad]) {
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
        if case .tiled(let style) = l.kind, p.contents == nil {
            emitTiles(l, style: style, placement: placement, clips: inner, quad: imageQuad)
        }
        if !l.sublayers.isEmpty {
            let (first, passCount) = (quads.count, passes.count)
            emitSublayers(l.sublayers, childrenTransform: p.childrenTransform, childrenFlip: p.isGeometryFlipped,
                          parent: placement, opacity: o, clips: inner, owner: l, previousOwner: counterpart,
                          previousChildren: counterpart?.sublayers, into: &quads)
            // A flattening replicator's copies, rewritten as transform layers (ReplicatorExpansion),
            // made a replicated run where their quads are copies of the first copy's.
            if passes.count == passCount, l.sublayers.count > 1, l.sublayers.allSatisfy(\.isTransformLayer) {
                CopyRun.mark(&quads, from: first, copies: l.sublayers.count)
            }
        }
        if p.borderWidth > 0, let bc = p.borderColor, bc.alpha > 0 {
            quad(p.bounds, .border(width: Double(p.borderWidth), corners: corners), .color(PremultipliedColor(bc)), clips)
        }
        if case .emitter(let style) = l.kind {
            emitParticles(l, style: style, placement: placement, inverse: inv, opacity: o, clips: inner, into: &quads)
        }
    }
}
