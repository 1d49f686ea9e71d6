import ArgumentParser
import Foundation
import LayerKitCore
import LayerKitScene

/// `layerkit probes SCENE…`: runs each scene's hit-test probes.
struct ProbesCommand: ParsableCommand {
    /// The verb, its summary and its exit codes, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "probes",
        abstract: "Check the hit-test probes and presentation-value samples of scene files.",
        discussion: """
            Prints "FILE: probe (x, y): expected E, got G: ok" (or FAIL) for each probe \
            ("probe (x, y) at T s: …" for one with a time, hit-testing the presentation tree), then \
            "FILE: sample LAYER.KEYPATH at T s: expected E, got A: ok" (or FAIL) for each sample. \
            Exits with 1 when a probe or sample fails, 2 when a file cannot be read.
            """
    )

    /// The scene files.
    @Argument(help: "Scene files (.json).")
    var scenes: [String]

    func run() throws {
        var unreadable = false, failed = false
        for path in scenes {
            let scene: Scene
            do {
                scene = try Scene(contentsOfFile: path)
            } catch {
                reportBadInput(error)
                unreadable = true
                continue
            }
            if scene.probes.isEmpty && scene.samples.isEmpty { print("\(path): no probes") }
            for probe in scene.probes {
                let result = scene.check(probe)
                print("\(path): \(result)")
                failed = failed || !result.passed
            }
            for sample in scene.samples {
                let result = scene.check(sample)
                print("\(path): \(result)")
                failed = failed || !result.passed
            }
        }
        if unreadable { throw ExitCode(2) }
        if failed { throw ExitCode(1) }
    }
}
