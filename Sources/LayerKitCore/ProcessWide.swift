import Foundation
import Synchronization

// The model's process-wide state, all of it, in one place. Core Animation has one implicit
// transaction and one frame clock per process (a layer tree is not tied to a context object),
// and LayerKit keeps that shape; everything else here is a counter the tests of "work follows
// change" read, or a place where refusals are reported because Apple's signatures return
// nothing. Which thread may touch what: the transaction stack and the frame clock belong to the
// thread that edits and commits layers (Core Animation's main thread); the counters are atomic
// and the non-finite handler is locked, since separate trees may be snapshotted on separate
// threads; the two error handlers are set once, before layers are edited (tests replace them).

extension TransactionStack {
    /// The open transactions of the process (see `CATransaction`).
    nonisolated(unsafe) static let shared = TransactionStack()
}

extension AnimationClock {
    /// The frame clock every layer's animations are tracked on.
    nonisolated(unsafe) package static let shared = AnimationClock()
}

extension AnimationPlan {
    /// How many times a packed field of a packed animation has been edited. Such an edit
    /// (changing an animation after adding it, which Core Animation does not allow) outdates
    /// every plan, and each is packed again at its next frame: a counter rather than a
    /// reference from each animation to its layer costs a frame nothing. Atomic, because
    /// separate trees may be snapshotted on separate threads.
    static let edits = Atomic<Int>(0)
}

extension CALayer {
    /// How many times `displayIfNeeded()` has redrawn a layer in this process: the frame loop
    /// counts a frame's redraws (`displays`) as the difference across its commit, which shows
    /// that a layer not marked for display is never redrawn.
    package static let displayCount = Atomic<Int>(0)

    /// What `setNonFiniteAnimationValueHandler(_:)` set (see `NonFiniteAnimationValue`).
    static let nonFiniteHandler = Mutex<((NonFiniteAnimationValue) -> Void)?>(nil)
}

extension CATiledLayer {
    /// How many tiles `draw(in:)` has drawn in this process, every tiled layer together: the
    /// frame loop counts a frame's (`tiles`) as the difference across its compositing.
    package static let tileDrawCount = Atomic<Int>(0)
}

/// Where refused tree edits are reported. Core Animation's tree methods return nothing, so
/// LayerKit keeps their signatures, leaves the tree unchanged and reports the reason here; the
/// default writes one line to standard error. Tests replace it to observe refusals.
nonisolated(unsafe) public var layerTreeErrorHandler: (LayerTreeError) -> Void = { error in
    FileHandle.standardError.write(Data("LayerKit: \(error)\n".utf8))
}

/// Receives every value refused for its type: Core Animation has no throwing `add(_:forKey:)`
/// or `setValue(_:forKey:)` (a wrong value silently does nothing there, or raises), so LayerKit
/// keeps the signatures, refuses the animation or the value (the layer is unchanged) and
/// reports it here; the default writes one line to standard error. Tests replace it.
nonisolated(unsafe) public var valueTypeErrorHandler: (CAValueTypeError) -> Void = { error in
    FileHandle.standardError.write(Data("LayerKit: \(error)\n".utf8))
}
