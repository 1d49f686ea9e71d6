// The counters a GL frame reports: what `GLRenderer.lastFrameStats` holds and the profiler records.

import LayerCompositor

extension GLRenderer {
    /// What one frame cost, as counters (the figures the profiler reports).
    public struct FrameStats: Equatable, Sendable, CustomStringConvertible {
        /// `glDrawArrays*` calls.
        public var drawCalls = 0
        /// GL calls that changed pipeline state (program, vertex array, framebuffer, viewport,
        /// blending, texture bindings, uniforms, clear colour), after redundant ones were skipped.
        public var stateChanges = 0
        /// Contents textures uploaded (a texture's mip chain counts as one more upload).
        public var textureUploads = 0
        /// Bytes of contents texels uploaded (mip levels included; not the per-frame records).
        public var uploadedBytes = 0
        /// Textures held after the frame: cached contents plus pooled offscreen targets.
        public var texturesHeld = 0
        /// Bytes of those textures.
        public var textureBytesHeld = 0
        /// Render passes in the list.
        public var passes = 0
        /// Quads in the list.
        public var quads = 0
        /// Whether the frame drew exactly what the last one did and so reused its quad records
        /// (no record building, no record upload).
        public var recordsReused = false
        /// Quad records written this frame: every quad's when they are built (of a replicated
        /// run, its first copy's only), only the changed ones when the last frame's are
        /// patched, none when they are reused.
        public var recordsWritten = 0
        /// Quads compared with the last frame's to find the records to patch: the canvas quads
        /// the compositor's lineage names (`DisplayList.canvasChanges(since:)`), every quad
        /// without it; none when the records are reused or built.
        public var recordsCompared = 0

        /// Creates zeroed counters.
        public init() {}

        /// The frame's `FrameCounter`s and their values (the display list's own, `quads` and
        /// `passes`, are the frame loop's to count).
        public var counters: [(FrameCounter, Int)] {
            [(.drawCalls, drawCalls), (.stateChanges, stateChanges), (.textureUploads, textureUploads),
             (.uploadedBytes, uploadedBytes), (.texturesHeld, texturesHeld), (.textureBytesHeld, textureBytesHeld),
             (.recordsWritten, recordsWritten), (.recordsCompared, recordsCompared)]
        }

        /// Records `counters` for `profiler`'s current frame.
        public func record(in profiler: FrameProfiler) {
            for (counter, value) in counters { profiler.count(counter, Double(value)) }
        }

        /// One line with every counter, by its `FrameCounter` name.
        public var description: String {
            (counters + [(.passes, passes), (.quads, quads)]).map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: " ")
                + (recordsReused ? " records_reused" : "")
        }
    }
}
