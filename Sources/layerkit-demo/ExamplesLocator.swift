import Foundation
import LayerKit

/// The repository's `Examples/` folder, where the gallery's scenes (`seeds/`) and the live
/// pages' pictures (`images/`) are, found without depending on the working directory.
struct Examples {
    /// The `Examples` folder.
    let directory: URL

    /// `Examples/seeds`: the book's scenes, one gallery page each.
    var seeds: URL { directory.appendingPathComponent("seeds") }

    /// Uses `directory` (from `--examples`) when it holds `seeds/`.
    init(directory: URL) throws {
        guard Self.holdsSeeds(directory) else {
            throw DemoError.badInput("--examples \(directory.path): no seeds/ folder there")
        }
        self.directory = directory
    }

    /// Finds `Examples/` by walking up from the folder of the running executable (the build
    /// folder sits inside the repository: `.build/debug/layerkit-demo`, `build/layerkit-demo`).
    static func locate() throws -> Examples {
        let exe = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while true {
            let candidate = dir.appendingPathComponent("Examples")
            if holdsSeeds(candidate) { return try Examples(directory: candidate) }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        throw DemoError.badInput("no Examples/seeds folder above \(exe.deletingLastPathComponent().path); "
            + "pass --examples DIR or scene files")
    }

    /// Whether `dir` has a `seeds` folder.
    private static func holdsSeeds(_ dir: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: dir.appendingPathComponent("seeds").path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Every scene file in `seeds/`, sorted by name.
    func seedScenes() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: seeds.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { seeds.appendingPathComponent($0) }
    }

    /// What each seed shows, by file name (`5.9-cube-corner.json`): the "what it shows" column
    /// of `Examples/README.md`'s scene table, with Markdown's backticks and stars taken out.
    /// The README is the one place the seeds are described, so the gallery reads it rather
    /// than keep a second copy; a README without the table gives no captions.
    func seedCaptions() -> [String: String] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8) else { return [:] }
        return Self.seedCaptions(inMarkdown: text)
    }

    /// The rows `| `NAME.json` | caption | … |` of a Markdown table.
    static func seedCaptions(inMarkdown text: String) -> [String: String] {
        var captions: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1].hasSuffix(".json`") else { continue }
            let plain = { (s: String) in s.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "") }
            captions[plain(cells[1])] = plain(cells[2])
        }
        return captions
    }

    /// `images/NAME.png`, decoded (a live page's `contents`).
    func image(_ name: String) throws -> CGImage {
        let path = directory.appendingPathComponent("images/\(name).png").path
        do { return try CGImage(contentsOfPNGFile: path) } catch { throw DemoError.badInput("\(error)") }
    }
}
