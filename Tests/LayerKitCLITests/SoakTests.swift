import Foundation
import LayerKitTestSupport
import Testing

/// A short `layerkit soak` on each backend: the animated leaves-100 for 300 frames must not grow
/// resident memory by more than `rssGrowthLimit` after warm-up, and the GL backend must hold the
/// same number of textures all along; soak itself checks both and exits 1 past its limits. The canvas is drawn at scale 0.25 (320x180 pixels): leaks
/// come from what a frame allocates, not from how many pixels it fills, and a debug build of the
/// CPU renderer takes a second per full-size frame. (The 10,000-frame runs of leaves-1000 are
/// in BENCHMARKS.md.)
@Suite struct SoakTests {
    /// Allowed growth of resident memory from the sample after 50 frames (caches, textures and
    /// allocator pools are warm by then) to the end, 250 frames later; it grows by under 1 MiB.
    /// Leaking one snapshot of the 100 layers per frame (about 50 KB) would exceed it, and so
    /// would leaking the frame's 225 KB of pixels.
    static let rssGrowthLimit = 8 << 20

    private struct Sample: Decodable {
        let frame: Int
        let rss_bytes: Int
        let textures: Int?
    }

    private struct Report: Decodable {
        let backend: String
        let frames: Int
        let samples: [Sample]
    }

    private let scene = examplesDirectory.appendingPathComponent("bench/leaves-100.json").path

    private func soak(_ scene: String? = nil, backend: String) throws -> Report {
        let scene = scene ?? self.scene
        // Under a sanitizer resident memory says nothing about leaks (see assertFlat).
        let rssLimit = activeSanitizer == nil ? Double(Self.rssGrowthLimit) / 1_048_576 : 1e6
        let run = try runLayerKit(["soak", scene, "--frames", "300", "--every", "50", "--warmup", "50", "--scale", "0.25", "--animate",
                                  "--json", "--backend", backend, "--max-rss-growth", "\(rssLimit)", "--max-texture-growth", "0"])
        expectEqual(run.status, 0, "\(run.stderr)")
        expectEqual(run.stderr, "", "no warning expected")
        return try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
    }

    private func assertFlat(_ report: Report, sourceLocation: SourceLocation = #_sourceLocation) throws {
        expectEqual(report.samples.map(\.frame), [1, 50, 100, 150, 200, 250, 300], sourceLocation: sourceLocation)
        let warm = try require(report.samples.first { $0.frame == 50 })
        let growth = report.samples.last!.rss_bytes - warm.rss_bytes
        let mib = report.samples.map { String(format: "%.1f", Double($0.rss_bytes) / 1_048_576) }
        print("soak \(report.backend): rss MiB \(mib.joined(separator: " ")); textures \(report.samples.map { $0.textures.map(String.init) ?? "-" })")
        // A sanitizer's quarantine and shadow memory count as resident and say nothing about
        // leaks; the unsanitized run of this test is the one that bounds memory.
        if let sanitizer = activeSanitizer {
            print("soak: rss bound not checked under the \(sanitizer) sanitizer")
            return
        }
        expect(growth < Self.rssGrowthLimit, "\(report.backend): rss grew by \(growth) bytes after warm-up: \(mib)", sourceLocation: sourceLocation)
    }

    @Test func testCPUMemoryStaysFlat() throws {
        let report = try soak(backend: "cpu")
        expectEqual(report.backend, "cpu")
        try assertFlat(report)
    }

    @Test func testGLMemoryAndTexturesStayFlat() throws {
        let report = try soak(backend: "gl")
        expectEqual(report.backend, "gl")
        try assertFlat(report)
        let textures = report.samples.compactMap(\.textures)
        expectEqual(textures.count, report.samples.count, "GL reports its textures")
        expectEqual(Set(textures).count, 1, "texture count changed: \(textures)")
    }

    /// A scene whose animations repeat forever (spin-100: every square spinning and pulsing by
    /// scene-file animations) played for 300 frames: a presentation tree a frame, none kept.
    @Test func testAnInfinitelyRepeatingAnimatedSceneStaysFlat() throws {
        let report = try soak(examplesDirectory.appendingPathComponent("bench/spin-100.json").path, backend: "cpu")
        try assertFlat(report)
    }

    /// Growth past the limits fails the run: with no warm-up the baseline is sampled before the
    /// first frame, so the first frame's canvas, caches and (on GL) its two textures, the image's
    /// and the canvas target's, are growth.
    @Test func testGrowthPastTheLimitsExitsOne() throws {
        let run = try runLayerKit(["soak", scene, "--frames", "3", "--every", "1", "--warmup", "0", "--scale", "0.25",
                                   "--backend", "gl", "--max-rss-growth", "0"])
        expectEqual(run.status, 1, "\(run.stderr)")
        expect(run.stdout.contains("frame 0: rss"), "the samples are printed: \(run.stdout)")
        expectEqual(run.stderrLines.count, 2, "\(run.stderr)")
        expect(run.stderrLines[0].hasPrefix("layerkit: soak: \(scene): rss grew by "), "\(run.stderr)")
        expect(run.stderrLines[0].hasSuffix("from frame 0 to frame 3; at most 0.0 MiB allowed (--max-rss-growth)"), "\(run.stderr)")
        expectEqual(run.stderrLines[1], "layerkit: soak: \(scene): the GL backend holds 2 more textures at frame 3 than at frame 0; "
                                      + "at most 0 allowed (--max-texture-growth)")

        let within = try runLayerKit(["soak", scene, "--frames", "3", "--every", "1", "--warmup", "0", "--scale", "0.25",
                                      "--backend", "gl", "--max-rss-growth", "1000", "--max-texture-growth", "2"])
        expectEqual(within.status, 0, "\(within.stderr)")
    }

    @Test func testBadLimitsExitTwo() throws {
        for args in [["--max-rss-growth", "-1"], ["--max-rss-growth", "nan"], ["--max-texture-growth", "-1"], ["--warmup", "11"]] {
            let run = try runLayerKit(["soak", scene, "--frames", "10"] + args)
            expectEqual(run.status, 2, "\(args): \(run.stderr)")
        }
    }
}
