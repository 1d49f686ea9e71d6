import Foundation
import LayerKitCore

/// Composites frame after frame, and hands back the last frame's display list when the tree
/// and canvas have not changed, as a retained compositor does: an app that redraws a still
/// scene (a window's refresh, a static benchmark frame) pays for comparing two snapshots, not
/// for flattening, sorting and splitting the tree again. `Compositor.displayList` is a pure
/// function of its arguments, so the reused list is exactly the one it would build.
///
/// When the tree changed, only the subtrees whose snapshots changed are flattened again: the
/// canvas quads of every other subtree (a snapshot shared with the last frame, drawn with the
/// same placement, opacity and clips, needing no offscreen pass) are copied from the last list
/// in painter's order, which is again exactly what a full build makes.
public final class FrameCompositor {
    private var last: (root: LayerSnapshot, width: Double, height: Double, scale: Double, background: CGColor?, list: DisplayList,
                       memo: FlattenMemo)?

    /// Whether the last call reused the previous display list.
    public private(set) var lastReused = false
    /// Canvas quads the last call copied from the previous display list rather than flattening
    /// them again (all of them when it reused the list).
    public private(set) var lastCopiedQuads = 0
    /// The copies of replicators' sublayers in the last call's display list (see
    /// `FrameCounter.instances`).
    public private(set) var lastInstances = 0
    /// The particles emitters placed in the last call's display list (see
    /// `FrameCounter.particles`).
    public private(set) var lastParticles = 0

    /// Creates a compositor with nothing retained.
    public init() {}

    /// `Compositor.displayList(root:width:height:scale:background:)`, reusing the previous
    /// result when every argument equals the previous call's.
    public func displayList(root: LayerSnapshot, width: Double, height: Double, scale: Double, background: CGColor?) -> DisplayList {
        if let l = last, l.width == width, l.height == height, l.scale == scale, l.background == background, l.root == root {
            lastReused = true
            lastCopiedQuads = l.list.canvas.quads.count
            return l.list
        }
        lastReused = false
        let previous = last.flatMap { $0.scale == scale ? $0.memo : nil }
        var (list, memo) = Compositor.displayList(root: root, width: width, height: height, scale: scale, background: background,
                                                  reusing: previous)
        lastCopiedQuads = memo.copiedQuads
        lastInstances = memo.replicators?.copiesMade ?? 0
        lastParticles = memo.particles
        let count = list.canvas.quads.count
        if let l = last, l.list.passes.count == 1, list.passes.count == 1, l.list.canvas.quads.count == count {
            // Quads copied to where they were are the same; every other index may differ.
            var changed: [Range<Int>] = [], next = 0
            for kept in memo.keptInPlace {
                if next < kept.lowerBound { changed.append(next..<kept.lowerBound) }
                next = kept.upperBound
            }
            if next < count { changed.append(next..<count) }
            list.follow(l.list, ranges: changed)
        } else {
            list.follow(last?.list, ranges: nil)
        }
        last = (root, width, height, scale, background, list, memo)
        return list
    }
}
