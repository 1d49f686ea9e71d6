import Foundation
import LayerKitTestSupport
import Testing
@testable import layerkit

/// `layerkit record --frames A..B`: slices drawn separately make the whole recording byte for
/// byte, and the progress line shows only on a terminal.
@Suite struct RecordSliceTests {
    private let temporary = TemporaryDirectories()

    /// Bytes of every file in `folder`, by name.
    private func files(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
        return result
    }

    /// An animation (the bouncing ball) and an emitter (the fire, whose particles depend on the
    /// time alone) recorded whole and as two slices into one folder, the second cut at the last
    /// frame: the slices' frames are the whole's, byte for byte, and they write no animated PNG.
    @Test func testTwoSlicesMakeTheWhole() throws {
        let directory = try temporary.directory()
        let scenes = [("animation/10.x-bouncing-ball.json", [String]()), ("seeds/6.13-fire-additive.json", ["--duration", "0.9"])]
        // GL draws the same pixels for the same frame on one machine; once is enough to show it.
        for (backend, scenes) in [("cpu", scenes), ("gl", Array(scenes.prefix(1)))] {
            for (path, extra) in scenes {
                let scene = examplesDirectory.appendingPathComponent(path).path
                let base = ["record", scene, "--backend", backend, "--fps", "10"] + extra
                let whole = directory.appendingPathComponent("\(backend)-whole-\(path.hashValue)").path
                let sliced = directory.appendingPathComponent("\(backend)-sliced-\(path.hashValue)").path
                let all = try runLayerKit(base + ["-o", whole])
                expectEqual(all.status, 0, "\(all.stderr)")
                let frames = try files(whole).keys.filter { $0.hasPrefix("frame-") }.count
                expect(frames >= 9, "\(path)")
                for slice in ["0..3", "4..999"] {
                    let run = try runLayerKit(base + ["-o", sliced, "--frames", slice])
                    expectEqual(run.status, 0, "\(run.stderr)")
                    expectEqual(run.stderr, "", "no progress line when standard error is not a terminal")
                }
                var expected = try files(whole)
                expected["animation.png"] = nil
                try expectEqual(files(sliced), expected, "\(backend) \(path)")
            }
        }
    }

    /// A slice checks only its own frames: a second slice of the same frames is refused (exit 2)
    /// and leaves the first's files; `--overwrite` replaces them. A slice starting past the last
    /// frame, a malformed range and `--video` with a slice are refused before anything is drawn.
    @Test func testSlicesRefuseWhatTheyCannotDo() throws {
        let directory = try temporary.directory()
        let scene = directory.appendingPathComponent("fade.json").path
        try Data(RecordCommandTests.fade.utf8).write(to: URL(fileURLWithPath: scene))
        let out = directory.appendingPathComponent("out").path
        try expectEqual(runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--frames", "1..2"]).status, 0)
        let again = try runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--frames", "2..4"])
        expectEqual(again.status, 2)
        expectEqual(again.stderr, "layerkit: cannot write -o \(out): 1 frame of this slice is there already, such as frame-0002.png; "
                                + "give --overwrite to replace them\n")
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["frame-0001.png", "frame-0002.png"])
        try expectEqual(runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--frames", "2..4", "--overwrite"]).status, 0)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png"])
        let cases: [([String], String)] = [
            (["--frames", "5..9"], "layerkit: \(scene): --frames 5..9: 0.5 s at 10 fps is 5 frames, numbered 0...4\n"),
            (["--frames", "3..1"], "layerkit: --frames: expected A..B, frame numbers from 0 with A ≤ B (both included), found \"3..1\"\n"),
            (["--frames", "+1..2"], "layerkit: --frames: expected A..B, frame numbers from 0 with A ≤ B (both included), found \"+1..2\"\n"),
            (["--frames", "0..1", "--video"],
             "layerkit: --video needs the whole recording, not a slice (--frames); encode the slices' frames with ffmpeg (docs/command-line.md)\n"),
        ]
        for (arguments, message) in cases {
            let run = try runLayerKit(["record", scene, "-o", directory.appendingPathComponent("none").path, "--backend", "cpu"] + arguments)
            expectEqual(run.status, 2, "\(arguments.joined(separator: " "))")
            expectEqual(run.stderr, message)
            expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none").path))
        }
    }

    /// On a terminal (`script` gives the command one), `record` rewrites one progress line in
    /// place and erases it at the end; `--quiet` shows none.
    @Test func testProgressLineOnATerminalOnly() throws {
        let directory = try temporary.directory()
        let scene = directory.appendingPathComponent("fade.json").path
        try Data(RecordCommandTests.fade.utf8).write(to: URL(fileURLWithPath: scene))
        func onTerminal(_ extra: [String]) throws -> String {
            let out = directory.appendingPathComponent("out-\(extra.count)").path
            let command = ([layerkitExecutable.path, "record", scene, "-o", out, "--backend", "cpu"] + extra).joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            expectEqual(process.terminationStatus, 0)
            return String(decoding: data, as: UTF8.self)
        }
        let shown = try onTerminal([])
        expect(shown.hasPrefix("\r\u{1B}[2Krecording 1/5 frames"), "\(shown.debugDescription)")
        expect(shown.contains("recording 5/5 frames"), "\(shown.debugDescription)")
        expect(shown.hasSuffix("\r\u{1B}[2K"), "erased at the end: \(shown.debugDescription)")
        try expectEqual(onTerminal(["--quiet"]), "")
    }

    /// The line's words and numbers: 120 of 600 frames in 3 s is 40 frames/s and 480 / 40 = 12 s
    /// left; 1 of 3 in 0.5 s is 2.0 frames/s, 1 s left; without a total, no time left.
    @Test func testProgressLineText() {
        expectEqual(ProgressLine.text(label: "recording", done: 120, total: 600, unit: "frames", elapsed: 3, detail: ""), "recording 120/600 frames, 40 frames/s, 12 s left")
        expectEqual(ProgressLine.text(label: "soaking", done: 1, total: 3, unit: "frames", elapsed: 0.5, detail: "rss 80 MiB"), "soaking 1/3 frames, 2.0 frames/s, 1 s left, rss 80 MiB")
        expectEqual(ProgressLine.text(label: "ramping", done: 0, total: nil, unit: "steps", elapsed: 0, detail: "measuring 10 layers"), "ramping 0 steps, measuring 10 layers")
        expectEqual(ProgressLine.duration(185), "3 min 05 s")
        expectEqual(ProgressLine.duration(7620), "2 h 07 min")
    }
}
