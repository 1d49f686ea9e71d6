import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `layerkit record`: the frame count and times, the frames' pixels, the animated PNG's chunks
/// read byte by byte, and bad input refused with exit 2 before anything is written.
final class RecordCommandTests: XCTestCase {
    /// A red layer over a blue canvas, its opacity 0 → 1 over 0.5 s; timeline 0.5 s at 10 fps.
    static let fade = #"""
        {"format": "layerkit-scene", "version": 1, "timeline": {"duration": 0.5, "fps": 10},
         "canvas": {"width": 10, "height": 10, "background": "#0000FF"},
         "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
                  "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5}]}}
        """#

    private func writeScene(_ text: String = fade) throws -> (directory: URL, scene: String) {
        let directory = try temporaryDirectory(for: self)
        let scene = directory.appendingPathComponent("fade.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: scene))
        return (directory, scene)
    }

    /// 0.5 s at 10 fps is 5 frames at 0, 0.1, …, 0.4 s (the end is exclusive), so frame i shows
    /// opacity 0.2·i: red 51·i, blue 255 − 51·i.
    func testRecordWritesOneFrameEachTickUpToTheEnd() throws {
        let (directory, scene) = try writeScene()
        for backend in ["cpu", "gl"] {
            let out = directory.appendingPathComponent(backend).path
            let run = try runLayerKit(["record", scene, "-o", out, "--backend", backend])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stderr, "", "no progress bar when standard error is not a terminal")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            XCTAssertEqual(names, ["animation.png", "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png"])
            for i in 0..<5 {
                let p = try Bitmap(contentsOfPNGFile: "\(out)/frame-000\(i).png")[5, 5]
                XCTAssertEqual(Double(p.r), 51 * Double(i), accuracy: 1, "\(backend) frame \(i)")
                XCTAssertEqual(Double(p.b), 255 - 51 * Double(i), accuracy: 1, "\(backend) frame \(i)")
            }
        }
        // --duration and --fps override the timeline: 0.3 s at 10 fps is 3 frames (0.3 × 10 is
        // 2.9999999999999996 in binary, which must not become a fourth frame).
        let short = directory.appendingPathComponent("short").path
        XCTAssertEqual(try runLayerKit(["record", scene, "-o", short, "--backend", "cpu", "--duration", "0.3", "--fps", "10"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: short).filter { $0.hasPrefix("frame-") }.count, 3)
    }

    /// The animated PNG: signature, IHDR, acTL (5 frames, played forever), then per frame an
    /// fcTL (full canvas, delay 1/10 s) and its image data (IDAT for the first, fdAT after),
    /// sequence numbers 0, 1, 2, … across fcTL and fdAT, IEND; every CRC right; each frame's
    /// data the same bytes as its frame PNG's IDAT data.
    func testAnimatedPNGChunks() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out").path
        XCTAssertEqual(try runLayerKit(["record", scene, "-o", out, "--backend", "cpu"]).status, 0)
        let chunks = try Self.chunks(of: "\(out)/animation.png")
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "acTL", "fcTL", "IDAT"]
                       + Array(repeating: ["fcTL", "fdAT"], count: 4).joined() + ["IEND"])
        XCTAssertEqual(chunks[1].data, [0, 0, 0, 5, 0, 0, 0, 0])
        var sequence: UInt32 = 0
        for (frame, fcTL) in chunks.filter({ $0.type == "fcTL" }).enumerated() {
            let d = fcTL.data
            XCTAssertEqual(Self.uint32(d, 0), sequence, "frame \(frame)")
            XCTAssertEqual([Self.uint32(d, 4), Self.uint32(d, 8), Self.uint32(d, 12), Self.uint32(d, 16)], [10, 10, 0, 0])
            XCTAssertEqual(Array(d[20..<26]), [0, 1, 0, 10, 0, 0], "delay 1/10 s, dispose none, blend source")
            sequence += frame == 0 ? 1 : 2
        }
        let frameData = chunks.filter { $0.type == "IDAT" || $0.type == "fdAT" }
        for (i, c) in frameData.enumerated() {
            let own = try Self.chunks(of: "\(out)/frame-000\(i).png").filter { $0.type == "IDAT" }.flatMap(\.data)
            if i == 0 {
                XCTAssertEqual(c.data, own)
            } else {
                XCTAssertEqual(Self.uint32(c.data, 0), UInt32(2 * i), "fdAT \(i)'s sequence number")
                XCTAssertEqual(Array(c.data.dropFirst(4)), own, "frame \(i)")
            }
        }
        // A viewer without APNG shows the first frame.
        XCTAssertEqual(try Bitmap(contentsOfPNGFile: "\(out)/animation.png").rgba(5, 5), [0, 0, 255, 255])
    }

    func testBadInputIsRefusedBeforeAnythingIsWritten() throws {
        let (directory, scene) = try writeScene()
        let out = directory.appendingPathComponent("out").path
        let noTimeline = directory.appendingPathComponent("still.json").path
        try Data(sceneText(root: #"{"frame": [0, 0, 10, 10]}"#).utf8).write(to: URL(fileURLWithPath: noTimeline))
        let cases: [([String], String)] = [
            (["--fps", "0"], "layerkit: --fps: expected 0.02...1000 frames per second, found 0.0"),
            (["--fps", "inf"], "layerkit: --fps: expected 0.02...1000 frames per second, found inf"),
            (["--duration", "-1"], "layerkit: --duration: expected a finite number of seconds ≥ 0, found -1.0"),
            (["--duration", "nan"], "layerkit: --duration: expected a finite number of seconds ≥ 0, found nan"),
            (["--duration", "1e9"], "layerkit: \(scene): 1000000000 s at 10 fps is 100001 frames; at most 100000"),
            (["--scale", "0"], "layerkit: --scale must be a positive number, not 0.0"),
            (["--backend", "vulkan"], "layerkit: The value 'vulkan' is invalid for '--backend <backend>'. Please provide one of 'cpu', 'gl' or 'auto'."),
        ]
        for (flags, message) in cases {
            let run = try runLayerKit(["record", scene, "-o", out] + flags)
            XCTAssertEqual(run.status, 2, "\(flags)")
            XCTAssertEqual(run.stderrLines.first.map(String.init), message, "\(flags)")
        }
        let still = try runLayerKit(["record", noTimeline, "-o", out])
        XCTAssertEqual(still.status, 2)
        XCTAssertEqual(still.stderrLines.map(String.init), ["layerkit: \(noTimeline): no timeline in the scene; give --duration (and --fps)"])
        let file = try runLayerKit(["record", scene, "-o", scene])
        XCTAssertEqual(file.stderrLines.map(String.init), ["layerkit: cannot write -o \(scene): it is not a directory"])
        let missing = try runLayerKit(["record", scene, "-o", directory.appendingPathComponent("no/such").path])
        XCTAssertEqual(missing.status, 2)
        // No ffmpeg on an empty PATH: --video is refused before a frame is drawn.
        let video = try runLayerKit(["record", scene, "-o", out, "--video", "--backend", "cpu"], environment: ["PATH": directory.path])
        XCTAssertEqual(video.status, 2)
        XCTAssertTrue(video.stderr.hasPrefix("layerkit: --video needs ffmpeg, and there is none on PATH"), video.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing is written for refused input")
    }

    /// The chunks of a PNG file after its signature, each CRC checked here.
    static func chunks(of path: String) throws -> [(type: String, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
        var result: [(type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(uint32(bytes, offset))
            let typeAndData = Array(bytes[offset + 4..<offset + 8 + length])
            XCTAssertEqual(uint32(bytes, offset + 8 + length), crc(typeAndData), "CRC of chunk at \(offset)")
            result.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        XCTAssertEqual(offset, bytes.count, "the file ends with its last chunk")
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
