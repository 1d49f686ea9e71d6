import Foundation
import XCTest

/// The repository stands alone: every relative link in its Markdown files reaches a file or
/// folder inside it, and no path written as code (`../shared/DESIGN.md`) climbs out of it, so
/// a fresh clone has everything its pages point at.
final class RepositoryLinkTests: XCTestCase {
    /// The repository's root, found from this file's path (Tests/LayerKitTests/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .standardizedFileURL

    /// `[text](target)`, `![alt](target)` and `[label]: target`, the target up to a space,
    /// `#` or `)`. Links inside code spans and fenced blocks are examples, not links.
    static func linkTargets(inMarkdown text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            // Code spans go first, so that `[a](b)` shown as code is not taken for a link.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            for pattern in [#"\]\(([^)\s#]*)"#, #"^\s*\[[^\]]+\]:\s*(\S+)"#] {
                let regex = try! NSRegularExpression(pattern: pattern)
                let range = NSRange(prose.startIndex..., in: prose)
                for match in regex.matches(in: prose, range: range) {
                    targets.append(String(prose[Range(match.range(at: 1), in: prose)!]))
                }
            }
        }
        return targets
    }

    /// The code spans of `text` that are relative paths climbing up (`../…`): pages name files
    /// this way as often as they link them.
    static func upwardPaths(inMarkdown text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("../") }
            .map { String($0.element.prefix { !$0.isWhitespace }) }
    }

    /// Why `target`, linked from the Markdown file at `file`, is broken, or nil when it is not.
    static func problem(with target: String, in file: URL) -> String? {
        if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { return nil }
        let resolved = file.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        guard resolved.path.hasPrefix(root.path + "/") else { return "points outside the repository" }
        return FileManager.default.fileExists(atPath: resolved.path) ? nil : "no such file"
    }

    /// The Markdown files of the repository, leaving out build and tool folders.
    static func markdownFiles() -> [URL] {
        let skipped: Set<String> = [".git", ".build", "build", ".build-asan", ".build-tsan", ".build-fuzz", ".swiftpm"]
        var files: [URL] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])!
        for case let url as URL in walker {
            if skipped.contains(url.lastPathComponent) || url.lastPathComponent.hasPrefix(".build") {
                walker.skipDescendants()
            } else if url.pathExtension == "md" {
                files.append(url)
            }
        }
        return files
    }

    func testEveryMarkdownLinkStaysInsideTheRepositoryAndExists() throws {
        let files = Self.markdownFiles()
        XCTAssertTrue(files.contains { $0.lastPathComponent == "README.md" }, "found no README.md under \(Self.root.path)")
        var broken: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for target in Self.linkTargets(inMarkdown: text) {
                if let problem = Self.problem(with: target, in: file) {
                    broken.append("\(file.path.dropFirst(Self.root.path.count + 1)): \(target): \(problem)")
                }
            }
            for path in Self.upwardPaths(inMarkdown: text) where Self.problem(with: path, in: file) == "points outside the repository" {
                broken.append("\(file.path.dropFirst(Self.root.path.count + 1)): `\(path)`: points outside the repository")
            }
        }
        XCTAssertEqual(broken, [], "broken links:\n" + broken.joined(separator: "\n"))
    }

    /// The checker itself: each kind of link is found, and each kind of breakage is caught.
    func testTheCheckerFindsLinksAndCatchesBrokenOnes() {
        let text = """
            See [the format](docs/scene-format.md#layers) and ![a picture](docs/demo-gallery.png).
            Not a link: `[x](../outside.md)`.
            ```
            [y](../also-not-a-link.md)
            ```
            [ref]: ../shared/DESIGN.md
            """
        XCTAssertEqual(Self.linkTargets(inMarkdown: text), ["docs/scene-format.md", "docs/demo-gallery.png", "../shared/DESIGN.md"])
        XCTAssertEqual(Self.upwardPaths(inMarkdown: "The design is `../shared/DESIGN.md`; run `swift test`."),
                       ["../shared/DESIGN.md"])
        let readme = Self.root.appendingPathComponent("README.md")
        XCTAssertNil(Self.problem(with: "docs/scene-format.md", in: readme))
        XCTAssertNil(Self.problem(with: "https://example.com/a.md", in: readme))
        XCTAssertEqual(Self.problem(with: "../shared/DESIGN.md", in: readme), "points outside the repository")
        XCTAssertEqual(Self.problem(with: "docs/no-such-page.md", in: readme), "no such file")
    }
}
