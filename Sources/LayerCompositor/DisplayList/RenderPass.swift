// One surface of a display list and what fills it. Passes name the earlier passes they read,
// which is what lets a backend free a target as soon as its last reader has drawn.
import Foundation
import LayerKitCore

/// One surface and what is drawn into it.
public struct RenderPass: Equatable, Sendable {
    /// Why an offscreen pass exists (or that it is the canvas), for dumps and counters.
    public enum Purpose: String, Sendable {
        /// The output.
        case canvas
        /// A subtree composited before its opacity is applied.
        case groupOpacity
        /// A subtree that a mask multiplies.
        case maskedContent
        /// The rendering of a mask layer (only its alpha is used).
        case mask
        /// A subtree whose alpha casts a shadow.
        case shadowSource
        /// One direction of a shadow's blur.
        case shadowBlur
        /// A shadow's source reduced for a wide blur.
        case shadowDownsample
        /// A subtree rendered once at `rasterizationScale` (`shouldRasterize`).
        case rasterized
        /// A layer's subtree as last drawn before a `CATransition` was added (the old rendering).
        case transitionFrom
        /// A layer's subtree as it is now, during a transition (the new rendering).
        case transitionTo
        /// The two renderings of a moving transition composed (drawn back with the layer's
        /// opacity).
        case transition
        /// An emitter's particles with `renderMode` additive: its quads are added to the pass
        /// (per channel, clamped at 1) rather than composited over it; the pass is then drawn
        /// back source-over.
        case additive
    }

    /// What fills the pass.
    public enum Content: Equatable, Sendable {
        /// Quads drawn in order over transparent black.
        case quads([DrawQuad])
        /// A Gaussian blur of pass `source` (same size) along x or y; `weights[0]` is the
        /// centre tap and `weights[i]` the taps at ±i pixels. Pixels outside the source are
        /// transparent.
        case blur(source: Int, horizontal: Bool, weights: [Float])
        /// Pass `source` reduced `factor` times along each axis: pixel (x, y) is the mean of the
        /// source's `factor` x `factor` block from (`factor`·x, `factor`·y), where pixels outside
        /// the source are transparent (so the pass is ⌈source size / factor⌉). A wide blur runs
        /// on such a pass, as Skia and Chromium do, so that its cost does not grow with sigma.
        case downsample(source: Int, factor: Int)
    }

    /// Index of this pass in `DisplayList.passes`.
    public var index: Int
    /// Why it exists.
    public var purpose: Purpose
    /// Size in pixels.
    public var width: Int
    /// Size in pixels.
    public var height: Int
    /// What it draws.
    public var content: Content
    /// The layer it belongs to, for dumps.
    public var label: String

    /// The quads, or none for a blur or downsample pass.
    public var quads: [DrawQuad] {
        if case .quads(let q) = content { return q }
        return []
    }

    /// The earlier passes this pass reads: those its quads fill from or are masked by, or the
    /// one it blurs or downsamples.
    public var sources: [Int] {
        switch content {
        case .quads(let quads):
            return quads.flatMap { q -> [Int] in
                guard case .pass(let f) = q.fill else { return [] }
                return [f.pass] + (f.mask.map { [$0] } ?? []) + (f.crossfade.map { [$0.pass] } ?? [])
            }
        case .blur(let source, _, _), .downsample(let source, _):
            return [source]
        }
    }

    /// Bytes of the pass's target: RGBA, 8 bits a channel.
    public var bytes: Int { width * height * 4 }

    /// Creates a pass.
    public init(index: Int, purpose: Purpose, width: Int, height: Int, content: Content, label: String) {
        self.index = index
        self.purpose = purpose
        self.width = width
        self.height = height
        self.content = content
        self.label = label
    }
}
