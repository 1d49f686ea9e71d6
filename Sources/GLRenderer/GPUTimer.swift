import CGL

/// Measures how long the GPU spends on each frame with `GL_TIME_ELAPSED` timer queries, read
/// back a few frames later so that asking never stalls the pipeline.
///
/// A frame's draw calls are queued, not executed, when `GLRenderer` returns, so the CPU clock
/// cannot say what the GPU spent; a timer query brackets the commands and the driver fills the
/// result in once they have run. `begin(frame:)` and `end()` bracket one frame (one query may be
/// open at a time, as GL requires), `collect()` returns the results that have become available,
/// oldest first, without waiting. Feed them to `FrameProfiler.setGPUTime(frame:ms:)`.
///
/// Needs desktop OpenGL 3.3 (timer queries are core there; OpenGL ES 3 has none), with the
/// context current whenever the timer is used or released, as for `GLRenderer`.
public final class GPUTimer {
    /// Queries answered and ready for reuse.
    private var idle: [GLuint] = []
    /// Queries ended but not yet read, oldest first, with the frame each measured.
    private var inFlight: [(frame: Int, query: GLuint)] = []
    /// The query between `begin` and `end`.
    private var open: (frame: Int, query: GLuint)?
    /// How many frames may wait for their answer before the oldest is dropped unread (a
    /// driver that never answers must not make the timer grow without bound).
    public let maximumInFlight: Int

    /// A timer for the current context; `nil` on OpenGL ES, which has no `GL_TIME_ELAPSED`.
    public init?(maximumInFlight: Int = 8) {
        guard let v = glGetString(GLenum(GL_VERSION)), !String(cString: v).hasPrefix("OpenGL ES") else { return nil }
        self.maximumInFlight = max(maximumInFlight, 1)
    }

    deinit {
        var names = idle + inFlight.map(\.query) + (open.map { [$0.query] } ?? [])
        if !names.isEmpty { glDeleteQueries(GLsizei(names.count), &names) }
    }

    /// Starts timing the GL commands of frame number `frame` (ends an open query first).
    public func begin(frame: Int) {
        if open != nil { end() }
        if inFlight.count >= maximumInFlight { idle.append(inFlight.removeFirst().query) }
        var query: GLuint = 0
        if let q = idle.popLast() { query = q } else { glGenQueries(1, &query) }
        glBeginQuery(GLenum(GL_TIME_ELAPSED), query)
        open = (frame, query)
    }

    /// Stops timing the frame `begin` started.
    public func end() {
        guard let o = open else { return }
        glEndQuery(GLenum(GL_TIME_ELAPSED))
        inFlight.append(o)
        open = nil
    }

    /// The GPU times, in milliseconds, of the frames whose queries have been answered, oldest
    /// first. Never waits: a query still pending stays for a later call (and so do all after
    /// it, since the GPU answers in order).
    public func collect() -> [(frame: Int, ms: Double)] {
        var out: [(frame: Int, ms: Double)] = []
        while let first = inFlight.first {
            var available: GLint = 0
            glGetQueryObjectiv(first.query, GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
            guard available != 0 else { break }
            var nanoseconds: GLuint64 = 0
            glGetQueryObjectui64v(first.query, GLenum(GL_QUERY_RESULT), &nanoseconds)
            out.append((first.frame, Double(nanoseconds) / 1e6))
            idle.append(inFlight.removeFirst().query)
        }
        return out
    }
}
