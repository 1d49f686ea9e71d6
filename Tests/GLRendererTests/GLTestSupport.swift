import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A headless context and a renderer on it, for one test.
final class GLHarness {
    let context: EGLHeadlessContext
    private(set) var renderer: GLRenderer!

    init() throws {
        context = try EGLHeadlessContext()
        renderer = try GLRenderer()
    }

    deinit {
        // The renderer frees its GL objects in deinit, so it must go while the context is current.
        renderer = nil
    }
}

/// Where failing comparisons leave their PNGs (reference, GL, heat map).
let diffArtifacts = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("glrenderer-diffs")

/// Renders `list` with both backends and compares, counting pixels over `budget`'s threshold;
/// writes PNGs when over budget (or always when `save`). `reference`, when given, is the CPU
/// render already made (a golden image), not drawn again.
func compareBackends(_ list: DisplayList, gl: GLRenderer, name: String, budget: GLBudget = .standard, save: Bool = false,
                     reference: Bitmap? = nil) throws -> (BitmapDifference, cpu: Bitmap, gl: Bitmap) {
    let cpu = try reference ?? CPURenderer().render(list)
    let out = try gl.render(list)
    let d = BitmapDifference(cpu, out, threshold: budget.threshold)
    if save || d.fraction > budget.fraction {
        try FileManager.default.createDirectory(at: diffArtifacts, withIntermediateDirectories: true)
        let base = diffArtifacts.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_"))
        try cpu.writePNG(to: base.path + "-cpu.png")
        try out.writePNG(to: base.path + "-gl.png")
        try d.heatmap().writePNG(to: base.path + "-diff.png")
    }
    return (d, cpu, out)
}

/// One row of the equivalence table.
func tableRow(_ name: String, _ scale: Double, _ d: BitmapDifference, budget: GLBudget = .standard) -> String {
    let n = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    return String(format: "%@ %4.1f %8.4f %5d %9.6f%@", n, scale, d.mean, d.max, d.fraction,
                  d.fraction > budget.fraction ? "  OVER" : "")
}

let tableHeader = "scene".padding(toLength: 36, withPad: " ", startingAt: 0) + "scale     mean   max  fraction"

/// A 40 x 10 root with three 6 x 6 image leaves at y 2, `spacing` apart from x 0, showing images
/// A, B, A (red, blue, red): three draws, since a unit cannot hold two images.
func rootWithImagesABA(spacing: Double) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
    let a = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255]))
    let b = CGImage(bitmap: Bitmap(width: 1, height: 1, pixels: [0, 0, 255, 255]))
    for (i, image) in [a, b, a].enumerated() {
        let leaf = CALayer()
        leaf.frame = CGRect(x: Double(i) * spacing, y: 2, width: 6, height: 6)
        leaf.contents = image
        root.addSublayer(leaf)
    }
    return root
}
