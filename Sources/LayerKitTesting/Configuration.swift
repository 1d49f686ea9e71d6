import Foundation
#if canImport(Testing)
import Testing
#endif

/// Settings of snapshot assertions for a scope: a test (`withSnapshotTesting(record:operation:)`
/// in XCTest, the `.snapshots(record:)` trait in Swift Testing) or the whole process (the
/// environment variable `SNAPSHOT_TESTING_RECORD`).
public struct SnapshotTestingConfiguration: Sendable {
    /// When an assertion writes its reference file.
    public enum Record: String, Sendable, CaseIterable {
        /// Always: every assertion records its snapshot, and fails saying so.
        case all
        /// When it is missing or differs: the new snapshot replaces it, and the assertion fails.
        case failed
        /// When it is missing (the default): the snapshot is recorded, and the assertion fails
        /// saying so, so that a recording never passes.
        case missing
        /// Never: a missing reference fails without writing one (for CI).
        case never
    }

    /// The record mode; nil leaves it to an enclosing scope.
    public var record: Record?

    /// A configuration recording as `record` says.
    public init(record: Record? = nil) { self.record = record }

    /// The innermost scope's configuration.
    @TaskLocal static var current = SnapshotTestingConfiguration()

    /// The name of the environment variable that sets the record mode of a process.
    static let recordVariable = "SNAPSHOT_TESTING_RECORD"

    /// The mode an assertion uses: its own `record:`, else the innermost scope's, else
    /// `SNAPSHOT_TESTING_RECORD`'s, else `.missing`. A value of the variable that is not a
    /// mode is an error naming the modes.
    static func mode(given: Record?) throws -> Record {
        if let mode = given ?? current.record { return mode }
        guard let value = ProcessInfo.processInfo.environment[recordVariable], !value.isEmpty else { return .missing }
        guard let mode = Record(rawValue: value.lowercased()) else {
            throw SnapshotError("\(recordVariable)=\(value) is not a record mode: use all, failed, missing or never")
        }
        return mode
    }
}

/// Runs `operation` with snapshot assertions recording as `record` says (XCTest's way of
/// scoping a mode to a test: wrap its body, or override `invokeTest()`).
public func withSnapshotTesting<R>(record: SnapshotTestingConfiguration.Record? = nil,
                                   operation: () throws -> R) rethrows -> R {
    try SnapshotTestingConfiguration.$current.withValue(merged(record)) { try operation() }
}

/// Runs `operation` with snapshot assertions recording as `record` says.
public func withSnapshotTesting<R>(record: SnapshotTestingConfiguration.Record? = nil,
                                   operation: () async throws -> R) async rethrows -> R {
    try await SnapshotTestingConfiguration.$current.withValue(merged(record)) { try await operation() }
}

/// The current configuration with `record` in place of its mode when given.
private func merged(_ record: SnapshotTestingConfiguration.Record?) -> SnapshotTestingConfiguration {
    SnapshotTestingConfiguration(record: record ?? SnapshotTestingConfiguration.current.record)
}

#if canImport(Testing)
/// Swift Testing's way to set snapshot settings for a test or a suite and everything in it:
/// `@Test(.snapshots(record: .all))`, `@Suite(.snapshots(record: .never))`.
public struct SnapshotTestingTrait: TestTrait, SuiteTrait, TestScoping {
    /// The settings the test runs with.
    public var configuration: SnapshotTestingConfiguration

    /// A suite's settings reach its tests.
    public var isRecursive: Bool { true }

    /// Runs the test with `configuration` in force.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withSnapshotTesting(record: configuration.record) { try await function() }
    }
}

extension Trait where Self == SnapshotTestingTrait {
    /// Snapshot assertions in the test or suite record as `record` says.
    public static func snapshots(record: SnapshotTestingConfiguration.Record) -> Self {
        SnapshotTestingTrait(configuration: SnapshotTestingConfiguration(record: record))
    }
}
#endif
