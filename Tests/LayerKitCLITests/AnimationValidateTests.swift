import Foundation
import LayerKitTestSupport
import Testing

/// `layerkit validate` names a malformed animation by its JSON path and the rule it breaks,
/// exit 2, as for every other field.
@Suite struct AnimationValidateTests {
    private let temporary = TemporaryDirectories()

    @Test func testMalformedAnimationsAreNamedWithTheirPath() throws {
        let directory = try temporary.directory()
        let path = directory.appendingPathComponent("bad.json").path
        let at = "\(path): root.sublayers[0].animations[0]"
        for (animation, message) in [
            (#"{"type": "basic", "keyPath": "wobble", "toValue": 1}"#, #"\#(at).keyPath: unknown or not yet animatable key path "wobble""#),
            (#"{"type": "basic", "keyPath": "opacity", "toValue": 1, "duration": -1}"#, "\(at).duration: must be >= 0, not -1"),
            (#"{"type": "basic", "keyPath": "opacity", "toValue": 1, "beginTime": 1e999}"#, "\(at).beginTime: number out of range (not finite)"),
            (#"{"type": "basic", "keyPath": "position", "toValue": 3}"#, "\(at).toValue: expected [x, y], found a number"),
            (#"{"type": "keyframe", "keyPath": "opacity", "values": []}"#, "\(at).values: a keyframe animation needs at least one value"),
            (#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.6, 0.5]}"#,
             "\(at).keyTimes[2]: key times must not decrease (0.6 before 0.5)"),
            (#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1]}"#,
             "\(at).keyTimes: expected 2 key times for 2 values (linear), found 3"),
            (#"{"type": "bounce", "keyPath": "opacity"}"#, #"\#(at).type: unknown animation type "bounce"; expected one of basic, group, keyframe, spring"#),
        ] {
            try Data(sceneText(root: #"{"sublayers": [{"animations": [\#(animation)]}]}"#).utf8).write(to: URL(fileURLWithPath: path))
            let run = try runLayerKit(["validate", path])
            expectEqual(run.status, 2, "\(animation)")
            expectEqual(run.stdout, "", "\(animation)")
            expectEqual(run.stderrLines, ["layerkit: \(message)"], "\(animation)")
        }
    }
}
