import Foundation
import LayerKitCore

/// The demo's animation time: real seconds since the demo started, or one frozen instant
/// (`--time`) so that screenshots of live pages are the same on every run, as a test needs.
struct DemoClock {
    /// The frozen time in seconds, or `nil` for real time.
    let frozen: Double?
    /// Where real time comes from: `CACurrentMediaTime`, or a test's hand-set time, so that a
    /// test can drive the demo's loop through seconds of idling without waiting them.
    private let source: () -> CFTimeInterval
    /// The source's time when the clock was made.
    private let start: CFTimeInterval

    /// A clock frozen at `frozen`, or running on `source` when it is `nil`.
    init(frozen: Double?, frameTime: CFTimeInterval? = nil, source: @escaping () -> CFTimeInterval = CACurrentMediaTime) {
        self.frozen = frozen
        self.frameTime = frameTime
        self.source = source
        start = source()
    }

    /// Seconds since the demo started (or the frozen value): what animations run on.
    var now: Double { frozen ?? source() - start }

    /// The media time of the frame being drawn: its display link's `targetTimestamp`, which
    /// the frame loop sets before a page updates, so that what the page begins "now" begins at
    /// the time the frame is sampled.
    var frameTime: CFTimeInterval?

    /// The frame's media time, the time base of the layer tree (its root has default timing):
    /// the frozen value, else the frame's time, else the source's, so that a page that
    /// begins its animations at this time draws the same frames on every run under `--time`.
    var mediaTime: CFTimeInterval { frozen ?? frameTime ?? source() }

    /// Seconds since local midnight (or the frozen value, read the same way: 36522 is
    /// 10:08:42), for the clock page.
    var timeOfDay: Double {
        if let frozen { return frozen }
        let date = Date()
        return date.timeIntervalSince(Calendar.current.startOfDay(for: date))
    }

    /// Whether time stands still, so a page that animates needs no further frames.
    var isFrozen: Bool { frozen != nil }
}

/// Animation time a page can pause (space): the clock's time minus the time spent paused, so
/// a paused motion resumes where it stopped.
struct PausableTime {
    /// Whether the motion is stopped.
    private(set) var isPaused = false
    private var pausedAt = 0.0
    private var pausedTotal = 0.0
    private var lastNow = 0.0

    /// The animation time at clock time `now` (remembered as the moment a toggle applies to).
    mutating func time(at now: Double) -> Double {
        lastNow = now
        return (isPaused ? pausedAt : now) - pausedTotal
    }

    /// Pauses or resumes at the last clock time seen.
    mutating func toggle() {
        if isPaused { pausedTotal += lastNow - pausedAt } else { pausedAt = lastNow }
        isPaused.toggle()
    }

    /// What a page animated by this time asks of the demo: every frame while it runs.
    func redraw(_ clock: DemoClock) -> Redraw { isPaused || clock.isFrozen ? .onInput : .everyFrame }
}
