import Foundation
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import Testing

/// Every class of malformed scene file docs/command-line.md lists, through the command line as a user
/// meets it: `layerkit validate` and `layerkit render` each exit with 2 and print exactly one
/// line on standard error naming the file, the JSON path and the rule broken, quickly, and
/// never crash or write an image.
@Suite struct BadSceneFileTests {
    private let temporary = TemporaryDirectories()

    /// The slowest a refusal may be: the promised second for a release build of `layerkit`
    /// (run `LAYERKIT_EXECUTABLE=.build/release/layerkit swift test --filter BadSceneFileTests`),
    /// where the largest file here (a million layers, 3 MB of JSON) takes about 0.3 s. A debug
    /// build parses some twenty times slower (about 5 s for that file; 10 s under the address
    /// sanitizer), so there the limits only catch a hang or a quadratic blow-up: 3 s, and 30 s
    /// for the `large` files.
    static func timeLimit(large: Bool) -> Double { layerkitIsReleaseBuild ? 1 : large ? 30 : 3 }

    /// One bad file: its text (or bytes), and what the one line must contain besides the file.
    struct Case {
        let name: String
        let bytes: [UInt8]
        /// The JSON path the message names ("" for a problem with the file as a whole).
        let path: String
        /// A part of the rule broken, as the message words it.
        let rule: String
        /// Megabytes of JSON, which a debug build takes seconds to parse.
        let large: Bool

        init(_ name: String, _ text: String, path: String, rule: String, large: Bool = false) {
            self.init(name, bytes: Array(text.utf8), path: path, rule: rule, large: large)
        }

        init(_ name: String, bytes: [UInt8], path: String, rule: String, large: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.path = path
            self.rule = rule
            self.large = large
        }
    }

