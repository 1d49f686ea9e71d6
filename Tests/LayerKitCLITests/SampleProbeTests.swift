import Foundation
import LayerKitTestSupport
import Testing

/// `layerkit probes` with `samples` and timed probes: exit 0 when every value matches, 1 with
/// the expected and actual values when one does not, 2 for a sample the reader refuses.
@Suite struct SampleProbeTests {
    private let temporary = TemporaryDirectories()

    /// A layer sliding from x 0 to 100 over 1 s (linear), at (0, 50) in its model.
    private func scene(samples: String, probes: String = "[]") -> String {
        sceneText(root: #"""
            {"name": "root", "frame": [0, 0, 100, 100], "sublayers": [{"name": "box", "bounds": [0, 0, 20, 20], "position": [0, 50],
             "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 100, "duration": 1}]}]}
            """#, extra: #""samples": \#(samples), "probes": \#(probes)"#)
    }

    private func probes(_ text: String) throws -> CLIRun {
        let directory = try temporary.directory()
        let path = directory.appendingPathComponent("s.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try runLayerKit(["probes", path])
    }

    @Test func testPassingSamplesAndTimedProbesExitZero() throws {
        // x = 100 · t: 25 at 0.25 s; past the end (removed) the model's 0.
        let run = try probes(scene(samples: #"""
            [{"time": 0.25, "layer": "box", "keyPath": "position", "value": [25, 50]},
             {"time": 0.25, "layer": "box", "keyPath": "position.x", "value": 25.00001},
             {"time": 2, "layer": "box", "keyPath": "position.x", "value": 0}]
            """#, probes: #"[{"point": [75, 50], "hit": "box", "time": 0.75}, {"point": [75, 50], "hit": "root"}]"#))
        expectEqual(run.status, 0, "\(run.stdout + run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { String($0.split(separator: ": ", maxSplits: 1)[1]) }
        expectEqual(lines, [
            "probe (75, 50) at 0.75 s: expected box, got box: ok",
            "probe (75, 50): expected root, got root: ok",
            "sample box.position at 0.25 s: expected [25, 50], got [25, 50]: ok",
            "sample box.position.x at 0.25 s: expected 25.00001, got 25: ok",
            "sample box.position.x at 2 s: expected 0, got 0: ok",
        ])
    }

    @Test func testAFailingSampleExitsOneWithBothValues() throws {
        // 1e-4 relative of 25 is 0.0025: 25.01 is outside it.
        let run = try probes(scene(samples: #"[{"time": 0.25, "layer": "box", "keyPath": "position.x", "value": 25.01}]"#))
        expectEqual(run.status, 1)
        expect(run.stdout.hasSuffix("sample box.position.x at 0.25 s: expected 25.01, got 25: FAIL\n"), "\(run.stdout)")
        let probe = try probes(scene(samples: "[]", probes: #"[{"point": [75, 50], "hit": "box", "time": 0.25}]"#))
        expectEqual(probe.status, 1)
        expect(probe.stdout.hasSuffix("probe (75, 50) at 0.25 s: expected box, got root: FAIL\n"), "\(probe.stdout)")
    }

    @Test func testBadSamplesAreRefusedWithTheirPath() throws {
        for (samples, message) in [
            (#"[{"time": 0, "layer": "ghost", "keyPath": "opacity", "value": 1}]"#, #"samples[0].layer: no layer named "ghost" in the scene"#),
            (#"[{"time": 0, "layer": "box", "keyPath": "wobble", "value": 1}]"#, #"samples[0].keyPath: unknown or not yet animatable key path "wobble""#),
            (#"[{"time": 0, "layer": "box", "keyPath": "position", "value": 1}]"#, "samples[0].value: expected [x, y], found a number"),
            (#"[{"time": 0, "layer": "box", "keyPath": "opacity"}]"#, "samples[0].value: required field is missing"),
            (#"[{"time": 0, "layer": "box", "keyPath": "opacity", "value": 1, "when": 2}]"#, "samples[0].when: unknown field for a sample; expected one of keyPath, layer, time, value"),
        ] {
            let run = try probes(scene(samples: samples))
            expectEqual(run.status, 2, "\(samples)")
            expect(run.stderr.hasSuffix("s.json: \(message)\n"), "\(samples): \(run.stderr)")
        }
    }
}
