import CHotLoops
import XCTest

/// The blend's AVX2 loop (chosen where the CPU has AVX2, as this project's machines do) gives
/// the bytes of the baseline loop: runs of every length from one pixel to past two vectors of
/// eight, every destination byte, sources at and between rounding edges (halves included), and
/// the opaque case.
final class BlendRunTests: XCTestCase {
    func testTheCPUsLoopGivesTheBaselineBytes() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        var compared = 0
        for count in 1...37 {
            for trial in 0..<80 {
                // Sources in halves of a unit (ties), then anywhere; alpha 255 (opaque) now and then.
                let unit: Float = trial % 2 == 0 ? 0.5 : 1 / 1024
                let a = trial % 10 == 0 ? 255 : Float(next(UInt64(255 / unit) + 1)) * unit
                var (r, g, b) = (Float(next(UInt64(a / unit) + 1)) * unit, Float(next(UInt64(a / unit) + 1)) * unit,
                                 Float(next(UInt64(a / unit) + 1)) * unit)
                let k = 1 - a / 255
                var pixels = (0..<(count * 4)).map { i in count == 37 && trial < 4 ? UInt8((i + trial * 64) & 255) : UInt8(next(256)) }
                if trial % 3 == 1 {
                    // Red on a rounding edge: s + d * k lands on a half once d * k is rounded to
                    // a float, and a fused multiply-add (one rounding) would miss it.
                    let d = UInt8(next(256))
                    r = Float(next(200)) + 0.5 - Float(d) * k
                    for i in 0..<count { pixels[i * 4] = d }
                }
                var (chosen, baseline) = (pixels, pixels)
                lk_blend_run(&chosen, count, r, g, b, a, k)
                lk_blend_run_baseline(&baseline, count, r, g, b, a, k)
                XCTAssertEqual(chosen, baseline, "\(count) pixels, source \(r) \(g) \(b) \(a), k \(k)")
                if chosen != baseline { return }
                compared += count
            }
        }
        XCTAssertEqual(compared, 80 * (1...37).reduce(0, +))
    }
}
