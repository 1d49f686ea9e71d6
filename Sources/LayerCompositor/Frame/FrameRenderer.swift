import LayerKitCore

/// A backend: what turns a frame's `DisplayList` into pixels, as Core Animation's render server
/// draws a committed layer tree. `CPURenderer` and `GLRenderer` conform in their own modules,
/// so a `FrameLoop` (or a command choosing a backend) drives either without knowing which.
public protocol FrameRenderer: AnyObject {
    /// The backend's name as the command line spells it (`cpu`, `gl`).
    var name: String { get }

    /// Draws one frame and returns its canvas (an empty bitmap where the backend does not read
    /// pixels back), recording the backend's phases (`draw`, `readback`…) and its
    /// `FrameCounter`s in `profiler` when there is one.
    func render(_ list: DisplayList, profiler: FrameProfiler?) throws -> Bitmap

    /// Textures the backend keeps across frames after the last one, or `nil` when it keeps none
    /// it can count (what `layerkit soak` watches for leaks).
    var texturesHeld: Int? { get }

    /// Waits for the GPU times still to come (a timer query answers after its frame, so the
    /// last frames' arrive after them) and hands them to `profiler`: the end of a benchmark.
    func finishGPUTimes(profiler: FrameProfiler)
}

extension FrameRenderer {
    /// No texture count unless the backend has one.
    public var texturesHeld: Int? { nil }

    /// No GPU times unless the backend measures them.
    public func finishGPUTimes(profiler: FrameProfiler) {}
}
