import Foundation

/// A frame clock: Core Animation's `CADisplayLink`, in a Swift form (Apple's
/// `init(target:selector:)` and run-loop scheduling need Objective-C).
///
/// The app's loop calls `step()` once per screen refresh. Each frame the link reads its time
/// source, commits the implicit transaction, delivers the animations' delegate callbacks
/// (`animationDidStart`, then `animationDidStop(_:finished:)`), removes finished animations
/// and runs ended completion blocks, and then calls the closure, which draws the frame at
/// `targetTimestamp` (a `FrameLoop` with a `PresentationTreeSource` does it).
///
/// Linux gives no vertical-sync timestamps, so the time source's reading at `step()` is the
/// time of the frame being prepared (`targetTimestamp`), and `timestamp` is the previous
/// frame's. While at least one link runs (not paused, not invalidated), transactions take their
/// time from the latest frame. (Whether a change animates does not depend on links: a committed
/// layer animates its changes implicitly unless the transaction disables actions.)
public final class CADisplayLink {
    /// The media time of the last frame shown (the previous `targetTimestamp`).
    public private(set) var timestamp: CFTimeInterval = 0
    /// The media time of the frame being prepared: sample animations here.
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// The time between the last two frames (before the second frame: one nominal frame).
    public private(set) var duration: CFTimeInterval = 0
    /// The most frames per second the link delivers; 0 (the default) is every `step()`.
    public var preferredFramesPerSecond = 0

    /// Whether the link skips its frames for now.
    public var isPaused = false {
        didSet { if isPaused != oldValue, !isInvalidated { AnimationClock.shared.runningLinks += isPaused ? -1 : 1 } }
    }

    private let timeSource: () -> CFTimeInterval
    private let callback: (CADisplayLink) -> Void
    private var isInvalidated = false
    private var hasFired = false

    /// A running link whose frames call `callback`; `timeSource` gives media time
    /// (`CACurrentMediaTime` by default; tests give exact times).
    public init(timeSource: @escaping () -> CFTimeInterval = CACurrentMediaTime, _ callback: @escaping (CADisplayLink) -> Void) {
        self.timeSource = timeSource
        self.callback = callback
        AnimationClock.shared.runningLinks += 1
    }

    deinit { invalidate() }

    /// Stops the link for good.
    public func invalidate() {
        guard !isInvalidated else { return }
        if !isPaused { AnimationClock.shared.runningLinks -= 1 }
        isInvalidated = true
    }

    /// Runs a frame now, unless the link is paused or invalidated, or the frame would come
    /// sooner than `preferredFramesPerSecond` allows (a millisecond early is allowed); returns
    /// whether it ran.
    @discardableResult
    public func step() -> Bool {
        guard !isPaused, !isInvalidated else { return false }
        let now = timeSource()
        guard now.isFinite else { return false }
        let nominal = 1 / Double(preferredFramesPerSecond > 0 ? preferredFramesPerSecond : 60)
        if hasFired, preferredFramesPerSecond > 0, now - targetTimestamp < nominal - 0.001 { return false }
        timestamp = hasFired ? targetTimestamp : now - nominal
        targetTimestamp = now
        duration = now - timestamp
        hasFired = true
        AnimationClock.shared.frame(at: now)
        callback(self)
        return true
    }
}
