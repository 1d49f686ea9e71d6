import Foundation

/// Where a frame's time goes: phases on the CPU clock, GPU time when a backend measures it,
/// and counters (layers, quads, passes, draw calls, uploads…), frame after frame.
///
/// The CLI's `bench` and the demo's HUD feed it. Phases are named by the caller; the usual ones
/// are `layout`, `snapshot`, `composite` (display list build), `upload` (content rasterization
/// and texture upload), `draw` (draw submission or CPU rasterization) and `readback` /
/// `present`. Statistics and Chrome Trace Event output come from the recorded frames.
public final class FrameProfiler {
    /// One recorded frame.
    public struct Frame: Sendable {
        /// When the frame started, in seconds since the profiler was made.
        public var start: Double
        /// Wall time of the whole frame, ms.
        public var totalMs: Double = 0
        /// Phase name → ms, in the order the phases ran.
        public var phases: [(name: String, start: Double, ms: Double)] = []
        /// GPU time of the frame in ms, when the backend measured it (it may arrive late).
        public var gpuMs: Double?
        /// Counter name → value for this frame.
        public var counters: [String: Double] = [:]
    }

    /// Min, median, p95, p99 and max of a series (nearest-rank percentiles).
    public struct Statistics: Sendable, Equatable {
        /// Smallest value.
        public var min: Double
        /// The 50th percentile.
        public var median: Double
        /// The 95th percentile.
        public var p95: Double
        /// The 99th percentile.
        public var p99: Double
        /// Largest value.
        public var max: Double

        /// The statistics of `values` (all zero when empty).
        public init(_ values: [Double]) {
            let s = values.sorted()
            func pct(_ p: Double) -> Double {
                guard !s.isEmpty else { return 0 }
                let rank = Int((p / 100 * Double(s.count)).rounded(.up)) - 1
                return s[Swift.min(Swift.max(rank, 0), s.count - 1)]
            }
            min = s.first ?? 0
            max = s.last ?? 0
            median = pct(50)
            p95 = pct(95)
            p99 = pct(99)
        }

        /// The five numbers as a JSON object.
        public var json: [String: Double] { ["min": min, "median": median, "p95": p95, "p99": p99, "max": max] }
    }

    /// The frame budget at 60 Hz, ms.
    public static let budgetMs = 1000.0 / 60

    /// Every finished frame still kept, oldest first.
    public private(set) var frames: [Frame] = []
    /// How many finished frames were dropped (by `reset()` or `frameLimit`): frame number `n`,
    /// counted from the profiler's first frame, is `frames[n - framesDropped]` while kept.
    public private(set) var framesDropped = 0
    /// The most frames kept; older ones are dropped first. `nil` (the default) keeps them all,
    /// as a benchmark wants; an app that profiles for as long as it runs (the demo's HUD) sets
    /// a limit so memory stays bounded.
    public var frameLimit: Int? {
        didSet { trim() }
    }
    private var current: Frame?
    private let origin = DispatchTime.now().uptimeNanoseconds

    /// A profiler with no frames.
    public init() {}

