import Foundation
import LayerKit
import Synchronization
import XCTest
#if canImport(Testing)
import Testing
#endif

/// Asserts that `value`'s snapshot matches its reference file, recording it when there is none
/// (and failing, saying so). For example:
///
/// ```swift
/// assertSnapshot(of: layer, as: .image)
/// assertSnapshot(of: layer, as: .image(fuzzy: .init(maxChannelDifference: 2, pixelCount: 0...20)))
/// assertSnapshot(of: layer, as: .image(atTimes: [0, 0.25, 1]))
/// assertSnapshot(of: layer, as: .recursiveDescription)
/// ```
///
/// The reference is `__Snapshots__/<TestFile>/<testName>.<name or counter>.<ext>` beside the
/// test file: `testName` without `()` and, like `name`, with each run of non-word characters
/// as `-`; unnamed snapshots are numbered 1, 2, … within a test. A failure says what it
/// observed and leaves the reference, the actual snapshot and (for images) a difference image
/// in `$SNAPSHOT_ARTIFACTS` (default `.build/snapshot-artifacts` of the test's package),
/// attached to the test under Swift Testing. Failures go to Swift Testing's `Issue.record`
/// inside a Swift Testing test, to `XCTFail` otherwise.
///
/// - Parameters:
///   - value: a `CALayer` or a `Scene`.
///   - snapshotting: the strategy: `.image`, `.image(fuzzy:scale:size:atTimes:backend:)` or `.recursiveDescription`.
///   - name: the snapshot's name in its file name, instead of the counter.
///   - record: the record mode, over the scope's and `SNAPSHOT_TESTING_RECORD`'s (default `.missing`).
public func assertSnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value, as snapshotting: Snapshotting<Value, Format>, named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    guard let failure = snapshotFailure(of: value, as: snapshotting, named: name, record: record,
                                        filePath: "\(filePath)", testName: testName) else { return }
    #if canImport(Testing)
    if Test.current != nil {
        let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        for (name, bytes) in failure.attachments { Attachment.record(bytes, named: name, sourceLocation: location) }
        Issue.record(Comment(rawValue: failure.message), sourceLocation: location)
        return
    }
    #endif
    XCTFail(failure.message, file: filePath, line: line)
}

/// The check `assertSnapshot` makes, returning its failure message instead of failing the test
/// (nil when the snapshot matches). `snapshotDirectory` replaces the `__Snapshots__/<TestFile>`
/// folder.
public func verifySnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value, as snapshotting: Snapshotting<Value, Format>, named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    file filePath: StaticString = #filePath, testName: String = #function, line: UInt = #line
) -> String? {
    snapshotFailure(of: value, as: snapshotting, named: name, record: record, snapshotDirectory: snapshotDirectory,
                    filePath: "\(filePath)", testName: testName)?.message
}

/// A failed snapshot assertion: the message, and the artifacts' bytes by file name.
struct SnapshotFailure {
    var message: String
    var attachments: [(name: String, bytes: [UInt8])] = []
}

/// The whole check: takes the snapshots, then records or compares each as the mode says.
/// `artifactsDirectory` replaces `$SNAPSHOT_ARTIFACTS`.
func snapshotFailure<Value, Format>(
    of value: () throws -> Value, as snapshotting: Snapshotting<Value, Format>, named name: String?,
    record: SnapshotTestingConfiguration.Record?, snapshotDirectory: String? = nil, artifactsDirectory: String? = nil,
    filePath: String, testName: String
) -> SnapshotFailure? {
    let testFile = URL(fileURLWithPath: filePath)
    let fileStem = testFile.deletingPathExtension().lastPathComponent
    let folder = snapshotDirectory.map { URL(fileURLWithPath: $0) }
        ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__").appendingPathComponent(fileStem)
    let identifier = name.map(sanitizedPathComponent) ?? String(SnapshotCounter.next(file: filePath, test: testName))
    let stem = "\(sanitizedPathComponent(testName)).\(identifier)"
    let mode: SnapshotTestingConfiguration.Record
    let taken: [Taken<Format>]
    do {
        mode = try SnapshotTestingConfiguration.mode(given: record)
        taken = try snapshotting.take(try value())
    } catch {
        return SnapshotFailure(message: "cannot take snapshot \(stem): \(error)")
    }
    // Looked for only when a snapshot fails: finding the package is a walk up the folders.
    let artifacts = {
        URL(fileURLWithPath: artifactsDirectory ?? defaultArtifactsDirectory(testFile: testFile)).appendingPathComponent(fileStem)
    }
    var failure = SnapshotFailure(message: "")
    var messages: [String] = []
    for snapshot in taken {
        let fileName = "\(stem)\(snapshot.suffix).\(snapshotting.pathExtension)"
        let reference = folder.appendingPathComponent(fileName)
        do {
            if let message = try check(snapshot, against: reference, snapshotting, mode: mode, artifacts: artifacts,
                                       failure: &failure) {
                messages.append(message)
            }
        } catch {
            messages.append("snapshot \(fileName): \(error)")
        }
    }
    guard !messages.isEmpty else { return nil }
    failure.message = messages.joined(separator: "\n")
    return failure
}

