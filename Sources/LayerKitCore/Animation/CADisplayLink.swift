import Foundation

/// A frame clock: Core Animation's `CADisplayLink`, with a closure where Apple takes a target
/// and a selector (`#selector` needs Objective-C).
///
/// As on Apple's platforms, `add(to:forMode:)` makes the link fire while that run loop runs
/// (`RunLoop.main.run()`, `run(until:)`): a Foundation `Timer` in the loop calls `step()` at
/// 60 Hz, the nominal refresh (Linux has no display to ask), and the run loop keeps the link
/// until it is removed from every mode or invalidated. An app with its own loop calls `step()`
/// once per screen refresh instead. Each frame the link reads its time
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

    /// The frame rate the link asks for, honoured as `preferredFramesPerSecond` is: the
    /// `preferred` rate, or the `maximum` without one, caps the frames delivered (0: every
    /// `step()`). The default range leaves `preferredFramesPerSecond` in charge.
    public var preferredFrameRateRange = CAFrameRateRange.default

    /// The timers that fire the link in the run loops and modes it was added to.
    private var timers: [(runLoop: RunLoop, mode: RunLoop.Mode, timer: Timer)] = []
    /// What the timers hold: the link itself while it is in some run loop (that is how the
    /// run loop keeps it), nothing once it is out of every one (an invalidated timer may
    /// outlive its run loop's hold for a while).
    private let scheduled = Scheduled()
    private final class Scheduled { var link: CADisplayLink? }

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

    /// Stops the link for good, removing it from every run loop.
    public func invalidate() {
        for entry in timers { entry.timer.invalidate() }
        timers = []
        scheduled.link = nil
        guard !isInvalidated else { return }
        if !isPaused { AnimationClock.shared.runningLinks -= 1 }
        isInvalidated = true
    }

    /// Makes the link fire while `runloop` runs in `mode` (`.common`: in every common mode).
    /// The run loop keeps the link, as Apple's does, until it is removed from every mode or
    /// invalidated. Adding it again to the same loop and mode changes nothing.
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard !isInvalidated, !timers.contains(where: { $0.runLoop === runloop && $0.mode == mode }) else { return }
        scheduled.link = self
        let timer = Timer(timeInterval: 1.0 / 60, repeats: true) { [scheduled] _ in scheduled.link?.step() }
        runloop.add(timer, forMode: mode)
        timers.append((runloop, mode, timer))
    }

    /// Stops the link firing in `runloop`'s `mode`.
    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
        timers.removeAll { entry in
            guard entry.runLoop === runloop, entry.mode == mode else { return false }
            entry.timer.invalidate()
            return true
        }
        if timers.isEmpty { scheduled.link = nil }
    }

    /// The frames per second the link caps its frames at; 0 for no cap.
    private var frameRateCap: Double {
        if preferredFrameRateRange != .default {
            return Double(max(preferredFrameRateRange.preferred ?? preferredFrameRateRange.maximum, 0))
        }
        return Double(max(preferredFramesPerSecond, 0))
    }

    /// Runs a frame now, unless the link is paused or invalidated, or the frame would come
    /// sooner than `preferredFramesPerSecond` allows (a millisecond early is allowed); returns
    /// whether it ran.
    @discardableResult
    public func step() -> Bool {
        guard !isPaused, !isInvalidated else { return false }
        let now = timeSource()
        guard now.isFinite else { return false }
        let cap = frameRateCap
        let nominal = 1 / (cap > 0 ? cap : 60)
        if hasFired, cap > 0, now - targetTimestamp < nominal - 0.001 { return false }
        timestamp = hasFired ? targetTimestamp : now - nominal
        targetTimestamp = now
        duration = now - timestamp
        hasFired = true
        AnimationClock.shared.frame(at: now)
        callback(self)
        return true
    }
}

/// A range of frame rates, in frames per second, that a display link asks for: Core
/// Animation's `CAFrameRateRange`. LayerKit's link caps its frames at `preferred`, or at
/// `maximum` without one; `minimum` is kept for the program's own use.
public struct CAFrameRateRange: Equatable, Sendable {
    /// The lowest rate acceptable.
    public var minimum: Float
    /// The highest rate wanted.
    public var maximum: Float
    /// The rate wanted, within the range; `nil` leaves it to the system.
    public var preferred: Float?

    /// The default range: all zero, no preference.
    public init() {
        minimum = 0
        maximum = 0
        preferred = nil
    }

    /// A range from `minimum` to `maximum`, preferring `preferred`.
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// The default range (`init()`): the display's own rate.
    public static let `default` = CAFrameRateRange()

    /// Whether two ranges are the same (Apple's `isEqual(to:)`).
    public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}
