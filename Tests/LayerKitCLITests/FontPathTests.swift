import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// `drawText` with a font path that is a device, a directory or not a font draws in the
/// default family and says so once (issue 23: it fell back without a word, and a device was
/// handed to FreeType to read).
@Suite struct FontPathTests {
    private let temporary = TemporaryDirectories()

    @Test func testBadFontPathsFallBackWithOneWarning() throws {
        let dir = try temporary.directory()
        let notAFont = dir.appendingPathComponent("notes.ttf")
        try Data("not a font".utf8).write(to: notAFont)
        func render(_ font: String, _ name: String) throws -> (CLIRun, Data) {
            let text = #"{"op": "drawText", "text": "Hi", "at": [10, 60], "font": "\#(font)", "size": 40}"#
            let scene = dir.appendingPathComponent("\(name).json")
            try Data(sceneText(root: #"{"sublayers": [{"frame": [0, 0, 100, 100], "drawing": [{"op": "setTextMatrix", "transform": [1, 0, 0, -1, 0, 0]}, \#(text), \#(text)]}]}"#).utf8).write(to: scene)
            let png = dir.appendingPathComponent("\(name).png")
            let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", "cpu"])
            return (run, (try? Data(contentsOf: png)) ?? Data())
        }
        let (reference, expected) = try render("DejaVu Sans", "reference")
        expectEqual(reference.stderr, "")
        for (path, why) in [("/dev/zero", "a device, not a font file"), (dir.path, "a directory, not a font file"),
                            (notAFont.path, "not a font LayerKit can read"), (dir.path + "/missing.ttf", "No such file or directory")] {
            let (run, png) = try render(path, "bad")
            expectEqual(run.status, 0, "\(run.stderr)")
            // Two drawText calls with the path, one warning.
            expectEqual(run.stderrLines, [#"LayerKit: warning: font "\#(path)": \#(why); drawing in DejaVu Sans"#])
            expectEqual(png, expected, "\(path): drawn in the default family")
        }
    }
}