    private func layer(_ json: String) -> String { sceneText(root: json) }
    private func canvas(_ json: String) -> String {
        #"{"format": "layerkit-scene", "version": 1, "canvas": \#(json), "root": {}}"#
    }
    private func images(_ json: String) -> String { sceneText(root: "{}", extra: #""images": \#(json)"#) }

    /// The table: every malformed-input class of the issue and docs/command-line.md's "Scene files".
    private func cases(imageDirectory dir: URL) -> [Case] {
        let chain = { (depth: Int) in
            String(repeating: #"{"sublayers": ["#, count: depth - 1) + "{}" + String(repeating: "]}", count: depth - 1)
        }
        let tooManyLayers = #"{"sublayers": ["# + String(repeating: "{},", count: Scene.maximumLayerCount).dropLast() + "]}"
        let deepPath = "root" + String(repeating: ".sublayers[0]", count: Scene.maximumDepth)
        return [
            // Not JSON, or not a scene.
            Case("empty file", "", path: "", rule: "not valid JSON: line 1, column 1: expected a value, found end of file"),
            Case("not JSON", "canvas: 100x100", path: "", rule: "not valid JSON"),
            Case("trailing comma", #"{"format": "layerkit-scene",}"#, path: "", rule: "expected a key in double quotes"),
            Case("duplicate key", #"{"format": "layerkit-scene", "format": "x"}"#, path: "", rule: #"duplicate key "format""#),
            Case("invalid UTF-8", bytes: Array(#"{"format": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
                 path: "", rule: "invalid UTF-8"),
            Case("JSON nested too deep", String(repeating: "[", count: 5000), path: "", rule: "nested more than 2008 levels deep"),
            Case("not an object", "[1]", path: "", rule: "expected a scene (an object), found an array"),
            // Format and version.
            Case("wrong format", #"{"format": "svg", "version": 1}"#, path: "format", rule: #"expected "layerkit-scene", found "svg""#),
            Case("newer version", #"{"format": "layerkit-scene", "version": 2}"#, path: "version", rule: "newer than this reader"),
            Case("fractional version", #"{"format": "layerkit-scene", "version": 1.5}"#, path: "version", rule: "whole number"),
            Case("version as a string", #"{"format": "layerkit-scene", "version": "1"}"#, path: "version", rule: "expected a number, found a string"),
            // Missing required values.
            Case("no format", #"{"version": 1}"#, path: "format", rule: "required field is missing"),
            Case("no canvas", #"{"format": "layerkit-scene", "version": 1, "root": {}}"#, path: "canvas", rule: "required field is missing"),
            Case("no canvas width", canvas(#"{"height": 10}"#), path: "canvas.width", rule: "required field is missing"),
            Case("no probe point", sceneText(root: "{}", extra: #""probes": [{"hit": null}]"#), path: "probes[0].point",
                 rule: "required field is missing"),
            // Wrong JSON types.
            Case("opacity as a string", layer(#"{"opacity": "1"}"#), path: "root.opacity", rule: "expected a number, found a string"),
            Case("hidden as a number", layer(#"{"hidden": 1}"#), path: "root.hidden", rule: "expected true or false"),
            Case("short bounds", layer(#"{"bounds": [0, 0, 10]}"#), path: "root.bounds", rule: "4 numbers"),
            Case("sublayer not an object", layer(#"{"sublayers": [{}, 5]}"#), path: "root.sublayers[1]", rule: "expected a layer"),
            // Unknown fields and values.
            Case("unknown field", layer(#"{"sublayers": [{"colour": "red"}]}"#), path: "root.sublayers[0].colour", rule: "unknown field"),
            Case("unknown top-level field", #"{"format": "layerkit-scene", "version": 1, "extra": 1}"#, path: "extra",
                 rule: "unknown field for a scene"),
            Case("unknown gravity", layer(#"{"contentsGravity": "middle"}"#), path: "root.contentsGravity", rule: #"unknown value "middle""#),
            Case("unknown layer type", layer(#"{"type": "imageLayer"}"#), path: "root.type", rule: #"unknown value "imageLayer""#),
            Case("unknown transform operation", layer(#"{"transform": [{"skew": [1, 2]}]}"#), path: "root.transform[0].skew",
                 rule: "unknown field for a transform operation"),
            Case("bad colour", layer(##"{"backgroundColor": "#FFF"}"##), path: "root.backgroundColor", rule: "expected a colour"),
            Case("bad SVG path", layer(#"{"type": "shapeLayer", "path": "M 0 0 L x"}"#), path: "root.path", rule: "SVG path data"),
            // Drawing operations (the scene's CGContext calls).
            Case("unknown drawing operation", layer(#"{"drawing": [{"op": "fillRect"}]}"#), path: "root.drawing[0].op",
                 rule: #"unknown drawing operation "fillRect""#),
            Case("short drawing rect", layer(#"{"drawing": [{"op": "fill", "rect": [0, 0, 5]}]}"#), path: "root.drawing[0].rect",
                 rule: "expected [x, y, w, h] (4 numbers), found 3 elements"),
            Case("infinite drawing point", layer(#"{"drawing": [{"op": "move", "to": [1e999, 0]}]}"#), path: "root.drawing[0].to[0]",
                 rule: "not finite"),
            Case("drawing text that is not a string", layer(#"{"drawing": [{"op": "drawText", "text": 7, "at": [0, 0], "size": 9}]}"#),
                 path: "root.drawing[0].text", rule: "expected a string, found a number"),
            Case("drawing text of size 0", layer(#"{"drawing": [{"op": "drawText", "text": "7", "at": [0, 0], "size": 0}]}"#),
                 path: "root.drawing[0].size", rule: "must be > 0, not 0"),
            // Numbers that are not finite, or out of range.
            Case("infinite z", layer(#"{"zPosition": 1e999}"#), path: "root.zPosition", rule: "not finite"),
            Case("infinite translation", layer(#"{"sublayers": [{"transform": [{"translate": [0, -1e400, 0]}]}]}"#),
                 path: "root.sublayers[0].transform[0].translate[1]", rule: "not finite"),
            Case("opacity beyond Float", layer(#"{"opacity": 1e39}"#), path: "root.opacity", rule: "single-precision"),
            Case("opacity over 1", layer(#"{"opacity": 1.5}"#), path: "root.opacity", rule: "must be between 0 and 1"),
            Case("zero perspective", layer(#"{"transform": [{"perspective": 0}]}"#), path: "root.transform[0].perspective",
                 rule: "must be > 0"),
            // Negative, zero and absurd sizes.
            Case("negative bounds", layer(#"{"bounds": [0, 0, -1, 5]}"#), path: "root.bounds", rule: "width and height must be >= 0"),
            Case("negative frame", layer(#"{"frame": [0, 0, 5, -1]}"#), path: "root.frame", rule: "width and height must be >= 0"),
            Case("negative corner radius", layer(#"{"cornerRadius": -2}"#), path: "root.cornerRadius", rule: "must be >= 0"),
            Case("zero contents scale", layer(#"{"contentsScale": 0}"#), path: "root.contentsScale", rule: "must be > 0"),
            Case("zero canvas", canvas(#"{"width": 0, "height": 10}"#), path: "canvas.width", rule: "must be > 0"),
            Case("negative canvas", canvas(#"{"width": 10, "height": -10}"#), path: "canvas.height", rule: "must be > 0"),
            Case("canvas rounding to 0 px", canvas(#"{"width": 0.4, "height": 10}"#), path: "canvas.width", rule: "rounds to 0 px"),
            Case("canvas over 16384 px", canvas(#"{"width": 16385, "height": 10}"#), path: "canvas.width", rule: "at most 16384 px a side"),
            Case("canvas over 16384 px by scale", canvas(#"{"width": 10000, "height": 10, "scale": 2}"#), path: "canvas.width",
                 rule: "20000 px; at most 16384 px a side"),
            Case("infinite canvas", canvas(#"{"width": 1e999, "height": 10}"#), path: "canvas.width", rule: "not finite"),
            Case("over a million layers", layer(tooManyLayers), path: "root.sublayers[\(Scene.maximumLayerCount - 1)]",
                 rule: "more than 1000000 layers", large: true),
            Case("deeper than 1000", layer(chain(Scene.maximumDepth + 1)), path: deepPath, rule: "layers nest more than 1000 deep"),
            // Tiled layers (issue 21): no tile, a million levels, a finest level past the drawing bound.
            Case("tile size 0", layer(#"{"type": "tiledLayer", "tileSize": [0, 256]}"#), path: "root.tileSize[0]",
                 rule: "must be a whole number from 1 to 4096, not 0"),
            Case("10^6 levels of detail", layer(#"{"type": "tiledLayer", "levelsOfDetail": 1000000}"#), path: "root.levelsOfDetail",
                 rule: "must be a whole number from 1 to 64, not 1000000"),
            Case("a tiled drawing's finest level over 16384 px", layer(#"{"type": "tiledLayer", "frame": [0, 0, 2048, 2048], "levelsOfDetailBias": 4, "drawing": []}"#),
                 path: "root.drawing", rule: "32768 x 32768 pixels (bounds x contentsScale x 2^levelsOfDetailBias)"),
            // Images: missing, not PNG, corrupt, too large, not a file, not listed.
            Case("missing image", images(#"{"cat": "missing.png"}"#), path: "images.cat", rule: "missing.png: no such file"),
            Case("image is not a PNG", images(#"{"cat": "text.png"}"#), path: "images.cat", rule: "not a valid PNG: no PNG signature"),
            Case("corrupt PNG", images(#"{"cat": "corrupt.png"}"#), path: "images.cat", rule: "not a valid PNG"),
            Case("truncated PNG", images(#"{"cat": "truncated.png"}"#), path: "images.cat", rule: "not a valid PNG"),
            Case("image is not a JPEG", images(#"{"cat": "text.jpg"}"#), path: "images.cat", rule: "not a valid JPEG: no JPEG signature"),
            Case("truncated JPEG", images(#"{"cat": "truncated.jpeg"}"#), path: "images.cat", rule: "not a valid JPEG: "),
            Case("image over 16384 px", images(#"{"wide": "wide.png"}"#), path: "images.wide",
                 rule: "image is 16385x1 px; at most 16384 px a side"),
            Case("image is a directory", images(#"{"dir": "."}"#), path: "images.dir", rule: "not a regular file"),
            Case("image is a device", images(#"{"zero": "/dev/zero"}"#), path: "images.zero", rule: "not a regular file"),
            Case("contents not in images", layer(#"{"contents": "cat"}"#), path: "root.contents", rule: #"no image named "cat""#),
        ]
    }

    /// The image files the cases name, in `dir`.
    private func writeImages(to dir: URL) throws {
        let good = try Bitmap(width: 4, height: 4).pngData()
        try Data("hello".utf8).write(to: dir.appendingPathComponent("text.png"))
        try Data("hello".utf8).write(to: dir.appendingPathComponent("text.jpg"))
        // SOI and the start of a JFIF segment, then nothing.
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]).write(to: dir.appendingPathComponent("truncated.jpeg"))
        var corrupt = good
        for i in 40..<min(corrupt.count, 60) { corrupt[i] ^= 0x5A }
        try Data(corrupt).write(to: dir.appendingPathComponent("corrupt.png"))
        try Data(good.prefix(good.count / 2)).write(to: dir.appendingPathComponent("truncated.png"))
        try Bitmap(width: Bitmap.maximumPNGSide + 1, height: 1).writePNG(to: dir.appendingPathComponent("wide.png").path)
    }

    /// Checks one run against one case: exit 2, one line on stderr naming file, path and rule.
    private func check(_ run: CLIRun, _ c: Case, file: String, command: String) {
        let what = "\(command) \(c.name)"
        expectEqual(run.status, 2, "\(what): exit status; stderr: \(run.stderr)")
        expectEqual(run.stderrLines.count, 1, "\(what): expected one line on stderr, got: \(run.stderr)")
        let line = run.stderrLines.first ?? ""
        let prefix = c.path.isEmpty ? "\(file): " : "\(file): \(c.path): "
        expect(line.hasPrefix("layerkit: " + prefix), "\(what): expected layerkit: \(prefix)…\ngot \(line)")
        expect(line.contains(c.rule), "\(what): expected \(c.rule)\ngot \(line)")
        expect(run.seconds < Self.timeLimit(large: c.large), "\(what): took \(run.seconds) s")
    }

    @Test func testEveryBadSceneFileGetsOneLineAndExitCode2() throws {
        let dir = try temporary.directory()
        try writeImages(to: dir)
        let bad = cases(imageDirectory: dir)
        let files = bad.indices.map { dir.appendingPathComponent("bad\($0).json").path }
        let outputs = bad.indices.map { dir.appendingPathComponent("out\($0).png").path }
        for (c, file) in zip(bad, files) { try Data(c.bytes).write(to: URL(fileURLWithPath: file)) }
        let runs = try concurrentRuns(bad.count) { i in
            (validate: try runLayerKit(["validate", files[i]]), render: try runLayerKit(["render", files[i], "-o", outputs[i]]))
        }
        var slowest = (seconds: 0.0, name: "")
        for (i, c) in bad.enumerated() {
            let (validate, render) = runs[i]
            check(validate, c, file: files[i], command: "validate")
            expectEqual(validate.stdout, "", "validate \(c.name): nothing on stdout for a bad file")
            check(render, c, file: files[i], command: "render")
            expect(!FileManager.default.fileExists(atPath: outputs[i]), "render \(c.name) wrote an image")
            if max(validate.seconds, render.seconds) > slowest.seconds { slowest = (max(validate.seconds, render.seconds), c.name) }
        }
        print("slowest refusal (\(layerkitIsReleaseBuild ? "release" : "debug") build): \(slowest.name), "
              + String(format: "%.3f s", slowest.seconds))
    }

    @Test func testMissingSceneFile() throws {
        let file = try temporary.directory().appendingPathComponent("missing.json").path
        for arguments in [["validate", file], ["render", file, "-o", "/dev/null"]] {
            let run = try runLayerKit(arguments)
            expectEqual(run.status, 2, "\(arguments[0])")
            expectEqual(run.stderrLines, ["layerkit: \(file): no such file"])
        }
    }

    /// Bad values of render's own options are refused in one line too, before any pixel exists.
    @Test func testBadRenderScales() throws {
        let scene = examplesDirectory.appendingPathComponent("seeds/5.1-rotate45.json").path
        for (scale, rule) in [("0", "--scale must be a positive number"), ("nan", "--scale must be a positive number"),
                              ("-2", "--scale must be a positive number"), ("1e300", "over the limit of 16384 px a side"),
                              ("100", "over the limit of 16384 px a side")] {
            for command in ["render", "displaylist"] {
                // `--scale=S`: a separate "-2" would read as an option.
                let arguments = command == "render" ? [command, scene, "-o", "/dev/null", "--scale=\(scale)"] : [command, scene, "--scale=\(scale)"]
                let run = try runLayerKit(arguments)
                expectEqual(run.status, 2, "\(command) --scale \(scale): \(run.stderr)")
                expectEqual(run.stderrLines.count, 1, "\(command) --scale \(scale): \(run.stderr)")
                expect(run.stderr.contains(rule), "\(command) --scale \(scale): \(run.stderr)")
            }
        }
    }
}
