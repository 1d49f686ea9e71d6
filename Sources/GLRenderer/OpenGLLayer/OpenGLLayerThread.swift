import Foundation

/// The thread every `CAOpenGLLayer` draws on.
///
/// EGL makes a context current per thread, and a thread has one current context whatever the
/// API. Making a layer's EGL context current on the thread that commits the layer tree would
/// take that thread's own context from it: the demo's window context is GLFW's (GLX), which EGL
/// cannot give back, and a `GLRenderer` never makes its context current again. So the layers
/// draw on a thread of their own that holds nothing but their contexts, and the committing
/// thread waits for each drawing, as a layer's display is part of its commit. A serial
/// dispatch queue would not do: its blocks run on pool threads that others' GL work may use.
final class OpenGLLayerThread: @unchecked Sendable {
    static let shared = OpenGLLayerThread()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var thread: Thread?

    private init() {
        // The shared instance lives as long as the process, so the thread may hold it.
        let t = Thread { [unowned self] in self.serve() }
        t.name = "LayerKit CAOpenGLLayer"
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
    func async(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the thread and waits for its result (at once when called there). `body`
    /// escapes: the thread may release it after the caller has resumed.
    func sync<T>(_ body: @escaping () -> T) -> T {
        if Thread.current === thread { return body() }
        var result: T?
        let done = DispatchSemaphore(value: 0)
        async {
            result = body()
            done.signal()
        }
        done.wait()
        return result!
    }
}
