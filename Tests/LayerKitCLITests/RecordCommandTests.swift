import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// `layerkit record`: the frame count and times, the frames' pixels, the animated PNG's chunks
/// read byte by byte, and bad input refused with exit 2 before anything is written.
@Suite struct RecordCommandTests {
    private let temporary = TemporaryDirectories()

    /// A red layer over a blue canvas, its opacity 0 → 1 over 0.5 s; timeline 0.5 s at 10 fps.
    static let fade = #"""
        {"format": "layerkit-scene", "version": 1, "timeline": {"duration": 0.5, "fps": 10},
         "canvas": {"width": 10, "height": 10, "background": "#0000FF"},
         "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
                  "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5}]}}
        """#

    private func writeScene(_ text: String = fade) throws -> (directory: URL, scene: String) {
        let directory = try temporary.directory()
        let scene = directory.appendingPathComponent("fade.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: scene))
        return (directory, scene)
    }

    /// 0.5 s at 10 fps is 5 frames at 0, 0.1, …, 0.4 s (the end is exclusive), so frame i shows
    /// opacity 0.2·i: red 51·i, blue 255 − 51·i.
    @Test func testRecordWritesOneFrameEachTickUpToTheEnd() throws {
        let (directory, scene) = try writeScene()
        for backend in ["cpu", "gl"] {
            let out = directory.appendingPathComponent(backend).path
            let run = try runLayerKit(["record", scene, "-o", out, "--backend", backend])
            expectEqual(run.status, 0, "\(run.stderr)")
            expectEqual(run.stderr, "", "no progress bar when standard error is not a terminal")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            expectEqual(names, ["animation.png", "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png"])
            for i in 0..<5 {
                let p = try Bitmap(contentsOfPNGFile: "\(out)/frame-000\(i).png")[5, 5]
                expect(abs(Double(p.r) - 51 * Double(i)) <= 1, "\(backend) frame \(i)")
                expect(abs(Double(p.b) - (255 - 51 * Double(i))) <= 1, "\(backend) frame \(i)")
            }
        }
        // --duration and --fps override the timeline: 0.3 s at 10 fps is 3 frames (0.3 × 10 is
        // 2.9999999999999996 in binary, which must not become a fourth frame).
        let short = directory.appendingPathComponent("short").path
        try expectEqual(runLayerKit(["record", scene, "-o", short, "--backend", "cpu", "--duration", "0.3", "--fps", "10"]).status, 0)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: short).filter { $0.hasPrefix("frame-") }.count, 3)
    }

    /// The animated PNG: signature, IHDR, acTL (5 frames, played forever), then per frame an
    /// fcTL (full canvas, delay 1/10 s) and its image data (IDAT for the first, fdAT after),
    /// sequence numbers 0, 1, 2, … across fcTL and fdAT, IEND; every CRC right; each frame's
    /// data the same bytes as its frame PNG's IDAT data.
    @Test func testAnimatedPNGChunks() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out").path
        try expectEqual(runLayerKit(["record", scene, "-o", out, "--backend", "cpu"]).status, 0)
        let chunks = try Self.chunks(of: "\(out)/animation.png")
        expectEqual(chunks.map(\.type), ["IHDR", "acTL", "fcTL", "IDAT"]
                                      + Array(repeating: ["fcTL", "fdAT"], count: 4).joined() + ["IEND"])
        expectEqual(chunks[1].data, [0, 0, 0, 5, 0, 0, 0, 0])
        var sequence: UInt32 = 0
        for (frame, fcTL) in chunks.filter({ $0.type == "fcTL" }).enumerated() {
            let d = fcTL.data
            expectEqual(Self.uint32(d, 0), sequence, "frame \(frame)")
            expectEqual([Self.uint32(d, 4), Self.uint32(d, 8), Self.uint32(d, 12), Self.uint32(d, 16)] as [UInt32], [10, 10, 0, 0])
            expectEqual(Array(d[20..<26]), [0, 1, 0, 10, 0, 0], "delay 1/10 s, dispose none, blend source")
            sequence += frame == 0 ? 1 : 2
        }
        let frameData = chunks.filter { $0.type == "IDAT" || $0.type == "fdAT" }
        for (i, c) in frameData.enumerated() {
            let own = try Self.chunks(of: "\(out)/frame-000\(i).png").filter { $0.type == "IDAT" }.flatMap(\.data)
            if i == 0 {
                expectEqual(c.data, own)
            } else {
                expectEqual(Self.uint32(c.data, 0), UInt32(2 * i), "fdAT \(i)'s sequence number")
                expectEqual(Array(c.data.dropFirst(4)), own, "frame \(i)")
            }
        }
        // A viewer without APNG shows the first frame.
        try expectEqual(Bitmap(contentsOfPNGFile: "\(out)/animation.png").rgba(5, 5), [0, 0, 255, 255])
    }

    @Test func testBadInputIsRefusedBeforeAnythingIsWritten() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out").path
        let noTimeline = directory.appendingPathComponent("still.json").path
        try Data(sceneText(root: #"{"frame": [0, 0, 10, 10]}"#).utf8).write(to: URL(fileURLWithPath: noTimeline))
        let cases: [([String], String)] = [
            (["--fps", "0"], "layerkit: --fps: expected 0.02...1000 frames per second, found 0.0"),
            (["--fps", "inf"], "layerkit: --fps: expected 0.02...1000 frames per second, found inf"),
            (["--duration", "-1"], "layerkit: --duration: expected a finite number of seconds ≥ 0, found -1.0"),
            (["--duration", "nan"], "layerkit: --duration: expected a finite number of seconds ≥ 0, found nan"),
            // The count is the real one, however large.
            (["--duration", "1e9"], "layerkit: \(scene): 1000000000 s at 10 fps is 10000000000 frames; at most 100000"),
            (["--duration", "1e308", "--fps", "1000"], "layerkit: \(scene): 1e+308 s at 1000 fps is more frames than a Double can count; at most 100000"),
            // ⌈0 · 10⌉ = 0 frames, as the help says: nothing to record.
            (["--duration", "0"], "layerkit: \(scene): 0 s at 10 fps is 0 frames: nothing to record (give a --duration over 0; `layerkit render` draws a still)"),
            (["--max-bytes", "lots"], "layerkit: The value 'lots' is invalid for '--max-bytes <max-bytes>'"),
            (["--scale", "0"], "layerkit: --scale must be a positive number, not 0.0"),
            (["--backend", "vulkan"], "layerkit: The value 'vulkan' is invalid for '--backend <backend>'. Please provide one of 'cpu', 'gl' or 'auto'."),
        ]
        for (flags, message) in cases {
            let run = try runLayerKit(["record", scene, "-o", out] + flags)
            expectEqual(run.status, 2, "\(flags)")
            expectEqual(run.stderrLines.first, message, "\(flags)")
        }
        let still = try runLayerKit(["record", noTimeline, "-o", out])
        expectEqual(still.status, 2)
        expectEqual(still.stderrLines, ["layerkit: \(noTimeline): no timeline in the scene; give --duration (and --fps)"])
        let file = try runLayerKit(["record", scene, "-o", scene])
        expectEqual(file.stderrLines, ["layerkit: cannot write -o \(scene): it is not a directory"])
        let missing = try runLayerKit(["record", scene, "-o", directory.appendingPathComponent("no/such").path])
        expectEqual(missing.status, 2)
        // No ffmpeg on an empty PATH: --video is refused before a frame is drawn.
        let video = try runLayerKit(["record", scene, "-o", out, "--video", "--backend", "cpu"], environment: ["PATH": directory.path])
        expectEqual(video.status, 2)
        expect(video.stderr.hasPrefix("layerkit: --video needs ffmpeg, and there is none on PATH"), "\(video.stderr)")
        expect(!FileManager.default.fileExists(atPath: out), "nothing is written for refused input")
    }

    /// The output is estimated before a frame is drawn, 2 × frames × pixels × 4 bytes (every
    /// frame as a PNG and in the animated PNG, uncompressed), and refused over --max-bytes
    /// (default 16 GiB). The issue's case: 4096² px at 1000 fps for 100 s is 100,000 frames
    /// (the most allowed), 2 · 10^5 · 4096² · 4 = 13,421,772,800,000 bytes = 12.2 TiB.
    @Test func testOutputOverTheByteBudgetIsRefused() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out").path
        let huge = directory.appendingPathComponent("huge.json").path
        try Data(#"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 4096, "height": 4096}, "root": {"frame": [0, 0, 4096, 4096]}}"#.utf8)
            .write(to: URL(fileURLWithPath: huge))
        let big = try runLayerKit(["record", huge, "-o", out, "--duration", "100", "--fps", "1000"])
        expectEqual(big.status, 2)
        expectEqual(big.stderrLines, [
            "layerkit: \(huge): 100 s at 1000 fps is 100000 frames of 4096×4096 px, up to 12.2 TiB written "
                + "(the frames and the animated PNG, uncompressed); at most 16 GiB (raise it with --max-bytes)",
        ])
        // The fade: 5 frames of 10 × 10 px, 2 · 5 · 100 · 4 = 4000 bytes, so 4000 passes and 3999 not.
        let low = try runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--max-bytes", "3K"])
        expectEqual(low.stderrLines, [
            "layerkit: \(scene): 0.5 s at 10 fps is 5 frames of 10×10 px, up to 3.91 KiB written "
                + "(the frames and the animated PNG, uncompressed); at most 3 KiB (raise it with --max-bytes)",
        ])
        try expectEqual(runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--max-bytes", "3999"]).status, 2)
        expect(!FileManager.default.fileExists(atPath: out), "nothing is written for a refused recording")
        try expectEqual(runLayerKit(["record", scene, "-o", out, "--backend", "cpu", "--max-bytes", "4000"]).status, 0)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: out).count, 6)
    }

    /// A recording goes into an empty (or new) folder only: frames of an earlier, longer
    /// recording would otherwise mix with the new ones. --overwrite removes the names record
    /// writes (and what an interrupted recording left), nothing else, after checking them all.
    @Test func testNonEmptyFolderIsRefusedUnlessOverwrite() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out")
        try expectEqual(runLayerKit(["record", scene, "-o", out.path, "--backend", "cpu"]).status, 0)
        let five = ["animation.png", "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png"]
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() }
        try expectEqual(names(), five)

        let shorter = ["record", scene, "-o", out.path, "--backend", "cpu", "--duration", "0.3"]
        let refused = try runLayerKit(shorter)
        expectEqual(refused.status, 2)
        expectEqual(refused.stderrLines, [
            "layerkit: cannot write -o \(out.path): it is not empty (6 entries, such as animation.png); give --overwrite to replace a recording there",
        ])
        try expectEqual(names(), five)

        // A name of record's that is not a file is not removed, and then nothing is.
        try FileManager.default.createDirectory(at: out.appendingPathComponent("frame-0009.png"), withIntermediateDirectories: false)
        let folder = try runLayerKit(shorter + ["--overwrite"])
        expectEqual(folder.status, 2)
        expectEqual(folder.stderrLines, [
            "layerkit: cannot write -o \(out.path): frame-0009.png is not a file that record writes; remove it yourself",
        ])
        try expectEqual(names(), five + ["frame-0009.png"])
        try FileManager.default.removeItem(at: out.appendingPathComponent("frame-0009.png"))

        // What an interrupted recording left, and a file of the user's.
        let leftover = out.appendingPathComponent(".layerkit-record-abc123")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: leftover.appendingPathComponent("frame-0000.png"))
        try Data("x".utf8).write(to: leftover.appendingPathComponent(".layerkit-1-x.tmp"))
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        try Data("mine".utf8).write(to: out.appendingPathComponent("frame-1.png"))  // not record's: 4 digits at least
        let replaced = try runLayerKit(shorter + ["--overwrite"])
        expectEqual(replaced.status, 0, "\(replaced.stderr)")
        try expectEqual(names(), ["animation.png", "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-1.png", "notes.txt"])
        try expectEqual(Self.chunks(of: out.appendingPathComponent("animation.png").path)[1].data, [0, 0, 0, 3, 0, 0, 0, 0], "3 frames")
    }

    /// A recording that fails part-way (here a file grows past the file size limit, as on a
    /// full disk) leaves nothing: no frames, no truncated animated PNG, and not the folder it
    /// made; an existing folder stays as it was.
    @Test func testAFailedRecordingLeavesNothingBehind() throws {
        let (directory, _) = try writeScene()
        // Photographic frames (about 8 KB each as PNG), 10 of them.
        let cat = examplesDirectory.appendingPathComponent("images/cat.png").path
        let scene = directory.appendingPathComponent("cat.json").path
        try Data(#"""
            {"format": "layerkit-scene", "version": 1, "timeline": {"duration": 1, "fps": 10},
             "canvas": {"width": 64, "height": 64}, "images": {"cat": "\#(cat)"},
             "root": {"frame": [0, 0, 64, 64], "contents": "cat",
                      "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0.2, "toValue": 1, "duration": 1}]}}
            """#.utf8).write(to: URL(fileURLWithPath: scene))
        let measured = directory.appendingPathComponent("measured")
        try expectEqual(runLayerKit(["record", scene, "-o", measured.path, "--backend", "cpu"]).status, 0)
        let sizes = try FileManager.default.contentsOfDirectory(atPath: measured.path).map {
            try require(FileManager.default.attributesOfItem(atPath: measured.appendingPathComponent($0).path)[.size] as? Int)
        }
        let animation = try require(FileManager.default.attributesOfItem(atPath: measured.appendingPathComponent("animation.png").path)[.size] as? Int)
        let largestFrame = sizes.filter { $0 != animation }.max()!
        // Room for every frame but not for the animated PNG, whether a block is 512 bytes or 1024.
        let blocks = (largestFrame + 511) / 512
        expect(blocks * 1024 < animation, "the frames must be large enough for the test to tell")

        let fresh = directory.appendingPathComponent("new")
        let run = try runLayerKit(["record", scene, "-o", fresh.path, "--backend", "cpu"], fileSizeLimit: blocks)
        expectEqual(run.status, 2)
        expectEqual(run.stderrLines, ["layerkit: cannot write -o \(fresh.path): File too large"])
        expect(!FileManager.default.fileExists(atPath: fresh.path), "the folder it made is gone")

        let existing = directory.appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
        try expectEqual(runLayerKit(["record", scene, "-o", existing.path, "--backend", "cpu"], fileSizeLimit: blocks).status, 2)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: existing.path), [], "no frame, no animation, no staging folder")
        // The first frame fails (512 bytes are too few): the message names the folder given.
        let first = try runLayerKit(["record", scene, "-o", existing.path, "--backend", "cpu"], fileSizeLimit: 1)
        expectEqual(first.stderrLines, ["layerkit: cannot write -o \(existing.path): File too large"])
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: existing.path), [])
    }

    /// The chunks of a PNG file after its signature, each CRC checked here.
    static func chunks(of path: String) throws -> [(type: String, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        expectEqual(Array(bytes.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
        var result: [(type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(uint32(bytes, offset))
            let typeAndData = Array(bytes[offset + 4..<offset + 8 + length])
            expectEqual(uint32(bytes, offset + 8 + length), crc(typeAndData), "CRC of chunk at \(offset)")
            result.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        expectEqual(offset, bytes.count, "the file ends with its last chunk")
        return result
    }

    static func uint32(_ b: [UInt8], _ at: Int) -> UInt32 { b[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }

    /// CRC-32 bit by bit, as the PNG specification's sample code defines it.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }
}
