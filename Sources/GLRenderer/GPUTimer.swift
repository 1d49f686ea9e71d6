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
        guard let v = glGetString(GLenum(GL_VERSION)), !String(cString: v).hasPrefix("OpenGL ES") else { return nil }
        self.maximumInFlight = max(maximumInFlight, 1)
        var bits: GLint = 0
        glGetQueryiv(GLenum(GL_TIMESTAMP), GLenum(GL_QUERY_COUNTER_BITS), &bits)
        counterBits = Int(bits)
    }

    deinit {
        var names = idle + (inFlight + (open.map { [$0] } ?? [])).flatMap { [$0.first, $0.last] }
        if !names.isEmpty { glDeleteQueries(GLsizei(names.count), &names) }
    }

    private func query() -> GLuint {
        if let q = idle.popLast() { return q }
        var q: GLuint = 0
        glGenQueries(1, &q)
        return q
    }

    /// Starts timing the GL commands of frame number `frame` (ends an open frame first).
    public func begin(frame: Int) {
        if open != nil { end() }
        if inFlight.count >= maximumInFlight {
            let dropped = inFlight.removeFirst()
            idle += [dropped.first, dropped.last]
        }
        let b = Bracket(frame: frame, first: query(), last: query(), cpuStart: DispatchTime.now().uptimeNanoseconds)
        glQueryCounter(b.first, GLenum(GL_TIMESTAMP))
        open = b
    }

    /// Stops timing the frame `begin` started.
    public func end() {
        guard let b = open else { return }
        glQueryCounter(b.last, GLenum(GL_TIMESTAMP))
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
            var available: GLint = 0
            glGetQueryObjectiv(b.last, GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
            guard available != 0 else { break }
            let cpuElapsed = DispatchTime.now().uptimeNanoseconds - b.cpuStart
            var first: GLuint64 = 0, last: GLuint64 = 0
            glGetQueryObjectui64v(b.first, GLenum(GL_QUERY_RESULT), &first)
            glGetQueryObjectui64v(b.last, GLenum(GL_QUERY_RESULT), &last)
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
        glFinish()
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
