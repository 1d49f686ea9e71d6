@testable import LayerKitScene
import XCTest
@testable import LayerKitCore

/// The memory budget (`Scene.estimatedMemory`, `Scene.checkMemory`): each estimate computed by
/// hand from the costs documented in architecture.md, "Memory budget".
final class SceneMemoryTests: XCTestCase {
    func testTheEstimateSumsTheCostsOfEachPart() {
        // CPU drawing: 128 MiB + 32 x 1000 bytes + 8192 x 10 layers + 8 x 100 image pixels
        // + 20 x 200 x 200 canvas pixels = 134217728 + 32000 + 81920 + 800 + 800000.
        XCTAssertEqual(Scene.estimatedMemory(fileBytes: 1000, layers: 10, imagePixels: 100, canvasPixels: 40_000, use: .cpuDrawing),
                       135_132_448)
        // GL: 768 MiB + 9216 a layer: 805306368 + 32000 + 92160 + 800 + 800000.
        XCTAssertEqual(Scene.estimatedMemory(fileBytes: 1000, layers: 10, imagePixels: 100, canvasPixels: 40_000, use: .glDrawing),
                       806_231_328)
        // Reading: 128 MiB + 2048 x 999,000 layers, nothing for the canvas: 134217728 + 2045952000.
        XCTAssertEqual(Scene.estimatedMemory(fileBytes: 0, layers: 999_000, imagePixels: 0, canvasPixels: 40_000, use: .reading),
                       2_180_169_728)
    }

    func testTheEstimateSaturatesInsteadOfOverflowing() {
        XCTAssertEqual(Scene.estimatedMemory(fileBytes: Int.max / 2, layers: 1, imagePixels: 0, canvasPixels: 0, use: .reading), Int.max)
        XCTAssertEqual(Scene.estimatedMemory(fileBytes: Int.max / 64, layers: Int.max / 4096, imagePixels: 0, canvasPixels: 0, use: .reading),
                       Int.max)
    }

    func testANeedOverWhatIsAvailableIsRefusedWithBothAmounts() {
        // ulimit -v 4000000 is 4,096,000,000 bytes, 3.81 GiB; 5 GiB is over it.
        XCTAssertThrowsError(try Scene.checkMemory(5 << 30, for: "999000 layers", available: (4_096_000_000, "ulimit -v"))) { error in
            XCTAssertEqual((error as? SceneError)?.message,
                           "999000 layers need about 5.0 GiB, more than the 3.8 GiB this process may use (ulimit -v); split the scene or raise the limit")
        }
        // Exactly what is available, or nothing known about it, is not refused.
        XCTAssertNoThrow(try Scene.checkMemory(4_096_000_000, for: "999000 layers", available: (4_096_000_000, "ulimit -v")))
        XCTAssertNoThrow(try Scene.checkMemory(Int.max, for: "999000 layers", available: nil))
    }

    /// Without `ulimit -v`, the test process may use what /proc/meminfo says is available.
    func testWithoutALimitTheAvailableMemoryIsMemAvailablePlusFreeSwap() throws {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_AS.rawValue), &limit), 0)
        try XCTSkipIf(limit.rlim_cur != rlim_t.max, "this test process runs under ulimit -v")
        let available = try XCTUnwrap(Scene.memoryAvailable())
        XCTAssertEqual(available.source, "available memory and swap")
        let meminfo = try String(contentsOfFile: "/proc/meminfo", encoding: .utf8)
        XCTAssertTrue(meminfo.contains("MemAvailable:"))
        // Bounded by MemTotal + SwapTotal, and more than nothing.
        func kib(_ key: String) -> Int {
            meminfo.split(separator: "\n").first { $0.hasPrefix(key + ":") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }
        XCTAssertGreaterThan(available.bytes, 0)
        XCTAssertLessThanOrEqual(available.bytes, (kib("MemTotal") + kib("SwapTotal")) * 1024)
    }
}