/// One snapshot against its reference file: nil when it matches, else what happened (adding
/// the artifacts written to `failure`).
private func check<Value, Format>(
    _ snapshot: Taken<Format>, against reference: URL, _ snapshotting: Snapshotting<Value, Format>,
    mode: SnapshotTestingConfiguration.Record, artifacts: () -> URL, failure: inout SnapshotFailure
) throws -> String? {
    let name = reference.lastPathComponent
    let base = reference.deletingPathExtension().lastPathComponent, ext = reference.pathExtension
    func record() throws { try write(snapshotting.encode(snapshot.recorded), to: reference) }
    func artifact(_ kind: String, _ bytes: [UInt8]) throws -> String {
        let file = artifacts().appendingPathComponent("\(base).\(kind).\(ext)")
        try write(bytes, to: file)
        failure.attachments.append((file.lastPathComponent, bytes))
        return "\n  \(kind): \(file.path)"
    }
    if mode == .all {
        try record()
        return "snapshot \(name): recorded (record mode all) at \(reference.path); turn record mode off and run again to compare against it"
    }
    guard FileManager.default.fileExists(atPath: reference.path) else {
        if mode == .never {
            return "snapshot \(name): no reference at \(reference.path), and record mode never records one"
                + (try artifact("actual", snapshotting.encode(snapshot.actual)))
        }
        try record()
        return "snapshot \(name): no reference was found; recorded one at \(reference.path). Run again to compare against it"
    }
    let bytes: [UInt8], stored: Format
    do {
        bytes = try readRegularFile(reference.path)
        stored = try snapshotting.decode(bytes)
    } catch {
        var message = "snapshot \(name): cannot read the reference \(reference.path): \(error)"
        if mode == .failed {
            try record()
            message += "\n  re-recorded the reference (record mode failed)"
        }
        return message
    }
    guard let mismatch = snapshotting.compare(stored, snapshot.actual) else { return nil }
    var message = "snapshot \(name) differs from its reference: \(mismatch.message)\n  reference file: \(reference.path)"
    message += try artifact("reference", bytes)
    message += try artifact("actual", snapshotting.encode(snapshot.actual))
    if let difference = mismatch.difference { message += try artifact("difference", difference.pngData()) }
    if mode == .failed {
        try record()
        message += "\n  re-recorded the reference (record mode failed)"
    }
    return message
}

/// Writes a whole file (see `OutputFile`), making its folder first.
private func write(_ bytes: [UInt8], to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try writeOutputFile(bytes, to: url.path)
}

/// `$SNAPSHOT_ARTIFACTS`, else `.build/snapshot-artifacts` in the package holding the test file
/// (the nearest folder above it with a Package.swift), else a folder in the temporary directory.
func defaultArtifactsDirectory(testFile: URL) -> String {
    if let set = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"], !set.isEmpty { return set }
    var folder = testFile.deletingLastPathComponent()
    while folder.path != "/" && !folder.path.isEmpty {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            return folder.appendingPathComponent(".build/snapshot-artifacts").path
        }
        folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("snapshot-artifacts").path
}

/// A test or snapshot name as a file name part: each run of non-word characters becomes `-`,
/// and a `-` at either end goes (`testShadow()` → `testShadow`), as swift-snapshot-testing does.
func sanitizedPathComponent(_ s: String) -> String {
    s.replacingOccurrences(of: "\\W+", with: "-", options: .regularExpression)
        .replacingOccurrences(of: "^-|-$", with: "", options: .regularExpression)
}

/// The numbers of unnamed snapshots, counted per test from 1. XCTest's counts start again at
/// each test (a test run again counts from 1 again); Swift Testing's run per test function.
enum SnapshotCounter {
    private static let counts = Mutex<[String: Int]>([:])
    private static let observing = Mutex(false)

    static func next(file: String, test: String) -> Int {
        startObserving()
        return counts.withLock { counts in
            let key = file + "\u{0}" + test
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    static func reset() { counts.withLock { $0 = [:] } }

    /// Registers the reset with XCTest, once, from the first XCTest test that counts.
    private static func startObserving() {
        #if canImport(Testing)
        guard Test.current == nil else { return }
        #endif
        let first = observing.withLock { started in
            defer { started = true }
            return !started
        }
        if first { XCTestObservationCenter.shared.addTestObserver(CounterReset()) }
    }
}

/// Resets the counters as each XCTest test starts.
private final class CounterReset: NSObject, XCTestObservation {
    func testCaseWillStart(_ testCase: XCTestCase) { SnapshotCounter.reset() }
}
