import Foundation
import XCTest

/// The README's Swift is the code of `Examples/Programs`, which CI builds and runs (`.ci/run`):
/// every file of that package is one of the README's ```swift blocks, character for character,
/// and every block that builds a program is one of those files. So the README's code compiles.
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

    func testEveryProgramFileIsABlockOfTheReadme() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(inMarkdown: readme)
        let files = try Self.programFiles()
        XCTAssertEqual(files.count, 5, "Package.swift, ListingTree and three programs: \(files)")
        var matched = Set<String>()
        for file in files {
            let text = try String(contentsOf: Self.programs.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(blocks.contains(text), "README.md has no ```swift block equal to Examples/Programs/\(file)")
            matched.insert(text)
        }
        // Blocks that import LayerKit are programs, and must be files that CI builds.
        for block in blocks where block.contains("import LayerKit") || block.contains("PackageDescription") {
            XCTAssertTrue(matched.contains(block), "a README block is not in Examples/Programs:\n\(block)")
        }
    }

    func testSwiftBlocksAreFoundWhole() {
        let text = "a\n```swift\nlet x = 1\n\nprint(x)\n```\n```sh\nls\n```\n```swift\n```\n"
        XCTAssertEqual(Self.swiftBlocks(inMarkdown: text), ["let x = 1\n\nprint(x)\n", ""])
    }
}
