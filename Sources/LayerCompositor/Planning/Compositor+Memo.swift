// What one build keeps for the next, so that a frame where little changed copies the quads of
// unchanged subtrees and sorting contexts instead of flattening them again.
import Foundation
import LayerKitCore

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
    /// The replicators rewritten for this build, and their tinted images, for the next.
    var replicators: ReplicatorExpansion?
    /// The particles this build placed (`Builder.particlesPlaced`).
    var particles = 0
    /// The canvas's size in pixels, and whether a tiled layer was drawn: its quads hold only
    /// the tiles on that canvas, so they are not copied onto a canvas of another size.
    var canvasWidth = 0, canvasHeight = 0
    var drawsTiles = false

    /// Whether this memo's quads may be copied into a build on a `width` x `height` pixel canvas.
    func serves(canvasWidth width: Int, canvasHeight height: Int) -> Bool {
        !drawsTiles || (width == canvasWidth && height == canvasHeight)
    }
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

extension Builder {
    /// Draws `owner`'s sublayers `children` as `memo` (the last build's context at its place)
    /// drew them, copying the unchanged sublayers' quads and drawing the changed ones again;
    /// `false`, having drawn nothing, when a changed sublayer would sort elsewhere (a transform
    /// layer now, another z, drawn or hidden where it was not, or out of the flat).
    func patch(_ memo: ContextMemo, owner: LayerSnapshot, children: [LayerSnapshot], into quads: inout [DrawQuad]) -> Bool {
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

    /// Appends the last build's canvas quads `r` to the canvas `quads`.
    func copy(_ r: Range<Int>, from previous: FlattenMemo, into quads: inout [DrawQuad]) {
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
}
