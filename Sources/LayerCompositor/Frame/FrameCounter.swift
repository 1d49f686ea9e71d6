/// The counters a frame records in a `FrameProfiler`, one name each wherever they are counted
/// or read (the loop, the backends, `layerkit bench`, the demo's HUD).
///
/// The raw values are the keys of `layerkit bench --json`'s `counters` object and of its
/// Chrome trace's counter tracks, a public interface: never rename one.
public enum FrameCounter: String, CaseIterable, Sendable {
    /// Layers in the frame's snapshot, hidden ones included.
    case layers
    /// Quads in the display list, every pass together.
    case quads
    /// Render passes in the display list, the canvas included.
    case passes
    /// 1 when `FrameCompositor` handed back the last frame's display list unchanged, else 0.
    case displayListReused = "display_list_reused"
    /// Quads the compositor flattened this frame: those of the subtrees that changed, the rest
    /// copied from the last frame's display list (0 when it was reused whole).
    case quadsFlattened = "quads_flattened"
    /// Layers redrawn (`display()` through `displayIfNeeded()`) at the frame's commit: 0 in a
    /// frame where no layer was marked by `setNeedsDisplay()`.
    case displays
    /// Draw calls the backend submitted (the demo's HUD called these `draws`; `draw_calls` is the
    /// documented bench key).
    case drawCalls = "draw_calls"
    /// GL state changes the backend made (bindings, enables, blend and program switches).
    case stateChanges = "state_changes"
    /// Texture uploads of the frame (contents images and the record texture).
    case textureUploads = "texture_uploads"
    /// Bytes those uploads sent.
    case uploadedBytes = "uploaded_bytes"
    /// Textures the backend keeps across frames after this one.
    case texturesHeld = "textures_held"
    /// Bytes those textures hold.
    case textureBytesHeld = "texture_bytes_held"
    /// Quad records the GL backend wrote this frame (fewer than `quads` when it patched the
    /// last frame's records).
    case recordsWritten = "records_written"
    /// Quads the GL backend compared with the last frame's to find the records to write: only
    /// those the compositor names as changed when it knows (10 when 10 of 10,000 layers
    /// animate), every quad when it does not.
    case recordsCompared = "records_compared"
    /// Copies of `CAReplicatorLayer`s' sublayers drawn, each replicator's copies counted once
    /// per copy of every replicator above it.
    case instances
    /// Particles `CAEmitterLayer`s drew, as the compositor placed them this frame (an emitter
    /// whose quads were copied from the last frame's list, its time unchanged, adds none; a
    /// display list reused whole counts what it holds).
    case particles
    /// Pixels covered by quads that blend (`DebugOverlay.blended`'s red), summed over quads and
    /// passes: each blended quad's rectangle (less a border's hole) in its pass's pixels, cut to
    /// the pass; rounded corners and clips are not taken away. A 10x20 translucent layer at
    /// scale 1 adds 200.
    case blendedPixels = "blended_pixels"
    /// Render passes other than the canvas (`DebugOverlay.offscreen`'s yellow): offscreen
    /// surfaces drawn this frame.
    case offscreenPasses = "offscreen_passes"
    /// Tiles of `CATiledLayer`s drawn (`draw(in:)` calls) while the frame was composited: 0 in
    /// a frame that shows only tiles drawn before.
    case tiles
}

extension FrameProfiler {
    /// Records `counter`'s value for the current frame.
    public func count(_ counter: FrameCounter, _ value: Double) { count(counter.rawValue, value) }

    /// The per-frame median of `counter`, or `nil` when no kept frame recorded it.
    public func median(_ counter: FrameCounter) -> Double? { counterMedians[counter.rawValue] }
}

extension FrameProfiler.Frame {
    /// `counter`'s value in this frame, or `nil` when the frame did not record it.
    public subscript(counter: FrameCounter) -> Double? { counters[counter.rawValue] }
}
