import ArgumentParser
import Foundation
import LayerKitCore
import LayerKitScene

/// `layerkit validate SCENE…`: reads each scene strictly (images decoded, every field checked)
/// and reports one line per file, plus its warnings.
struct ValidateCommand: ParsableCommand {
    /// The verb, its summary and its exit codes, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files against the scene format.",
        discussion: """
            Prints "FILE: ok, N layers, depth D, K images" for each valid file, then its warnings \
            ("warning: FILE: PATH: ..."); for an invalid one, one line "layerkit: FILE: PATH: problem" \
            on standard error. Exits with 2 when any file is invalid.
            """
    )

    /// The scene files to check.
    @Argument(help: "Scene files (.json).")
    var scenes: [String]

    func run() throws {
        var allValid = true
        for path in scenes {
            do {
                let scene = try Scene(contentsOfFile: path)
                print("\(path): ok, \(counted(scene.layerCount, "layer")), depth \(scene.depth), \(counted(scene.images.count, "image"))")
                for warning in scene.warnings { print("warning: \(warning)") }
            } catch {
                reportBadInput(error)
                allValid = false
            }
        }
        if !allValid { throw ExitCode(2) }
    }
}
