import CGL
import Dispatch

/// Measures how long the GPU spends on each frame with `GL_TIMESTAMP` queries at the frame's
/// first and last command, read back a few frames later so that asking never stalls the pipeline.
///
/// A frame's draw calls are queued, not executed, when `GLRenderer` returns, so the CPU clock
/// cannot say what the GPU spent; the driver fills in a query once the commands before it have
/// run. `begin(frame:)` and `end()` bracket one frame, `collect()` returns the results that have
/// become available, oldest first, without waiting. Feed them to
/// `FrameProfiler.setGPUTime(frame:ms:)`.
///
/// Two timestamps rather than one `GL_TIME_ELAPSED` query: Mesa's llvmpipe answers an elapsed-time
/// query around a frame that switches framebuffers with its end time since boot (a 40-pass frame
/// of 9 s was "1,209,901 ms"), while its timestamps are right. And every answer is checked: the
/// GPU cannot have spent longer on a frame than the wall-clock time from `begin` to the moment
/// the answer was read, nor can a driver with no timestamp bits time at all; such a frame's time
/// is `nil` ("n/a"), never a wrong number.
///
/// Needs desktop OpenGL 3.3 (timer queries are core there; OpenGL ES 3 has none), with the
/// context current whenever the timer is used or released, as for `GLRenderer`.
public final class GPUTimer {
    /// One frame's pair of timestamp queries and when, on the CPU clock, it began.
    private struct Bracket {
        let frame: Int
        let first: GLuint
        let last: GLuint
        let cpuStart: UInt64
    }

    /// The timer's own caller of GL (it has no state to share with a renderer's).
    private let device: GLDevice
    /// Queries answered and ready for reuse.
    private var idle: [GLuint] = []
    /// Frames ended but not yet read, oldest first.
    private var inFlight: [Bracket] = []
    /// The frame between `begin` and `end` (its `last` query not yet issued).
    private var open: Bracket?
    /// Bits of the GPU's timestamp counter (`GL_QUERY_COUNTER_BITS`); 0 when it cannot time.
    private let counterBits: Int
    /// How many frames may wait for their answer before the oldest is dropped unread (a
    /// driver that never answers must not make the timer grow without bound).
    public let maximumInFlight: Int

    /// A timer for the current context; `nil` on OpenGL ES, which has no `GL_TIMESTAMP`.
    public init?(maximumInFlight: Int = 8) {
        let device = GLDevice()
        guard let v = device.version(), !v.hasPrefix("OpenGL ES") else { return nil }
        self.maximumInFlight = max(maximumInFlight, 1)
        counterBits = device.timestampBits()
        self.device = device
    }

    deinit {
        device.deleteQueries(idle + (inFlight + (open.map { [$0] } ?? [])).flatMap { [$0.first, $0.last] })
    }

    private func query() -> GLuint {
        idle.popLast() ?? device.makeQuery()
    }

    /// Starts timing the GL commands of frame number `frame` (ends an open frame first).
    public func begin(frame: Int) {
        if open != nil { end() }
        if inFlight.count >= maximumInFlight {
            let dropped = inFlight.removeFirst()
            idle += [dropped.first, dropped.last]
        }
        let b = Bracket(frame: frame, first: query(), last: query(), cpuStart: DispatchTime.now().uptimeNanoseconds)
        device.recordTimestamp(b.first)
        open = b
    }

    /// Stops timing the frame `begin` started.
    public func end() {
        guard let b = open else { return }
        device.recordTimestamp(b.last)
        inFlight.append(b)
        open = nil
    }

    /// The GPU times, in milliseconds, of the frames whose queries have been answered, oldest
    /// first; `nil` for a frame the driver could not time (see the type's notes). Never waits:
    /// a query still pending stays for a later call (and so do all after it, since the GPU
    /// answers in order).
    public func collect() -> [(frame: Int, ms: Double?)] {
        var out: [(frame: Int, ms: Double?)] = []
        while let b = inFlight.first {
            guard device.isAvailable(b.last) else { break }
            let cpuElapsed = DispatchTime.now().uptimeNanoseconds - b.cpuStart
            let (first, last) = (device.result(b.first), device.result(b.last))
            out.append((b.frame, GPUTimer.elapsedMs(first: first, last: last, counterBits: counterBits, cpuElapsed: cpuElapsed)))
            inFlight.removeFirst()
            idle += [b.first, b.last]
        }
        return out
    }

    /// Every answer still to come, waiting for the GPU to finish (`glFinish`): for the end of
    /// a benchmark, whose last frames are answered only after them.
    public func collectAll() -> [(frame: Int, ms: Double?)] {
        if open != nil { end() }
        device.finish()
        return collect()
    }

    /// Milliseconds between two timestamps of a `counterBits`-bit counter (which may have
    /// wrapped between them), or `nil` when that cannot be the GPU time: no counter, or more
    /// than `cpuElapsed` nanoseconds, the wall-clock time in which the GPU did the work.
    static func elapsedMs(first: UInt64, last: UInt64, counterBits: Int, cpuElapsed: UInt64) -> Double? {
        guard counterBits > 0 else { return nil }
        let mask: UInt64 = counterBits >= 64 ? .max : (1 << UInt64(counterBits)) - 1
        let ns = (last &- first) & mask
        guard ns <= cpuElapsed else { return nil }
        return Double(ns) / 1e6
    }
}
