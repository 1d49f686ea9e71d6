import Foundation

/// Where a frame's layer tree comes from: the seam between the model and a frame loop.
///
/// Core Animation draws a frame in two steps, and a source gives the loop both: the app's
/// changes are committed (the implicit transaction: layout, then the tree is handed over), and
/// the render server draws the tree as it looks at the frame's media time (the presentation
/// tree, where animations are sampled). `LayerTreeSource` draws the model tree;
/// `PresentationTreeSource` samples the presentation tree at the frame's time.
public protocol FrameSource {
    /// Commits the model's pending changes before the frame at media time `time` is drawn
    /// (timed as the `layout` phase).
    func commit(at time: TimeInterval)

    /// The layer tree as it appears at media time `time` (timed as the `snapshot` phase).
    func snapshot(at time: TimeInterval) -> LayerSnapshot
}

/// What a source hands a frame: the tree, and how many layers drew their contents to make it.
public struct FrameTree {
    /// The tree the frame draws.
    public let snapshot: LayerSnapshot
    /// How many `display()` calls making the snapshot ran (layers marked for display).
    public let displays: Int
}

extension FrameSource {
    /// The snapshot at media time `time` and the displays it took.
    public func tree(at time: TimeInterval) -> FrameTree {
        let before = CALayer.displayCount.load(ordering: .relaxed)
        let snapshot = snapshot(at: time)
        return FrameTree(snapshot: snapshot, displays: CALayer.displayCount.load(ordering: .relaxed) - before)
    }
}

/// A layer tree drawn as its model says, at any time: commit lays it out
/// (`layoutIfNeeded()`), and the frame draws its `snapshot()`, which first redraws the layers
/// marked by `setNeedsDisplay()` (their drawing is timed in the `snapshot` phase).
public struct LayerTreeSource: FrameSource {
    /// The root of the tree drawn.
    public let root: CALayer

    /// A source drawing the tree under `root`.
    public init(_ root: CALayer) { self.root = root }

    /// Lays the tree out.
    public func commit(at time: TimeInterval) { root.layoutIfNeeded() }

    /// The tree's snapshot (laid out at commit: its own check finds nothing marked); `time` is
    /// not read until layers animate.
    public func snapshot(at time: TimeInterval) -> LayerSnapshot { root.snapshot() }
}

/// A layer tree drawn as it appears at each frame's media time: commit is Core Animation's
/// frame commit (the implicit transaction is committed; animations' delegates hear of starts
/// and stops, finished animations are removed and ended completion blocks run, as a
/// `CADisplayLink` frame does; then the tree is laid out), and the frame draws
/// `snapshot(atTime:)`, the presentation tree with the animations sampled there. Only animated
/// subtrees are evaluated again; the rest share their kept snapshots, so a frame where one
/// layer animates costs about one layer's work.
///
/// The frame clock advances once a frame: where a running `CADisplayLink` already committed
/// the frame at `time` (a loop drawing from the link's callback, as the demo does), commit
/// only commits what the callback changed.
public struct PresentationTreeSource: FrameSource {
    /// The root of the tree drawn.
    public let root: CALayer

    /// A source drawing the tree under `root`; frame times are the root's parent time.
    public init(_ root: CALayer) { self.root = root }

    /// Commits the frame at `time` (see above) and lays the tree out.
    public func commit(at time: TimeInterval) {
        AnimationClock.shared.frame(at: time)
        root.layoutIfNeeded()
    }

    /// The presentation tree at media time `time`.
    public func snapshot(at time: TimeInterval) -> LayerSnapshot { root.snapshot(atTime: time) }
}
