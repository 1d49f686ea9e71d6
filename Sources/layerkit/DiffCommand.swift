import ArgumentParser
import Foundation
import LayerKitCore

/// `layerkit diff A.png B.png`: how two images differ, and whether within a budget.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG images: prints mean=… max=… fraction=… psnr=…; exits 1 when fraction > --max-fraction.")

    @Argument(help: "The first PNG.")
    var a: String

    @Argument(help: "The second PNG.")
    var b: String

    @Option(parsing: .unconditional, help: "A pixel counts as different when a channel differs by more than this (0-255).")
    var threshold: Int = 2

    @Option(name: .customLong("max-fraction"), parsing: .unconditional, help: "The largest fraction of differing pixels that passes.")
    var maxFraction: Double = 0.001

    @Option(help: "Write a heat map of the differences to this PNG.")
    var heatmap: String?

    func run() throws {
        guard (0...255).contains(threshold) else { throw CLIError.badInput("--threshold must be 0...255, got \(threshold)") }
        guard maxFraction >= 0, maxFraction.isFinite else { throw CLIError.badInput("--max-fraction must be ≥ 0") }
        if let heatmap { try checkOutputPath(heatmap, option: "--heatmap") }
        let first: Bitmap, second: Bitmap
        do {
            first = try Bitmap(contentsOfPNGFile: a)
            second = try Bitmap(contentsOfPNGFile: b)
        } catch { throw CLIError.badInput("\(error)") }
        guard first.width == second.width, first.height == second.height else {
            throw CLIError.badInput("sizes differ: \(a) is \(first.width)x\(first.height), \(b) is \(second.width)x\(second.height)")
        }
        let d = BitmapDifference(first, second, threshold: threshold)
        print(d)
        if let heatmap {
            let png: [UInt8]
            do { png = try d.heatmap().pngData() } catch { throw CLIError.badInput("\(error)") }
            try writeOutput(png, to: heatmap, option: "--heatmap")
        }
        if d.fraction > maxFraction { throw ExitCode(1) }
    }
}
