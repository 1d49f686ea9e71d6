import Foundation
import XCTest

/// `Scripts/fuzz` compiles LayerKitDrawing, LayerKitCore and LayerKitScene as one module, and
/// swiftc refuses two files of one module with the same name (it tells private declarations
/// apart by file name): a new file named like one in another of the three breaks the fuzzer
/// (and CI's fuzzing pass) while every SwiftPM and CMake build still passes. The modules'
/// `Exports.swift` files are left out of the fuzzer, so they may share their name.
final class FuzzerSourcesTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The Swift files' names under `module`, but `Exports.swift`.
    static func fileNames(_ module: String) -> [String] {
        let folder = sources.appendingPathComponent(module)
        let walker = FileManager.default.enumerator(atPath: folder.path)
        return (walker?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }
            .map { ($0 as NSString).lastPathComponent }.filter { $0 != "Exports.swift" }
    }

    func testTheFuzzedModulesHaveNoFileNameTwice() {
        let names = ["LayerKitDrawing", "LayerKitCore", "LayerKitScene"].flatMap(Self.fileNames)
        XCTAssertGreaterThan(names.count, 50, "scanned \(Self.sources.path)")
        let twice = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        XCTAssertEqual(twice, [], "Scripts/fuzz compiles these modules as one: rename one of each")
    }
}
