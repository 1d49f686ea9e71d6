import Foundation

/// A thread that runs GL work queued from any thread, in order: an EGL context is current on
/// one thread, so the work that uses one runs on a thread kept for it.
///
/// `GLThread.openGLLayers` is the thread every `CAOpenGLLayer` draws on. A thread has one
/// current context whatever the API: making a layer's EGL context current on the thread that
/// commits the layer tree would take that thread's own context from it (the demo's window
/// context is GLFW's, GLX, which EGL cannot give back, and a `GLRenderer` never makes its
/// context current again). So the layers draw on a thread of their own that holds nothing but
/// their contexts, and the committing thread waits for each drawing, as a layer's display is
/// part of its commit. LayerKitTesting's GL assertions keep their context and renderer on
/// another. A serial dispatch queue would not do: its blocks run on pool threads that others'
/// GL work may use.
package final class GLThread: @unchecked Sendable {
    /// The thread of `CAOpenGLLayer`s' drawing.
    static let openGLLayers = GLThread(name: "LayerKit CAOpenGLLayer")

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var thread: Thread?

    /// Starts a thread named `name`. Kept for the life of the process: the thread holds its
    /// `GLThread`.
    package init(name: String) {
        let t = Thread { [self] in serve() }
        t.name = name
        thread = t
        t.start()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Queues `job` and returns.
    package func async(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the thread and waits for its result (at once when called there). The
    /// thread lets go of `body` before the caller resumes, so what `body` captured is never
    /// released there later: a layer that captured itself would otherwise die on this thread
    /// after the caller had let go of it, queueing its context's release behind whatever the
    /// caller queued next.
    package func sync<T>(_ body: @escaping () -> T) -> T {
        if Thread.current === thread { return body() }
        var result: T?
        var work: (() -> T)? = body
        let done = DispatchSemaphore(value: 0)
        async {
            result = work!()
            work = nil
            done.signal()
        }
        done.wait()
        return result!
    }
}
