import Foundation
import LayerKitTestSupport
import Testing

/// Animation values are held to the rule of the field they animate, and key paths to the layer
/// type (issue 23: an opacity animated from 5 to −3 was accepted though `"opacity": 5` is
/// refused). Each refusal is the static field's message at the value's JSON path, exit 2.
@Suite struct AnimationRangeTests {
    private let temporary = TemporaryDirectories()

    private func validate(_ root: String) throws -> (run: CLIRun, file: String) {
        let directory = try temporary.directory()
        let path = directory.appendingPathComponent("scene.json").path
        try Data(sceneText(root: root).utf8).write(to: URL(fileURLWithPath: path))
        return (try runLayerKit(["validate", path]), path)
    }

    @Test func testValuesOutsideTheFieldsRangeAreRefused() throws {
        let at = "root.sublayers[0].animations[0]"
        for (layer, message) in [
            // The static field's messages, for comparison.
            (#"{"opacity": 5}"#, "root.sublayers[0].opacity: must be between 0 and 1, not 5"),
            (#"{"animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 5, "toValue": -3}]}"#,
             "\(at).fromValue: must be between 0 and 1, not 5"),
            (#"{"animations": [{"type": "basic", "keyPath": "opacity", "toValue": -3}]}"#, "\(at).toValue: must be between 0 and 1, not -3"),
            (#"{"animations": [{"type": "keyframe", "keyPath": "cornerRadius", "values": [0, 2, -4]}]}"#,
             "\(at).values[2]: must be >= 0, not -4"),
            (#"{"type": "shapeLayer", "animations": [{"type": "basic", "keyPath": "strokeEnd", "toValue": 1e308}]}"#,
             "\(at).toValue: must be between 0 and 1, not 1e+308"),
            (#"{"type": "shapeLayer", "animations": [{"type": "spring", "keyPath": "strokeEnd", "fromValue": -1e308}]}"#,
             "\(at).fromValue: must be between 0 and 1, not -1e+308"),
            (#"{"animations": [{"type": "basic", "keyPath": "bounds", "toValue": [0, 0, -1, 2]}]}"#,
             "\(at).toValue: width and height must be >= 0, not -1 x 2"),
            // A part of a field is checked as the field it is written into (a new layer's, 0 x 0).
            (#"{"animations": [{"type": "basic", "keyPath": "bounds.size.width", "toValue": -5}]}"#,
             "\(at).toValue: width and height must be >= 0, not -5 x 0"),
            (#"{"animations": [{"type": "group", "animations": [{"type": "basic", "keyPath": "shadowRadius", "toValue": -1}]}]}"#,
             "\(at).animations[0].toValue: must be >= 0, not -1"),
            (#"{"type": "textLayer", "animations": [{"type": "basic", "keyPath": "fontSize", "toValue": -2}]}"#,
             "\(at).toValue: must be >= 0, not -2"),
        ] {
            let (run, file) = try validate(#"{"sublayers": [\#(layer)]}"#)
            expectEqual(run.status, 2, "\(layer)")
            expectEqual(run.stderrLines, ["layerkit: \(file): \(message)"], "\(layer)")
        }
    }

    /// A change is not a value of the property: `byValue` and an additive animation's values
    /// may be negative where the property may not.
    @Test func testChangesMayLeaveTheRange() throws {
        let (run, _) = try validate(#"{"sublayers": [{"animations": [{"type": "basic", "keyPath": "opacity", "toValue": -0.5, "additive": true}, {"type": "basic", "keyPath": "opacity", "byValue": -0.5}, {"type": "keyframe", "keyPath": "cornerRadius", "values": [-1, -2], "additive": true}]}]}"#)
        expectEqual(run.status, 0, "\(run.stderr)")
    }

    @Test func testKeyPathsTheLayerTypeLacksAreRefused() throws {
        let at = "root.sublayers[0].animations[0]"
        for (layer, message) in [
            (#"{"animations": [{"type": "basic", "keyPath": "path", "toValue": "M0 0 L1 1"}]}"#,
             #"\#(at).keyPath: a layer has no property "path" (a shapeLayer has)"#),
            (#"{"type": "textLayer", "animations": [{"type": "basic", "keyPath": "colors", "toValue": [[1, 0, 0, 1]]}]}"#,
             #"\#(at).keyPath: a textLayer has no property "colors" (a gradientLayer has)"#),
            (#"{"type": "shapeLayer", "animations": [{"type": "group", "animations": [{"type": "basic", "keyPath": "fontSize", "toValue": 3}]}]}"#,
             #"\#(at).animations[0].keyPath: a shapeLayer has no property "fontSize" (a textLayer has)"#),
        ] {
            let (run, file) = try validate(#"{"sublayers": [\#(layer)]}"#)
            expectEqual(run.status, 2, "\(layer)")
            expectEqual(run.stderrLines, ["layerkit: \(file): \(message)"], "\(layer)")
        }
    }
}
