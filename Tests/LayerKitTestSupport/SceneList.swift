import Foundation

/// How closely the GL backend must match the CPU reference: at most `fraction` of the pixels
/// may differ by more than `threshold` (out of 255) in any channel.
public struct GLBudget: Equatable, CustomStringConvertible {
    /// The largest difference in a channel that still counts as equal.
    public var threshold: Int
    /// The largest fraction of pixels allowed over `threshold`.
    public var fraction: Double

    /// At most `fraction` of the pixels over `threshold`.
    public init(threshold: Int, fraction: Double) {
        self.threshold = threshold
        self.fraction = fraction
    }

    /// The budget of the scenes in `scenes.list` (but the nested passes, held closer), of the
    /// hand-built trees and of the demo's screenshots: 0.1 % of the pixels may be off by more
    /// than 2/255.
    public static let standard = GLBudget(threshold: 2, fraction: 0.001)

    /// `fuzzy(T,F)`, as the list spells it.
    public var description: String { "fuzzy(\(threshold),\(fraction))" }
}

/// One line of `scenes.list`: a scene file and what each backend is held to.
public struct SceneListEntry {
    /// The scene, relative to `Examples/` (`seeds/4.x-shadow.json`).
    public let path: String
    /// Whether the CPU reference must equal golden images byte for byte.
    public let hasGolden: Bool
    /// The GL backend's budget against the CPU reference; `nil`: not compared.
    public let gl: GLBudget?

    /// The scene file's location.
    public var url: URL { examplesDirectory.appendingPathComponent(path) }
    /// The file name without `.json`: the stem of golden and dump names.
    public var name: String { url.deletingPathExtension().lastPathComponent }

    /// The golden image at `scale` (1 or 2): `NAME@1x.png` in `goldensDirectory`.
    public func golden(scale: Double) -> URL { goldensDirectory.appendingPathComponent("\(name)@\(Int(scale))x.png") }
}

/// `Tests/CPURendererTests/Goldens`: `scenes.list` and the golden images it names.
public let goldensDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("CPURendererTests/Goldens")

/// The one list of scenes the rendering tests draw (`Tests/CPURendererTests/Goldens/scenes.list`,
/// beside the golden images it names; its header states the format). A malformed line is a
/// thrown error naming it.
public func sceneList() throws -> [SceneListEntry] {
    let file = goldensDirectory.appendingPathComponent("scenes.list")
    let text = try String(contentsOf: file, encoding: .utf8)
    return try text.split(separator: "\n").enumerated().compactMap { number, line in
        if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        struct Malformed: Error, CustomStringConvertible { let description: String }
        let bad = Malformed(description: "scenes.list:\(number + 1): expected `SCENE exact|- fuzzy(T,F)|-`, got `\(line)`")
        guard fields.count == 3, ["exact", "-"].contains(fields[1]) else { throw bad }
        var gl: GLBudget? = nil
        if fields[2] != "-" {
            let inner = fields[2].dropFirst("fuzzy(".count).dropLast()
            let parts = inner.split(separator: ",")
            guard fields[2].hasPrefix("fuzzy("), fields[2].hasSuffix(")"), parts.count == 2,
                  let t = Int(parts[0]), let f = Double(parts[1]) else { throw bad }
            gl = GLBudget(threshold: t, fraction: f)
        }
        return SceneListEntry(path: fields[0], hasGolden: fields[1] == "exact", gl: gl)
    }
}
