import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// The scene format's "Time and animations": reading (values checked by hand against the
/// timing rules), the strict reader's errors with their JSON paths, and the writer's round trip.
final class SceneAnimationTests: XCTestCase {
    private func assertLayerError(_ layer: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try readScene(sceneText(root: layer)), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    private func animation(_ fields: String) -> String { #"{"animations": [\#(fields)]}"# }

    private let animated = sceneText(root: #"""
        {"position": [10, 20], "speed": 2, "beginTime": 1, "timeOffset": 0.5,
         "animations": [
           {"type": "basic", "key": "move", "keyPath": "position", "fromValue": [0, 0], "toValue": [100, 50], "duration": 4},
           {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "keyTimes": [0, 0.5, 1], "timingFunctions": ["linear", "easeIn"], "duration": 2, "repeatCount": "infinity"},
           {"type": "keyframe", "keyPath": "shadowRadius", "values": [0, 4], "calculationMode": "cubic", "tensionValues": [1, 1], "duration": 2},
           {"type": "spring", "keyPath": "cornerRadius", "fromValue": 0, "toValue": 10, "damping": 20, "duration": 3},
           {"type": "group", "duration": 1, "beginTime": 5, "fillMode": "forwards", "removedOnCompletion": false,
            "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 3.141592653589793, "fillMode": "forwards"}]}
         ]}
        """#, extra: #""time": 1.25, "timeline": {"duration": 2, "fps": 30}"#)

    func testAnimatedSceneSamples() throws {
        let scene = try readScene(animated)
        XCTAssertEqual(scene.time, 1.25)
        XCTAssertEqual(scene.timeline, Scene.Timeline(duration: 2, fps: 30))
        XCTAssertEqual(scene.root.animationKeys(), ["move"])
        // Scene time 1.25: layer time (1.25 − 1)·2 + 0.5 = 1.
        let s = scene.snapshot(atTime: scene.time).properties
        XCTAssertEqual(s.position, CGPoint(x: 25, y: 12.5))
        XCTAssertEqual(s.opacity, 1, accuracy: 1e-6)
        // Spring ζ = 1, ω0 = 10: x(1) = 1 − 11·e^(−10).
        XCTAssertEqual(s.cornerRadius, 10 * (1 - 11 * exp(-10)), accuracy: 1e-9)
        XCTAssertEqual(s.transform, .identity)
        // Cubic with tension 1 (flat tangents) halfway: h01(½)·4 = 2.
        XCTAssertEqual(s.shadowRadius, 2, accuracy: 1e-9)
        // Layer time 1.6575 is 0.6575 into the second keyframe segment (1 → ½), which easeIn
        // turns into ½ (hand-solved at s = ½): opacity ¾.
        let t = 1 + (1 + 0.6575 - 0.5) / 2
        XCTAssertEqual(scene.snapshot(atTime: t).properties.opacity, 0.75, accuracy: 1e-6)
        // The group ends at layer time 6 (scene 3.75) and holds its child's end (the child's own
        // fill mode keeps it at the group's end): a half turn.
        let held = scene.snapshot(atTime: 10).properties.transform
        XCTAssertEqual(held.m11, -1, accuracy: 1e-9)
        XCTAssertEqual(held.m12, 0, accuracy: 1e-9)
    }

    func testRoundTrip() throws {
        let scene = try readScene(animated)
        let written = try scene.jsonData()
        let again = try Scene(data: written, baseDirectory: "", fileName: "test.json")
        XCTAssertEqual(String(decoding: try again.jsonData(), as: UTF8.self), String(decoding: written, as: UTF8.self))
        XCTAssertEqual(again.time, 1.25)
        for t in [0, 1.1, 1.25, 2.3, 4, 10] {
            XCTAssertEqual(again.snapshot(atTime: t), scene.snapshot(atTime: t), "at \(t)")
        }
    }

    func testReaderErrors() {
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "duration": -1}"#),
                         "root.animations[0].duration: must be >= 0, not -1")
        assertLayerError(animation(#"{"type": "basic", "keyPath": "wobble"}"#),
                         #"root.animations[0].keyPath: unknown or not yet animatable key path "wobble""#)
        assertLayerError(animation(#"{"type": "basic"}"#), "root.animations[0].keyPath: required field is missing")
        assertLayerError(animation(#"{"type": "bounce", "keyPath": "opacity"}"#),
                         #"root.animations[0].type: unknown animation type "bounce"; expected one of basic, group, keyframe, spring"#)
        assertLayerError(animation(#"{"type": "basic", "keyPath": "position", "toValue": [1, 2, 3]}"#),
                         "root.animations[0].toValue: expected [x, y] (2 numbers), found 3 elements")
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "fromValue": "red"}"#),
                         #"root.animations[0].fromValue: expected a number, found a string"#)
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": []}"#),
                         "root.animations[0].values: a keyframe animation needs at least one value")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.6, 0.5]}"#),
                         "root.animations[0].keyTimes[2]: key times must not decrease (0.6 before 0.5)")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1]}"#),
                         "root.animations[0].keyTimes: expected 2 key times for 2 values (linear), found 3")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "discrete", "keyTimes": [0, 1]}"#),
                         "root.animations[0].keyTimes: expected 3 key times for 2 values (discrete), found 2")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "timingFunctions": ["linear", "easeIn"]}"#),
                         "root.animations[0].timingFunctions: expected 1 timing functions (one per segment), found 2")
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "timingFunction": [1.5, 0, 1, 1]}"#),
                         "root.animations[0].timingFunction[0]: a control point's x must be in 0...1, found 1.5")
        // Found by the fuzzer: read, then not writable back ("inf cannot be written").
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "timingFunction": [0, 1e300, 1, 1]}"#),
                         "root.animations[0].timingFunction[1]: a control point's y must be within ±3.4028235e+38 (a Float), found 1e+300")
        assertLayerError(animation(#"{"type": "basic", "keyPath": "sublayerTransform", "fromValue": [{"perspective": 5e-324}]}"#),
                         "root.animations[0].fromValue: the transform's matrix is not finite: its numbers overflow a Double")
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "repeatCount": "forever"}"#),
                         #"root.animations[0].repeatCount: expected a number or "infinity", found a string"#)
        assertLayerError(animation(#"{"type": "basic", "keyPath": "opacity", "fillMode": "sideways"}"#),
                         #"root.animations[0].fillMode: unknown value "sideways"; expected one of removed, forwards, backwards, both"#)
        assertLayerError(animation(#"{"type": "group", "animations": [{"type": "basic", "keyPath": "opacity", "values": [1]}]}"#),
                         "root.animations[0].animations[0].values: unknown field for a basic animation")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "cubic", "biasValues": [0]}"#),
                         "root.animations[0].biasValues: expected 2 numbers (one per value), found 1")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "cubicSlow"}"#),
                         #"root.animations[0].calculationMode: unknown value "cubicSlow"; expected one of linear, discrete, paced, cubic, cubicPaced"#)
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "opacity", "path": "M 0 0 L 1 1"}"#),
                         "root.animations[0].path: a path animates point key paths only (position, anchorPoint, …)")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "position", "path": "M 5 5"}"#),
                         "root.animations[0].path: a keyframe path needs at least one line or curve after its move-to")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "position", "values": [[0, 0], [1, 1]], "rotationMode": "auto"}"#),
                         "root.animations[0].rotationMode: rotationMode turns the layer along a path, and this animation has none")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "position", "path": "M 0 0 L 1 1", "rotationMode": "sideways"}"#),
                         #"root.animations[0].rotationMode: unknown value "sideways"; expected one of auto, autoReverse"#)
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "position", "path": "M 0 0 L 1 1 L 2 0", "keyTimes": [0, 1]}"#),
                         "root.animations[0].keyTimes: expected 3 key times for 3 path keyframes (linear), found 2")
        assertLayerError(animation(#"{"type": "keyframe", "keyPath": "contents", "values": ["nowhere"]}"#),
                         #"root.animations[0].values[0]: no image named "nowhere" in images"#)
        assertLayerError(#"{"speed": 1e999}"#, "root.speed: number out of range (not finite)")
        XCTAssertThrowsError(try readScene(sceneText(root: "{}", extra: #""timeline": {"duration": 1, "fps": 0}"#))) {
            XCTAssertEqual("\($0)", "test.json: timeline.fps: must be > 0, not 0")
        }
    }
}
