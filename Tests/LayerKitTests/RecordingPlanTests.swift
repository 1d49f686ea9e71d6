import LayerKitCore
import LayerKitScene
import XCTest

/// `RecordingPlan`, what `layerkit record` checks before drawing: frame counts by hand, the
/// byte bound, and `--max-bytes`'s numbers.
final class RecordingPlanTests: XCTestCase {
    private func plan(_ duration: Double?, _ fps: Double?, timeline: Scene.Timeline? = nil, size: Int = 10,
                      maximumBytes: Double = RecordingPlan.defaultMaximumBytes) throws -> RecordingPlan {
        try RecordingPlan(duration: duration, fps: fps, timeline: timeline, pixelWidth: size, pixelHeight: size,
                          maximumBytes: maximumBytes, scene: "s.json")
    }

    private func message(_ make: () throws -> RecordingPlan) -> String? {
        do {
            _ = try make()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// N = ⌈D·F⌉: 0.3 s at 10 fps is 3 (2.9999999999999996 in binary), 0.31 s is 4, 1 s at
    /// 0.02 fps is 1; the timeline fills in what is not given, the rate defaulting to 60.
    func testFrameCounts() throws {
        XCTAssertEqual(try plan(0.3, 10).frameCount, 3)
        XCTAssertEqual(try plan(0.31, 10).frameCount, 4)
        XCTAssertEqual(try plan(1, 0.02).frameCount, 1)
        XCTAssertEqual(try plan(nil, nil, timeline: .init(duration: 2, fps: 30)).frameCount, 60)
        XCTAssertEqual(try plan(0.5, nil).frameCount, 30)
        XCTAssertEqual(try plan(2, 10).time(ofFrame: 19), 1.9)
        XCTAssertEqual(RecordingPlan.frameCount(duration: 1e308, fps: 1000), .infinity)
        XCTAssertEqual(RecordingPlan.frameCount(duration: 1e300, fps: 2), 2e300)
    }

    /// Every refusal is one line; none traps, at the edges of Double too.
    func testRefusals() {
        XCTAssertEqual(message { try plan(0, 60) }, "s.json: 0 s at 60 fps is 0 frames: nothing to record (give a --duration over 0; `layerkit render` draws a still)")
        XCTAssertEqual(message { try plan(100_000.01, 1) }, "s.json: 100000.01 s at 1 fps is 100001 frames; at most 100000")
        XCTAssertEqual(message { try plan(.greatestFiniteMagnitude, 1000) }, "s.json: 1.7976931348623157e+308 s at 1000 fps is more frames than a Double can count; at most 100000")
        XCTAssertEqual(message { try plan(1e300, 1) }, "s.json: 1e+300 s at 1 fps is about 1e+300 frames; at most 100000")
        XCTAssertEqual(message { try plan(nil, nil) }, "s.json: no timeline in the scene; give --duration (and --fps)")
        // Found by the fuzzer: a timeline made in code with a negative duration trapped
        // converting -1e300 frames to an integer for the message.
        XCTAssertEqual(message { try plan(nil, nil, timeline: .init(duration: -1e300, fps: 10)) },
                       "s.json: timeline.duration -1e+300 is not a finite number of seconds ≥ 0; give --duration")
        XCTAssertEqual(message { try plan(nil, nil, timeline: .init(duration: 1, fps: 5000)) },
                       "s.json: timeline.fps 5000 is outside 0.02...1000, which an animated PNG can show; give --fps")
        XCTAssertEqual(message { try plan(-.ulpOfOne, 10) }, "--duration: expected a finite number of seconds ≥ 0, found -2.220446049250313e-16")
        XCTAssertEqual(message { try plan(1, .nan) }, "--fps: expected 0.02...1000 frames per second, found nan")
        // D·F is rounded to 1e-9 before ⌈⌉, so a duration this small is 0 frames too.
        XCTAssertEqual(message { try plan(.leastNonzeroMagnitude, 1000) }, "s.json: 5e-324 s at 1000 fps is 0 frames: nothing to record (give a --duration over 0; `layerkit render` draws a still)")
    }

    /// 2 · N · W · H · 4 bytes: 100 frames of 10 × 10 px is 80,000 bytes (78.1 KiB).
    func testByteBudget() throws {
        XCTAssertEqual(try plan(10, 10).estimatedBytes, 80_000)
        XCTAssertNil(message { try plan(10, 10, maximumBytes: 80_000) })
        XCTAssertEqual(message { try plan(10, 10, maximumBytes: 79_999) },
                       "s.json: 10 s at 10 fps is 100 frames of 10×10 px, up to 78.1 KiB written (the frames and the animated PNG, uncompressed); at most 78.1 KiB (raise it with --max-bytes)")
        XCTAssertEqual(RecordingPlan.bytes(1023), "1023 bytes")
        XCTAssertEqual(RecordingPlan.bytes(1536), "1.5 KiB")
        XCTAssertEqual(RecordingPlan.bytes(16 * 0x1p30), "16 GiB")
    }

    func testByteCounts() {
        XCTAssertEqual(RecordingPlan.parseByteCount("4000"), 4000)
        XCTAssertEqual(RecordingPlan.parseByteCount("3K"), 3072)
        XCTAssertEqual(RecordingPlan.parseByteCount("16G"), 16 * 0x1p30)
        XCTAssertEqual(RecordingPlan.parseByteCount("2TiB"), 2 * 0x1p40)
        for bad in ["", "G", "-1", "1.5G", "1e9", "12X", "١٢", "999999999999999999999", " 1"] {
            XCTAssertNil(RecordingPlan.parseByteCount(bad), bad)
        }
    }
}
