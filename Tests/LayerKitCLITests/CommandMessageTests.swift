import Foundation
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import Testing

/// What every command says to a person: errors start with `layerkit: ` and exit 2, counts are
/// in the right number, a path that is not a regular file is refused in the same words for
/// scenes and images, and negative numbers reach the option's own check.
@Suite struct CommandMessageTests {
    private let temporary = TemporaryDirectories()
    let scene = examplesDirectory.appendingPathComponent("seeds/5.1-rotate45.json").path

    /// Asserts exit 2, nothing on stdout and exactly `line` on stderr.
    private func assertBadInput(_ arguments: [String], _ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try runLayerKit(arguments)
        expectEqual(run.status, 2, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        expectEqual(run.stdout, "", "\(arguments)", sourceLocation: sourceLocation)
        expectEqual(run.stderrLines, [line], "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test func testHitRefusesACoordinateThatIsNotFinite() throws {
        try assertBadInput(["hit", scene, "1e9", "nan"], "layerkit: Y must be a finite number, not nan")
        try assertBadInput(["hit", scene, "inf", "10"], "layerkit: X must be a finite number, not inf")
        try assertBadInput(["hit", scene, "1e999", "10"], "layerkit: X must be a finite number, not inf")
        // Finite extremes are a point like any other: 1e9 is far off the 400-point canvas.
        let far = try runLayerKit(["hit", scene, "1e9", "10"])
        expectEqual(far.status, 0, "\(far.stderr)")
        expectEqual(far.stdout, "none\n")
    }

    @Test func testSceneErrorsStartWithTheToolsNameInEveryCommand() throws {
        let missing = try temporary.directory().appendingPathComponent("missing.json").path
        for arguments in [["hit", missing, "1", "2"], ["validate", missing], ["probes", missing],
                          ["displaylist", missing], ["render", missing, "-o", "/dev/null"]] {
            try assertBadInput(arguments, "layerkit: \(missing): no such file")
        }
    }

    /// A directory or a device as the scene file reads as one as an image does: "not a regular
    /// file" (a device such as /dev/zero would otherwise be read for ever).
    @Test func testAPathThatIsNotARegularFileIsRefusedAlikeForScenesAndImages() throws {
        let dir = try temporary.directory()
        for path in [dir.path, "/dev/zero"] {
            for arguments in [["hit", path, "1", "2"], ["validate", path], ["probes", path],
                              ["displaylist", path], ["render", path, "-o", "/dev/null"]] {
                try assertBadInput(arguments, "layerkit: \(path): cannot read: not a regular file")
            }
        }
        let sceneFile = dir.appendingPathComponent("image-is-a-folder.json")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("cat.png"), withIntermediateDirectories: false)
        try Data(#"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 10, "height": 10}, "images": {"cat": "cat.png"}, "root": {}}"#.utf8)
            .write(to: sceneFile)
        let catPath = dir.appendingPathComponent("cat.png").path
        try assertBadInput(["validate", sceneFile.path], "layerkit: \(sceneFile.path): images.cat: \(catPath): cannot read: not a regular file")
    }

    @Test func testCountsOfOneAreSingular() throws {
        let validate = try runLayerKit(["validate", scene])
        expectEqual(validate.status, 0, "\(validate.stderr)")
        expectEqual(validate.stdout, "\(scene): ok, 2 layers, depth 2, 1 image\n")
        let dump = try runLayerKit(["displaylist", scene])
        expectEqual(dump.status, 0, "\(dump.stderr)")
        expectEqual(dump.stdout.split(separator: "\n").first, "display list: 400x400 px, background rgba(1.000, 1.000, 1.000, 1.000), 1 pass, 1 quad")
        expectEqual(counted(1, "layer"), "1 layer")
        expectEqual(counted(0, "layer"), "0 layers")
        expectEqual(counted(2, "pass", plural: "passes"), "2 passes")
    }

    /// `--scale -1` (no `=`) reaches --scale's own check rather than reading as a missing value.
    @Test func testNegativeOptionValuesNeedNoEqualsSign() throws {
        try assertBadInput(["render", scene, "-o", "/dev/null", "--scale", "-1"], "layerkit: --scale must be a positive number, not -1.0")
        try assertBadInput(["displaylist", scene, "--scale", "-1"], "layerkit: --scale must be a positive number, not -1.0")
        try assertBadInput(["diff", "a.png", "b.png", "--threshold", "-1"], "layerkit: --threshold must be 0...255, got -1")
    }

    /// argument-parser's own usage errors read like every other error: `layerkit: …`, exit 2.
    @Test func testUsageErrorsStartWithTheToolsName() throws {
        let run = try runLayerKit(["bench", scene, "--frames", "0"])
        expectEqual(run.status, 2, "\(run.stderr)")
        expectEqual(run.stderrLines.first, "layerkit: --frames must be 1...1000000")
    }
}
