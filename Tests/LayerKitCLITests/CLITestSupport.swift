import Foundation
import Testing

// The checks of this module are plain functions rather than `#expect` and `#require`: each of
// those macros is expanded by the macro plugin at its call site into closures the type checker
// solves anew, and this module's 329 of them made its compile grow from 6 s of CPU (XCTest) to
// 23-30 s, alone on one core at the end of `swift test`'s build. A failure is the same issue in
// the same test at the same line, with both values shown as XCTAssertEqual showed them.

/// Records an issue at the caller's line unless `actual == expected`.
func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ comment: @autoclosure () -> String = "",
                               sourceLocation: SourceLocation? = nil,
                               fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    guard actual != expected else { return }
    record("(\(actual)) is not equal to (\(expected))", comment(),
           at: sourceLocation ?? SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Records an issue at the caller's line unless `condition` holds.
func expect(_ condition: Bool, _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation? = nil,
            fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    guard !condition else { return }
    record("expectation failed", comment(),
           at: sourceLocation ?? SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// What `require` throws to stop the test; the issue at the caller's line is recorded already.
struct RequirementFailed: Error, CustomStringConvertible {
    var description: String { "stopped at a required value that was nil (the issue above)" }
}

/// `value`, or an issue at the caller's line and the test stopped where there is none.
func require<T>(_ value: T?, _ comment: @autoclosure () -> String = "",
                fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) throws -> T {
    guard let value else {
        record("a required value was nil", comment(), at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        throw RequirementFailed()
    }
    return value
}

/// The issue of a failed check: what failed, then the caller's comment where it gave one.
private func record(_ failure: String, _ comment: String, at location: SourceLocation) {
    Issue.record(Comment(rawValue: comment.isEmpty ? failure : failure + ": " + comment), sourceLocation: location)
}

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

    /// The non-empty lines of standard error, as Strings: compared with array literals of
    /// them, the type checker has no Substring conversions to try.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
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
/// of the time. `body` must not `expect` (Swift Testing finds the test an issue belongs to in a
/// task-local value, which Dispatch's threads lack): check what it returns.
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
    try runLayerKit(arguments, afterShell: "trap '' XFSZ; ulimit -f \(blocks)")
}

/// Runs `layerkit ARGS` under `ulimit -v addressSpaceKiB`, so that unbounded memory fails the
/// test (the child aborts) instead of the machine.
func runLayerKit(_ arguments: [String], addressSpaceKiB: Int) throws -> CLIRun {
    try runLayerKit(arguments, afterShell: "ulimit -v \(addressSpaceKiB)")
}

/// Runs `layerkit ARGS` from /bin/sh after the shell commands `setup`: limits that bind the
/// child alone.
private func runLayerKit(_ arguments: [String], afterShell setup: String) throws -> CLIRun {
    let quoted = ([layerkitExecutable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", setup + " && exec " + quoted.joined(separator: " ")])
}

/// What a test that runs `layerkit` throws where there is none (`swift test` builds it; Swift
/// Testing cannot skip a test from inside it).
struct MissingExecutable: Error, CustomStringConvertible {
    var description: String { "no layerkit executable at \(layerkitExecutable.path); build the package first" }
}

/// Runs `executable` (`layerkit`, or a shell that execs it) with `arguments` and `environment`
/// added to this process's environment.
private func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIRun {
    guard FileManager.default.isExecutableFile(atPath: layerkitExecutable.path) else { throw MissingExecutable() }
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
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    let start = Date()
    try process.run()
    // A hang is a failure too: ten minutes is far beyond a debug build's half a minute.
    if exited.wait(timeout: .now() + 600) == .timedOut {
        process.terminate()
        exited.wait()
    }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    return CLIRun(status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
                  stderr: try String(contentsOf: errURL, encoding: .utf8), seconds: seconds)
}

/// Fresh temporary directories, removed when this is released: a suite holds one in a stored
/// property, and Swift Testing makes a new suite instance for each test and releases it after
/// the test, so each test's directories go with it.
final class TemporaryDirectories {
    private var made: [URL] = []

    /// A new empty directory, removed with the others.
    func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        made.append(dir)
        return dir
    }

    deinit {
        for dir in made { try? FileManager.default.removeItem(at: dir) }
    }
}
