import Foundation
import XCTest

@testable import LayerKitDrawing

/// `OutputFile`: the target changes only at commit, a write given up leaves no trace, and the
/// checks create nothing.
final class OutputFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    func testTheTargetChangesOnlyAtCommit() throws {
        let target = folder.appendingPathComponent("out.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let file = try OutputFile(path: target)
        try file.append(Array("new".utf8))
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old", "before commit")
        XCTAssertEqual(try names().count, 2, "the target and the temporary file beside it")
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "new")
        XCTAssertEqual(try names(), ["out.bin"])
    }

    func testAWriteGivenUpLeavesNoTrace() throws {
        let target = folder.appendingPathComponent("out.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let discarded = try OutputFile(path: target)
        try discarded.append(Array("new".utf8))
        discarded.discard()
        do {
            let dropped = try OutputFile(path: target)
            try dropped.append(Array("newer".utf8))
        }  // dropped without commit
        let fresh = folder.appendingPathComponent("fresh.bin").path
        _ = try OutputFile(path: fresh)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old")
        XCTAssertEqual(try names(), ["out.bin"], "no temporary file, and no new file that was never committed")
    }

    func testRefusalsNameTheReason() throws {
        let file = folder.appendingPathComponent("file").path
        try Data().write(to: URL(fileURLWithPath: file))
        let cases = [
            (folder.path, "it is a directory"),
            ("", "the path is empty"),
            (folder.appendingPathComponent("missing/out.png").path, "no such directory \(folder.appendingPathComponent("missing").path)"),
            (file + "/out.png", "\(file) is not a directory"),
        ]
        for (path, reason) in cases {
            XCTAssertThrowsError(try OutputFile.check(path), path) { XCTAssertEqual($0 as? OutputFileError, OutputFileError(path: path, reason: reason)) }
            XCTAssertThrowsError(try OutputFile(path: path), path) { XCTAssertEqual($0 as? OutputFileError, OutputFileError(path: path, reason: reason)) }
        }
        // The check tries a file in the folder and removes it again.
        try OutputFile.check(folder.appendingPathComponent("new.png").path)
        XCTAssertEqual(try names(), ["file"])
    }
}
