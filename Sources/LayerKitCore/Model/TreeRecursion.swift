import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Recursion over layer trees of any depth. The tree walks (snapshots, layout, hit testing,
/// scene files, the compositor) recurse once per level, and a thread's stack (8 MiB on the main
/// thread, 512 KiB on an Apple secondary thread) holds only so many levels. Each recursive walk
/// starts a level with `guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack {
/// … } }`: while the stack has `redZone` bytes left, that is one comparison; below it, the rest
/// of the walk continues on a new thread with a `freshStackSize` stack while the caller waits,
/// so depth costs stack only in 64 MiB steps of virtual memory and never overflows (the
/// technique of rustc's `stacker`).
package enum TreeRecursion {
    /// The stack left below which a walk moves to a fresh stack: more than one level of the
    /// deepest walk (the compositor's, with a typed layer's rasterization inside it) needs.
    package static let redZone = 1 << 20
    /// The stack of each helper thread.
    package static let freshStackSize = 64 << 20

    /// Whether the calling thread's stack has more than `redZone` bytes left.
    @inline(__always)
    package static var hasRoom: Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return here > lowWaterMark()
    }

    /// Runs `body` on a new thread with a `freshStackSize` stack and returns its result (or
    /// throws its error); the caller waits, so `body` may use (and mutate) everything the caller
    /// could.
    package static func onFreshStack<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let outcome: Result<T, E> = withoutActuallyEscaping(body) { body in
            let run = FreshStackRun<T, E>(body)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                run.start()
                done.signal()
            }
            thread.stackSize = freshStackSize
            thread.start()
            done.wait()
            return run.outcome!
        }
        return try outcome.get()
    }

    /// The lowest stack address a walk may reach before moving: the thread's stack bottom plus
    /// `redZone`, found once per thread and kept in thread-specific storage.
    private static func lowWaterMark() -> UInt {
        if let cached = pthread_getspecific(key) { return UInt(bitPattern: cached) }
        var mark = UInt.max  // unknown bounds: always move, which is safe
        #if os(Linux)
        var attributes = pthread_attr_t()
        if let getattr = getattrNP, getattr(pthread_self(), &attributes) == 0 {
            var base: UnsafeMutableRawPointer?
            var size = 0
            if pthread_attr_getstack(&attributes, &base, &size) == 0, let base {
                mark = UInt(bitPattern: base) + UInt(redZone)
            }
            pthread_attr_destroy(&attributes)
        }
        #elseif canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        mark = top - UInt(pthread_get_stacksize_np(pthread_self())) + UInt(redZone)
        #endif
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: mark))
        return mark
    }

    #if os(Linux)
    /// glibc's `pthread_getattr_np`, which Swift's Glibc module leaves out (it is a GNU extension).
    private static let getattrNP: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np").map { unsafeBitCast($0, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self) }
    #endif

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

/// One `body` run on a helper thread: the caller blocks until it finishes, so handing the
/// closure and its result across threads is safe.
private final class FreshStackRun<T, E: Error>: @unchecked Sendable {
    /// Dropped as soon as it has run: the closure only pretends to escape
    /// (`withoutActuallyEscaping`), which traps if anything still holds it afterwards.
    var body: (() throws(E) -> T)?
    var outcome: Result<T, E>?
    init(_ body: @escaping () throws(E) -> T) { self.body = body }
    func start() {
        guard let body else { return }
        self.body = nil
        do throws(E) { outcome = .success(try body()) } catch { outcome = .failure(error) }
    }
}
