import ArgumentParser
import Foundation

/// The `layerkit` command line tool: renders, compares and inspects LayerKit scene files.
/// Each verb is a subcommand in a file of its own.
///
/// Exit codes: 0 success, 1 a check ran and failed, 2 bad input or usage.
@main
struct LayerKitCommand: ParsableCommand {
    /// The tool's name, summary and subcommands, as `--help` shows them.
    static let configuration = CommandConfiguration(
        commandName: "layerkit",
        abstract: "Render, compare and inspect Core Animation scenes with LayerKit.",
        subcommands: [RenderCommand.self, ValidateCommand.self, HitCommand.self, ProbesCommand.self,
                      DiffCommand.self, DisplayListCommand.self, BenchCommand.self, SoakCommand.self,
                      RecordCommand.self]
    )

    /// Runs the command line, mapping argument-parser's usage errors (which it exits with 64,
    /// EX_USAGE) to 2, the code every other kind of bad input gets, and starting their first
    /// line with `layerkit: ` as every other error does (argument-parser writes "Error: ").
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            reportBadInput(error)
            Foundation.exit(2)
        } catch {
            if exitCode(for: error) == .validationFailure {
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message = "layerkit: " + message.dropFirst("Error: ".count) }
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
