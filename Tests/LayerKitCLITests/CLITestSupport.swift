import Foundation
import XCTest

/// What one run of the `layerkit` executable did.
struct CLIRun {
    /// The exit status.
    let status: Int32
    /// Everything written to standard output.
    let stdout: String
    /// Everything written to standard error.
    let stderr: String
    /// Wall-clock time from launch to exit.
    let seconds: Double

    /// The non-empty lines of standard error.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// The `layerkit` under test: `LAYERKIT_EXECUTABLE` when set (to time a release build from a
/// debug test run), else the one built beside this test bundle (`swift test` builds every
/// product first).
let layerkitExecutable: URL = ProcessInfo.processInfo.environment["LAYERKIT_EXECUTABLE"].map { URL(fileURLWithPath: $0) }
    ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("layerkit")

/// Whether `layerkitExecutable` is an optimized build, which timing limits are stated for.
let layerkitIsReleaseBuild = layerkitExecutable.resolvingSymlinksInPath().path.contains("/release/")

/// The sanitizer this test process (and so the `layerkit` of the same build) runs under, if any,
/// found by its runtime's entry point.
let activeSanitizer: String? = ["address": "__asan_init", "thread": "__tsan_init"]
    .first { dlsym(UnsafeMutableRawPointer(bitPattern: 0), $0.value) != nil }?.key

/// `body(0) … body(count - 1)`, as many at once as there are cores, in order: runs of `layerkit`
/// that are independent wait on separate processes, so a test of dozens of them takes a share
/// of the time. `body` must not assert (XCTest's failures belong on the test's thread): check
/// what it returns.
func concurrentRuns<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
    var results = [Result<T, Error>?](repeating: nil, count: count)
    let lock = NSLock()
    DispatchQueue.concurrentPerform(iterations: count) { i in
        let result = Result { try body(i) }
        lock.withLock { results[i] = result }
    }
    return try results.map { try $0!.get() }
}

/// Runs `layerkit` with `arguments`, with `environment` added to this process's environment.
func runLayerKit(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIRun {
    try run(layerkitExecutable, arguments, environment: environment)
}

/// Runs `layerkit` with `arguments` where no file may grow past `blocks` × 512 bytes (`ulimit -f`
/// of /bin/sh; POSIX counts 512-byte blocks, bash 1024), with SIGXFSZ ignored so that a write
/// past the limit fails with EFBIG as on a full disk. It binds root too, where read-only files
/// and folders do not.
func runLayerKit(_ arguments: [String], fileSizeLimit blocks: Int) throws -> CLIRun {
    let quoted = ([layerkitExecutable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' XFSZ; ulimit -f \(blocks) && exec " + quoted.joined(separator: " ")])
}

/// Runs `executable` (`layerkit`, or a shell that execs it) with `arguments` and `environment`
/// added to this process's environment.
private func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIRun {
    guard FileManager.default.isExecutableFile(atPath: layerkitExecutable.path) else {
        throw XCTSkip("no layerkit executable at \(layerkitExecutable.path); build the package first")
    }
    // Output goes to files rather than pipes: nothing can block on a full pipe, and no reader
    // thread is needed.
    let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: outputs) }
    let (outURL, errURL) = (outputs.appendingPathComponent("stdout"), outputs.appendingPathComponent("stderr"))
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let start = Date()
    try process.run()
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    return CLIRun(status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
                  stderr: try String(contentsOf: errURL, encoding: .utf8), seconds: seconds)
}

/// A fresh temporary directory for one test, removed when the test ends.
func temporaryDirectory(for test: XCTestCase) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir
}

/// Runs `layerkit ARGS` under `ulimit -v addressSpaceKiB`, so that unbounded memory fails the
/// test (the child aborts) instead of the machine; outputs go to a temporary directory of `test`.
func runLayerKit(_ arguments: [String], addressSpaceKiB: Int, for test: XCTestCase) throws -> CLIRun {
    let quoted = ([layerkitExecutable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let outputs = try temporaryDirectory(for: test)
    let (out, err) = (outputs.appendingPathComponent("stdout"), outputs.appendingPathComponent("stderr"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "ulimit -v \(addressSpaceKiB) && exec " + quoted.joined(separator: " ")]
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    let start = Date()
    try process.run()
    // A hang is a failure too: ten minutes is far beyond a debug build's half a minute.
    while process.isRunning && Date().timeIntervalSince(start) < 600 { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return CLIRun(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                  stderr: try String(contentsOf: err, encoding: .utf8), seconds: Date().timeIntervalSince(start))
}
