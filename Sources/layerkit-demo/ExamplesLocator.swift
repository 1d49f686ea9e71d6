import Foundation
import LayerKitCore

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

    /// What each seed and each live animation page shows, by seed file name
    /// (`5.9-cube-corner.json`) or page id (`8.7-ship-path`): the "what it shows" column of
    /// `Examples/README.md`'s tables, with Markdown's backticks and stars taken out. The README
    /// is the one place the examples are described, so the gallery reads it rather than keep a
    /// second copy; a README without the tables gives no captions.
    func captions() -> [String: String] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8) else { return [:] }
        return Self.captions(inMarkdown: text)
    }

    /// The rows `| `NAME` | caption | … |` of Markdown tables: scene files (`NAME.json`)
    /// anywhere, page ids in the section headed `## Live pages`.
    static func captions(inMarkdown text: String) -> [String: String] {
        var captions: [String: String] = [:]
        var inLivePages = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") { inLivePages = line.hasPrefix("## Live pages") }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let plain = { (s: String) in s.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "") }
            guard cells.count >= 3, cells[1].hasSuffix(".json`") || inLivePages else { continue }
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
