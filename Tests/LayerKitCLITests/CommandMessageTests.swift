import Foundation
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// What every command says to a person: errors start with `layerkit: ` and exit 2, counts are
/// in the right number, a path that is not a regular file is refused in the same words for
/// scenes and images, and negative numbers reach the option's own check.
final class CommandMessageTests: XCTestCase {
    let scene = examplesDirectory.appendingPathComponent("seeds/5.1-rotate45.json").path

    /// Asserts exit 2, nothing on stdout and exactly `line` on stderr.
    private func assertBadInput(_ arguments: [String], _ line: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        let run = try runLayerKit(arguments)
        XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)", file: file, line: lineNumber)
        XCTAssertEqual(run.stdout, "", "\(arguments)", file: file, line: lineNumber)
        XCTAssertEqual(run.stderrLines.map(String.init), [line], "\(arguments)", file: file, line: lineNumber)
    }

    func testHitRefusesACoordinateThatIsNotFinite() throws {
        try assertBadInput(["hit", scene, "1e9", "nan"], "layerkit: Y must be a finite number, not nan")
        try assertBadInput(["hit", scene, "inf", "10"], "layerkit: X must be a finite number, not inf")
        try assertBadInput(["hit", scene, "1e999", "10"], "layerkit: X must be a finite number, not inf")
        // Finite extremes are a point like any other: 1e9 is far off the 400-point canvas.
        let far = try runLayerKit(["hit", scene, "1e9", "10"])
        XCTAssertEqual(far.status, 0, far.stderr)
        XCTAssertEqual(far.stdout, "none\n")
    }

    func testSceneErrorsStartWithTheToolsNameInEveryCommand() throws {
        let missing = try temporaryDirectory(for: self).appendingPathComponent("missing.json").path
        for arguments in [["hit", missing, "1", "2"], ["validate", missing], ["probes", missing],
                          ["displaylist", missing], ["render", missing, "-o", "/dev/null"]] {
            try assertBadInput(arguments, "layerkit: \(missing): no such file")
        }
    }

    /// A directory or a device as the scene file reads as one as an image does: "not a regular
    /// file" (a device such as /dev/zero would otherwise be read for ever).
    func testAPathThatIsNotARegularFileIsRefusedAlikeForScenesAndImages() throws {
        let dir = try temporaryDirectory(for: self)
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

    func testCountsOfOneAreSingular() throws {
        let validate = try runLayerKit(["validate", scene])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "\(scene): ok, 2 layers, depth 2, 1 image\n")
        let dump = try runLayerKit(["displaylist", scene])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout.split(separator: "\n").first,
                       "display list: 400x400 px, background rgba(1.000, 1.000, 1.000, 1.000), 1 pass, 1 quad")
        XCTAssertEqual(counted(1, "layer"), "1 layer")
        XCTAssertEqual(counted(0, "layer"), "0 layers")
        XCTAssertEqual(counted(2, "pass", plural: "passes"), "2 passes")
    }

    /// `--scale -1` (no `=`) reaches --scale's own check rather than reading as a missing value.
    func testNegativeOptionValuesNeedNoEqualsSign() throws {
        try assertBadInput(["render", scene, "-o", "/dev/null", "--scale", "-1"], "layerkit: --scale must be a positive number, not -1.0")
        try assertBadInput(["displaylist", scene, "--scale", "-1"], "layerkit: --scale must be a positive number, not -1.0")
        try assertBadInput(["diff", "a.png", "b.png", "--threshold", "-1"], "layerkit: --threshold must be 0...255, got -1")
    }

    /// argument-parser's own usage errors read like every other error: `layerkit: …`, exit 2.
    func testUsageErrorsStartWithTheToolsName() throws {
        let run = try runLayerKit(["bench", scene, "--frames", "0"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stderrLines.first, "layerkit: --frames must be 1...1000000")
    }
}
