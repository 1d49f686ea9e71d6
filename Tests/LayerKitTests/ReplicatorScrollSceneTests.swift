import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore
@testable import LayerKitScene

/// Scene files with `replicatorLayer` and `scrollLayer` (docs/scene-format.md, "Replicator
/// and scroll layers"): the fields read, written back exactly, and the errors for bad input.
final class ReplicatorScrollSceneTests: XCTestCase {
    private func assertLayerError(_ layer: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try readScene(sceneText(root: layer)), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    private func roundTrip(_ scene: Scene) throws -> (text: String, scene: Scene) {
        let written = try scene.jsonData()
        let again = try Scene(data: written, baseDirectory: "", fileName: "again.json")
        XCTAssertEqual(try again.jsonData(), written, "writing what was read gives the same bytes")
        return (String(decoding: written, as: UTF8.self), again)
    }

    func testReplicatorFieldsAreReadAndWrittenBack() throws {
        let scene = try readScene(sceneText(root: """
            {"type": "replicatorLayer", "bounds": [0, 0, 300, 300], "instanceCount": 10, "instanceDelay": 0.1,
             "instanceTransform": [{"translate": [0, 200, 0]}, {"rotate": [36, 0, 0, 1]}, {"translate": [0, -200, 0]}],
             "instanceColor": "#FF8000", "instanceBlueOffset": -0.1, "instanceGreenOffset": -0.1,
             "sublayers": [{"frame": [100, 100, 100, 100], "backgroundColor": "#FFFFFF"}]}
            """))
        let r = try XCTUnwrap(scene.root as? CAReplicatorLayer)
        XCTAssertEqual(r.instanceCount, 10)
        XCTAssertEqual(r.instanceDelay, 0.1)
        XCTAssertEqual(r.instanceBlueOffset, -0.1)
        XCTAssertEqual(r.instanceGreenOffset, -0.1)
        XCTAssertEqual(r.instanceRedOffset, 0)
        XCTAssertEqual(r.instanceColor, CGColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
        XCTAssertFalse(r.preservesDepth)
        // translate(0, 200) · rotate(36°) · translate(0, −200), row vectors: m41 = 200 sin 36°,
        // m42 = 200 − 200 cos 36° (the rotation's pivot is 200 below the reference point).
        XCTAssertEqual(r.instanceTransform.m41, 200 * sin(36 * .pi / 180), accuracy: 1e-9)
        XCTAssertEqual(r.instanceTransform.m42, 200 - 200 * cos(36 * .pi / 180), accuracy: 1e-9)
        let (text, again) = try roundTrip(scene)
        XCTAssertTrue(text.contains(#""type" : "replicatorLayer""#) || text.contains(#""type": "replicatorLayer""#), text)
        XCTAssertFalse(text.contains("instanceRedOffset"), "defaults are not written")
        XCTAssertEqual((again.root as? CAReplicatorLayer)?.style, r.style)
        // null is opaque white, and written back as null.
        let white = try readScene(sceneText(root: #"{"type": "replicatorLayer", "instanceColor": null}"#))
        XCTAssertNil((white.root as? CAReplicatorLayer)?.instanceColor)
        XCTAssertEqual((try roundTrip(white).scene.root as? CAReplicatorLayer)?.instanceColor, nil)
    }

    func testReplicatorErrors() {
        assertLayerError(#"{"type": "replicatorLayer", "instanceCount": -1}"#, "root.instanceCount: must be >= 0, not -1")
        assertLayerError(#"{"type": "replicatorLayer", "instanceCount": 2.5}"#, "root.instanceCount: must be a whole number, not 2.5")
        assertLayerError(#"{"type": "replicatorLayer", "instanceCount": 1e300}"#,
                         "root.instanceCount: must be within ±9007199254740992 (2^53), not 1e+300")
        assertLayerError(#"{"type": "replicatorLayer", "instanceRedOffset": 1e39}"#,
                         "root.instanceRedOffset: number out of range for a single-precision value")
        assertLayerError(#"{"type": "replicatorLayer", "tileSize": [1, 1]}"#, "root.tileSize: unknown field for a replicatorLayer")
        assertLayerError(#"{"instanceCount": 2}"#, "root.instanceCount: unknown field for a layer")
        assertLayerError(#"{"type": "replicatorLayer", "drawing": [{"op": "fill"}]}"#,
                         "root.drawing[0].rect: required field is missing")
        // A billion copies of one sublayer: refused from the JSON, before anything is built.
        assertLayerError(#"{"type": "replicatorLayer", "instanceCount": 1e9, "sublayers": [{}]}"#,
                         "root.sublayers[0]: more than 1000000 layers in the scene, counting replicated copies")
        // Nested: 101 × 101 × 101 = 1,030,301 copies of the innermost layer, with the 1 + 101 +
        // 10,201 layers above them it is the innermost's first copy set that passes 1,000,000.
        let nested = #"{"type": "replicatorLayer", "instanceCount": 101, "sublayers": [INNER]}"#
        let three = nested.replacingOccurrences(of: "INNER", with: nested.replacingOccurrences(of: "INNER", with: nested))
            .replacingOccurrences(of: "INNER", with: "{}")
        assertLayerError(three, "root.sublayers[0].sublayers[0].sublayers[0]: more than 1000000 layers in the scene, counting replicated copies")
        // Zero copies count nothing beneath.
        XCTAssertNoThrow(try readScene(sceneText(root: #"{"type": "replicatorLayer", "instanceCount": 0, "sublayers": [{"type": "replicatorLayer", "instanceCount": 1e9, "sublayers": [{}]}]}"#)))
    }

    /// Replicators nested deep are refused by the limits, quickly: 10,000 deep by the JSON
    /// nesting limit, 1,000 deep of single copies by the depth limit, 2 copies a level by the
    /// layer limit once 2^20 copies pass a million.
    func testDeeplyNestedReplicatorsAreRefused() {
        func nested(_ depth: Int, copies: Int) -> String {
            var text = "{}"
            for _ in 0..<depth { text = #"{"type": "replicatorLayer", "instanceCount": \#(copies), "sublayers": [\#(text)]}"# }
            return text
        }
        XCTAssertThrowsError(try readScene(sceneText(root: nested(10_000, copies: 2)))) {
            XCTAssertTrue("\($0)".contains("not valid JSON"), "\($0)")
        }
        XCTAssertThrowsError(try readScene(sceneText(root: nested(1_000, copies: 1)))) {
            XCTAssertTrue("\($0)".hasSuffix("layers nest more than 1000 deep"), "\($0)")
        }
        XCTAssertThrowsError(try readScene(sceneText(root: nested(100, copies: 2)))) {
            XCTAssertTrue("\($0)".hasSuffix("more than 1000000 layers in the scene, counting replicated copies"), "\($0)")
        }
    }

    /// A replicator's and a scroll layer's `drawing` is their own contents, drawn by their
    /// `draw(in:)` (a presentation copy draws it too) and written back.
    func testDrawingOnReplicatorsAndScrollLayers() throws {
        let scene = try readScene(sceneText(root: """
            {"sublayers": [{"type": "replicatorLayer", "frame": [0, 0, 10, 10], "drawing": [{"op": "fill", "rect": [0, 0, 10, 10]}]},
                           {"type": "scrollLayer", "frame": [0, 0, 10, 10], "drawing": [{"op": "fill", "rect": [0, 0, 5, 5]}]}]}
            """))
        let layers = try XCTUnwrap(scene.root.sublayers)
        XCTAssertTrue(layers[0] is CAReplicatorLayer && layers[0].sceneDrawing != nil)
        XCTAssertTrue(layers[1] is CAScrollLayer && layers[1].sceneDrawing != nil)
        XCTAssertEqual(scene.drawingLayers.count, 2)
        XCTAssertEqual(layers[0].presentation(atTime: 0).sceneDrawing?.count, 1)
        // Drawn at the first commit: black where the rectangle was filled.
        _ = scene.root.snapshot()
        XCTAssertEqual(layers[1].contents?.bitmap.rgba(2, 2), [0, 0, 0, 255])
        XCTAssertEqual(layers[1].contents?.bitmap.rgba(7, 7), [0, 0, 0, 0])
        let (text, again) = try roundTrip(scene)
        XCTAssertEqual(text.components(separatedBy: "\"fill\"").count, 3, text)
        XCTAssertTrue(again.root.sublayers?[0] is CAReplicatorLayer && again.root.sublayers?[0].sceneDrawing != nil)
    }

    func testPreservesDepthWarnsAboutWhatItIgnores() throws {
        let scene = try readScene(sceneText(root: """
            {"type": "replicatorLayer", "preservesDepth": true, "backgroundColor": "#FF0000", "masksToBounds": true}
            """))
        let ignored = "ignored: a replicatorLayer with preservesDepth draws nothing of its own"
        XCTAssertEqual(scene.warnings, ["backgroundColor", "masksToBounds"].map { "test.json: root.\($0): \(ignored)" })
        XCTAssertEqual(try readScene(sceneText(root: ##"{"type": "replicatorLayer", "backgroundColor": "#FF0000"}"##)).warnings, [])
    }

    func testReplicatorAnimationsAreChecked() throws {
        let scene = try readScene(sceneText(root: """
            {"type": "replicatorLayer", "animations": [{"type": "basic", "keyPath": "instanceAlphaOffset", "fromValue": 0, "toValue": -0.5, "duration": 1}]}
            """))
        // An explicit animation without a timing function is linear: −0.25 at 0.5 s.
        guard case let .replicator(r) = scene.snapshot(atTime: 0.5).kind else { return XCTFail("not a replicator") }
        XCTAssertEqual(r.instanceAlphaOffset, -0.25, accuracy: 1e-6)
        assertLayerError(#"{"animations": [{"type": "basic", "keyPath": "instanceDelay", "toValue": 1, "duration": 1}]}"#,
                         #"root.animations[0].keyPath: a layer has no property "instanceDelay" (a replicatorLayer has)"#)
    }

    /// The reader scrolls after every other field: a 100 × 50 frame scrolled to (30, 40) has
    /// bounds (30, 40, 100, 50); vertically, to the rect (0, 60, 10, 10): y = 70 − 50 = 20.
    func testScrollLayerFieldsAndScrolls() throws {
        let scene = try readScene(sceneText(root: """
            {"sublayers": [{"type": "scrollLayer", "scrollToPoint": [30, 40], "frame": [0, 0, 100, 50]},
                           {"type": "scrollLayer", "scrollMode": "vertically", "frame": [0, 0, 100, 50], "scrollToRect": [0, 60, 10, 10]},
                           {"type": "scrollLayer", "masksToBounds": false}]}
            """))
        let s = try XCTUnwrap(scene.root.sublayers?.compactMap { $0 as? CAScrollLayer })
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(s[0].bounds, CGRect(x: 30, y: 40, width: 100, height: 50))
        XCTAssertTrue(s[0].masksToBounds)
        XCTAssertEqual(s[1].scrollMode, .vertically)
        XCTAssertEqual(s[1].bounds.origin, CGPoint(x: 0, y: 20))
        XCTAssertFalse(s[2].masksToBounds)
        let (text, again) = try roundTrip(scene)
        XCTAssertFalse(text.contains("scrollTo"), "the scroll is written as the bounds it made")
        let t = try XCTUnwrap(again.root.sublayers?.compactMap { $0 as? CAScrollLayer })
        XCTAssertEqual(t.map(\.bounds), s.map(\.bounds))
        XCTAssertEqual(t.map(\.masksToBounds), [true, true, false])
        XCTAssertEqual(t.map(\.scrollMode), [.both, .vertically, .both])
    }

    func testScrollLayerErrors() {
        assertLayerError(#"{"scrollMode": "both"}"#, "root.scrollMode: unknown field for a layer")
        assertLayerError(#"{"type": "scrollLayer", "scrollMode": "diagonal"}"#,
                         #"root.scrollMode: unknown value "diagonal"; expected one of none, vertically, horizontally, both"#)
        assertLayerError(#"{"type": "scrollLayer", "scrollToPoint": [0, 0], "scrollToRect": [0, 0, 1, 1]}"#,
                         "root.scrollToRect: not allowed together with scrollToPoint")
        assertLayerError(#"{"type": "scrollLayer", "scrollToRect": [0, 0, -1, 1]}"#,
                         "root.scrollToRect: width and height must be >= 0, not -1 x 1")
        assertLayerError(#"{"type": "scrollLayer", "scrollToPoint": [0]}"#,
                         "root.scrollToPoint: expected [x, y] (2 numbers), found 1 element")
    }
}

/// `visibleRect` samples: read off the presentation tree of the whole scene, so a scroll
/// animated through `bounds.origin` moves it.
final class VisibleRectSampleTests: XCTestCase {
    /// A 100 × 50 scroll layer whose origin is animated from (0, 0) to (100, 0) over 1 s, over a
    /// 40 × 40 sublayer at (80, 0): at 0.5 s the origin is (50, 0) and the sublayer's (80…120)
    /// meets the view (50…150) in all of it, (0, 0, 40, 40); at 0 s in 80…100, (0, 0, 20, 40).
    func testVisibleRectFollowsAnAnimatedScroll() throws {
        let scene = try readScene(sceneText(root: """
            {"type": "scrollLayer", "frame": [0, 0, 100, 50],
             "animations": [{"type": "basic", "keyPath": "bounds.origin", "fromValue": [0, 0], "toValue": [100, 0], "duration": 1}],
             "sublayers": [{"name": "content", "frame": [80, 0, 40, 40]}]}
            """, extra: """
            "samples": [{"time": 0.5, "layer": "content", "keyPath": "visibleRect", "value": [0, 0, 40, 40]},
                        {"time": 0, "layer": "content", "keyPath": "visibleRect", "value": [0, 0, 20, 40]},
                        {"time": 0, "layer": "content", "keyPath": "visibleRect", "value": [0, 0, 40, 40]}]
            """))
        XCTAssertEqual(scene.samples.map { scene.check($0).passed }, [true, true, false])
        let again = try Scene(data: try scene.jsonData(), baseDirectory: "", fileName: "again.json")
        XCTAssertEqual(again.samples.map(\.keyPath), ["visibleRect", "visibleRect", "visibleRect"])
    }
}