    private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds - origin) / 1e9 }

    /// The number the next finished frame will have (see `framesDropped`), e.g. to tag a GPU
    /// timer query with it.
    public var nextFrameNumber: Int { framesDropped + frames.count }

    /// Starts a frame.
    public func beginFrame() { current = Frame(start: now()) }

    /// Runs `body` as the named phase of the current frame.
    public func measure<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        let t0 = now()
        defer {
            let t1 = now()
            current?.phases.append((phase, t0, (t1 - t0) * 1000))
        }
        return try body()
    }

    /// Records a counter value for the current frame.
    public func count(_ name: String, _ value: Double) { current?.counters[name] = value }

    /// Ends the frame; its wall time runs from `beginFrame`.
    public func endFrame() {
        guard var f = current else { return }
        f.totalMs = (now() - f.start) * 1000
        frames.append(f)
        current = nil
        trim()
    }

    /// Attaches a GPU time to frame number `number`, finished (timer queries answer a few frames
    /// late) or still in progress (a synchronous frame's answer comes before it ends); ignored
    /// when that frame was dropped. `nil` says the driver could not time the frame: it is
    /// counted in `gpuTimesUnknown` and the frame keeps no GPU time.
    public func setGPUTime(frame number: Int, ms: Double?) {
        guard let ms else {
            gpuTimesUnknown += 1
            return
        }
        let index = number - framesDropped
        if frames.indices.contains(index) {
            frames[index].gpuMs = ms
        } else if index == frames.count {
            current?.gpuMs = ms
        }
    }

    /// How many frames a GPU timer measured with an answer that could not be true (see
    /// `GPUTimer`), so reports say "n/a" rather than show no GPU time or a wrong one.
    public private(set) var gpuTimesUnknown = 0

    /// Drops all frames (after warm-up).
    public func reset() {
        framesDropped += frames.count
        frames = []
        gpuTimesUnknown = 0
    }

    private func trim() {
        guard let limit = frameLimit, frames.count > max(limit, 0) else { return }
        let excess = frames.count - max(limit, 0)
        frames.removeFirst(excess)
        framesDropped += excess
    }

    /// Phase names in first-seen order.
    public var phaseNames: [String] {
        var seen: [String] = []
        for f in frames { for p in f.phases where !seen.contains(p.name) { seen.append(p.name) } }
        return seen
    }

    /// Statistics of the whole-frame wall time.
    public var frameStatistics: Statistics { Statistics(frames.map(\.totalMs)) }

    /// Statistics of GPU time over the frames that have one.
    public var gpuStatistics: Statistics? {
        let g = frames.compactMap(\.gpuMs)
        return g.isEmpty ? nil : Statistics(g)
    }

    /// Statistics of one phase (a phase that ran several times in a frame is summed).
    public func statistics(phase: String) -> Statistics {
        Statistics(frames.map { $0.phases.filter { $0.name == phase }.reduce(0) { $0 + $1.ms } })
    }

    /// Per-frame median of each counter.
    public var counterMedians: [String: Double] {
        var names = Set<String>()
        for f in frames { names.formUnion(f.counters.keys) }
        var out: [String: Double] = [:]
        for n in names { out[n] = Statistics(frames.compactMap { $0.counters[n] }).median }
        return out
    }

    /// Frames whose wall time exceeded the 60 Hz budget.
    public var framesOverBudget: Int { frames.filter { $0.totalMs > Self.budgetMs }.count }

    /// Chrome's Trace Event format (opens in Perfetto and chrome://tracing): one complete
    /// ("X") slice per phase per frame under a frame slice, and a counter ("C") track per counter.
    public func traceEvents(process: String) -> Data {
        var events: [[String: Any]] = [["name": "process_name", "ph": "M", "pid": 1, "args": ["name": process]]]
        for (i, f) in frames.enumerated() {
            events.append(["name": "frame \(i)", "cat": "frame", "ph": "X", "pid": 1, "tid": 1,
                           "ts": f.start * 1e6, "dur": f.totalMs * 1000])
            for p in f.phases {
                events.append(["name": p.name, "cat": "phase", "ph": "X", "pid": 1, "tid": 1,
                               "ts": p.start * 1e6, "dur": p.ms * 1000])
            }
            for (name, v) in f.counters.sorted(by: { $0.key < $1.key }) {
                events.append(["name": name, "ph": "C", "pid": 1, "ts": f.start * 1e6, "args": [name: v]])
            }
            if let g = f.gpuMs {
                events.append(["name": "gpu_ms", "ph": "C", "pid": 1, "ts": f.start * 1e6, "args": ["gpu_ms": g]])
            }
        }
        let object: [String: Any] = ["traceEvents": events, "displayTimeUnit": "ms"]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}
