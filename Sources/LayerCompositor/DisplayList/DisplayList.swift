// The contract between the compositor and every backend: what a display list holds and what a
// backend may ask of it (pass lifetimes, memory peak, which canvas quads changed). The types
// it is made of each have a file beside it: RenderPass, DrawQuad, Fill, Clip, PlaneMap, Corners.
import Foundation
import LayerKitCore

/// The only thing a backend sees: what to draw, in which order, into which surfaces.
///
/// A display list is an ordered list of render passes. Every pass but the last is an offscreen
/// surface that a later pass samples (group opacity, masks, shadows, `shouldRasterize`); the
/// last pass is the canvas. A pass is either a list of quads drawn in painter's order with
/// premultiplied source-over blending, or a one-dimensional Gaussian blur of an earlier pass.
///
/// Every quad carries the full 4x4 from its layer's bounds space to its pass's pixels (y down,
/// origin top-left) and the inverse plane homography from pass pixels back to that space, so a
/// backend evaluates the same per-pixel function everywhere: map the pixel centre to local
/// coordinates, decide coverage there (shape, corner radius, clips), sample the fill, blend.
public struct DisplayList: Equatable, Sendable {
    /// The passes, each before the passes that sample it; the last is the canvas.
    public var passes: [RenderPass] { didSet { lineage = nil } }
    /// The canvas pass's size in pixels.
    public var width: Int
    /// The canvas pass's size in pixels.
    public var height: Int
    /// What the canvas is cleared to.
    public var background: PremultipliedColor

    /// Set by `FrameCompositor` on the lists it builds: which list this is, and which canvas
    /// quads may differ from the list it built before. Any edit of `passes` drops it, so that
    /// it never speaks for quads it did not see; it takes no part in `==`.
    package private(set) var lineage: Lineage?

    /// A list's place in `FrameCompositor`'s sequence of lists.
    package struct Lineage: Sendable {
        /// This list, by identity (`DisplayList` is a value, so it is given one).
        let token: Token
        /// The list built before this one, and the canvas quad indices, ascending and disjoint,
        /// whose quads may differ from that list's at the same index; at every other index the
        /// two canvases hold equal quads, and they hold as many. `nil` when unknown (either
        /// list has offscreen passes, or the canvases hold different numbers of quads).
        let changes: (base: Token, ranges: [Range<Int>])?
    }

    /// An identity for a list, held by it so that it is not reused while the list lives.
    package final class Token: Sendable {
        package init() {}
    }

    /// Marks this list as following `base` with canvas quads differing from it at most in
    /// `ranges` (see `Lineage`; `nil` ranges: unknown).
    package mutating func follow(_ base: DisplayList?, ranges: [Range<Int>]?) {
        var changes: (base: Token, ranges: [Range<Int>])?
        if let token = base?.lineage?.token, let ranges { changes = (token, ranges) }
        lineage = Lineage(token: Token(), changes: changes)
    }

    /// The canvas quad indices whose quads may differ from `earlier`'s at the same index, as
    /// ascending disjoint ranges, where the lineage says (the two canvases then hold as many
    /// quads; an empty array when this is `earlier` itself); `nil` when it does not, and the
    /// quads must be compared. What both backends' damage and the GL records follow.
    package func canvasChanges(since earlier: DisplayList) -> [Range<Int>]? {
        guard let mine = lineage, let theirs = earlier.lineage?.token else { return nil }
        if mine.token === theirs { return [] }
        guard let c = mine.changes, c.base === theirs else { return nil }
        return c.ranges
    }

    /// The same passes, size and background; the lineage is not compared.
    public static func == (a: DisplayList, b: DisplayList) -> Bool {
        a.passes == b.passes && a.width == b.width && a.height == b.height && a.background == b.background
    }

    /// The canvas pass.
    public var canvas: RenderPass { passes[passes.count - 1] }

    /// Quads in all passes.
    public var quadCount: Int { passes.reduce(0) { $0 + $1.quads.count } }

    /// The lifetime of every offscreen pass: the index of the last pass that reads it, or `nil`
    /// for one that nothing reads (the canvas). A backend makes a pass's target just before the
    /// pass draws and frees it (or returns it to a pool) as soon as its last reader has drawn,
    /// so a frame holds only the targets still to be read, not every target it drew.
    public var lastReaders: [Int?] {
        var last = [Int?](repeating: nil, count: passes.count)
        // A pass reads only earlier passes: a lone canvas reads none (and its quads, 10,000 of
        // them in a big scene, need not be looked at every frame).
        guard passes.count > 1 else { return last }
        for pass in passes {
            for s in pass.sources where s >= 0 && s < pass.index { last[s] = max(last[s] ?? s, pass.index) }
        }
        return last
    }

    /// The most bytes of offscreen targets (RGBA8) held at once when every target lives from
    /// its pass to its last reader (`lastReaders`): what the compositor bounds with
    /// `Compositor.offscreenMemoryBudget`.
    public var peakOffscreenBytes: Int {
        let last = lastReaders
        var freedAfter = [Int](repeating: 0, count: passes.count)
        for (i, reader) in last.enumerated() where i < passes.count - 1 { freedAfter[reader ?? i] += passes[i].bytes }
        var live = 0, peak = 0
        for pass in passes.dropLast() {
            live += pass.bytes
            peak = max(peak, live)
            live -= freedAfter[pass.index]
        }
        return peak
    }

    /// Creates a display list.
    public init(passes: [RenderPass], width: Int, height: Int, background: PremultipliedColor) {
        self.passes = passes
        self.width = width
        self.height = height
        self.background = background
    }
}
