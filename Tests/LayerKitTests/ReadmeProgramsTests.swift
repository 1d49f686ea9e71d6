import Foundation
import XCTest

/// The README's Swift is the code of `Examples/Programs`, which CI builds and runs (`.ci/run`):
/// every file of that package is one of the ```swift blocks of the README or a guide in docs/,
/// character for character, and every block of those pages that builds a program is one of
/// those files. So the pages' programs compile.
final class ReadmeProgramsTests: XCTestCase {
    static let root = RepositoryLinkTests.root
    static let programs = root.appendingPathComponent("Examples/Programs")

    /// The contents of the ```swift blocks of a Markdown text, each ending in a newline.
    static func swiftBlocks(inMarkdown text: String) -> [String] {
        var blocks: [String] = [], current: [Substring]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.map { $0 + "\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Package.swift and every Swift source of Examples/Programs, relative to it.
    static func programFiles() throws -> [String] {
        let sources = programs.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(atPath: sources.path)!
        let swiftFiles = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "Sources/" + $0 }
        return ["Package.swift"] + swiftFiles.sorted()
    }

    /// README.md and the guides of docs/, each with its path relative to the root.
    static func pages() throws -> [(path: String, text: String)] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        let paths = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return try paths.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    func testEveryProgramFileIsABlockOfTheReadmeOrAGuide() throws {
        let pages = try Self.pages()
        XCTAssertTrue(pages.contains { $0.path == "docs/drawing.md" }, "the guides were not found: \(pages.map(\.path))")
        let blocks = pages.flatMap { Self.swiftBlocks(inMarkdown: $0.text) }
        let files = try Self.programFiles()
        XCTAssertEqual(files.count, 5, "Package.swift, ListingTree and three programs: \(files)")
        var matched = Set<String>()
        for file in files {
            let text = try String(contentsOf: Self.programs.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(blocks.contains(text), "no ```swift block of README.md or docs/ is equal to Examples/Programs/\(file)")
            matched.insert(text)
        }
        // Blocks that import LayerKit are programs, and must be files that CI builds (a test
        // importing LayerKitTesting is a snippet of Examples/SnapshotTests, which CI runs).
        for page in pages {
            for block in Self.swiftBlocks(inMarkdown: page.text)
            where block.split(separator: "\n").contains("import LayerKit") || block.contains("PackageDescription") {
                XCTAssertTrue(matched.contains(block), "a block of \(page.path) is not in Examples/Programs:\n\(block)")
            }
        }
    }

    func testSwiftBlocksAreFoundWhole() {
        let text = "a\n```swift\nlet x = 1\n\nprint(x)\n```\n```sh\nls\n```\n```swift\n```\n"
        XCTAssertEqual(Self.swiftBlocks(inMarkdown: text), ["let x = 1\n\nprint(x)\n", ""])
    }
}
