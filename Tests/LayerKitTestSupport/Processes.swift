import Foundation

/// What one run of a program did: for tests that run the package's executables.
public struct ProcessRun {
    /// The exit status (or the signal that ended it).
    public let status: Int32
    /// Everything written to standard output.
    public let stdout: String
    /// Everything written to standard error.
    public let stderr: String
    /// Wall-clock time from launch to exit.
    public let seconds: Double
    /// Whether it ran past its time limit and was stopped.
    public let timedOut: Bool

    /// The non-empty lines of standard error.
    public var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// The executable `name` built beside the running test bundle: `swift test` builds every
/// product of the package into the folder that holds the tests.
public func builtExecutable(_ name: String) -> URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent(name)
}

/// Runs `executable` with `arguments` and `environment` (default: this process's) to
/// completion, stopping it after `timeout` seconds. Output goes to files rather than pipes, so
/// nothing blocks on a full pipe and no reader thread is needed.
public func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                       timeout: Double = 120) throws -> ProcessRun {
    let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: outputs) }
    let (outURL, errURL) = (outputs.appendingPathComponent("stdout"), outputs.appendingPathComponent("stderr"))
    for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment ?? ProcessInfo.processInfo.environment
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let start = Date()
    try process.run()
    while process.isRunning && Date().timeIntervalSince(start) < timeout { Thread.sleep(forTimeInterval: 0.02) }
    let timedOut = process.isRunning
    if timedOut { process.terminate() }
    process.waitUntilExit()
    return ProcessRun(status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8),
                      seconds: Date().timeIntervalSince(start), timedOut: timedOut)
}

/// What `body` writes to this process's standard error (file descriptor 2) while it runs, which
/// then goes to the terminal no more. The pipe holds 64 KiB: enough for warnings, not a flood.
public func standardError(of body: () -> Void) -> String {
    let pipe = Pipe(), saved = dup(2)
    dup2(pipe.fileHandleForWriting.fileDescriptor, 2)
    body()
    dup2(saved, 2)
    close(saved)
    pipe.fileHandleForWriting.closeFile()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
}
