import Foundation
@testable import LayerKitScene
import LayerCompositor
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// Scene files with `tiledLayer`s (docs/scene-format.md, "tiledLayer"): the fields read into
/// the Swift properties, each error with its exact message, the drawing budget of the finest
/// level, and an exact round trip through the writer.
final class SceneTiledLayerTests: XCTestCase {
    private func assertError(_ root: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try readScene(sceneText(root: root)), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    private let tiled = #"""
    {"type": "tiledLayer", "name": "map", "frame": [0, 0, 2048, 1024], "contentsScale": 2,
     "tileSize": [512, 128], "levelsOfDetail": 4, "levelsOfDetailBias": 1,
     "drawing": [{"op": "setFillColor", "color": "#FF0000"}, {"op": "fill", "rect": [0, 0, 100, 100]}]}
    """#

    func testEveryFieldIsReadAndTheDrawingRunsPerTile() throws {
        let scene = try readScene(sceneText(root: tiled))
        let l = try XCTUnwrap(scene.root as? CATiledLayer)
        XCTAssertEqual(l.tileSize, CGSize(width: 512, height: 128))
        XCTAssertEqual([l.levelsOfDetail, l.levelsOfDetailBias], [4, 1])
        XCTAssertNotNil(l.sceneDrawing)
        // The 100-point canvas at scale 1 (σ 1, r 0.5): j = 1 − ⌈−1 − 1e−6⌉ = 2, D = 2 · 2^(1−2)
        // = 1: 100 x 100 pixels visible, one 512 x 128 tile.
        _ = Compositor.displayList(for: scene)
        XCTAssertEqual(l.tileStore.keptTiles(level: 2), [0])
        XCTAssertEqual(l.tileStore.tileCount, 1)
        let plain = try readScene(sceneText(root: #"{"type": "tiledLayer"}"#)).root as? CATiledLayer
        XCTAssertEqual(plain?.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(plain?.levelsOfDetail, 1)
    }

    func testTheWriterRoundTripsExactly() throws {
        let read = try readScene(sceneText(root: tiled))
        let written = try read.jsonData()
        let text = String(decoding: written, as: UTF8.self)
        let again = try Scene(data: written, baseDirectory: "", fileName: "again.json")
        let a = try XCTUnwrap(again.root as? CATiledLayer), b = try XCTUnwrap(read.root as? CATiledLayer)
        XCTAssertEqual([a.levelsOfDetail, a.levelsOfDetailBias], [b.levelsOfDetail, b.levelsOfDetailBias])
        XCTAssertEqual(a.tileSize, b.tileSize)
        XCTAssertNotNil(again.root.sceneDrawing)
        XCTAssertEqual(String(decoding: try again.jsonData(), as: UTF8.self), text)
        XCTAssertTrue(text.contains("tiledLayer"))
        // Values the format cannot hold are refused by the writer, naming the field.
        b.tileSize = CGSize(width: 0, height: 256)
        XCTAssertThrowsError(try read.jsonData()) {
            XCTAssertEqual("\($0)", "test.json: root.tileSize[0]: must be a whole number from 1 to 4096, not 0")
        }
        b.tileSize = CGSize(width: 256, height: 256)
        b.levelsOfDetailBias = -1
        XCTAssertThrowsError(try read.jsonData()) {
            XCTAssertEqual("\($0)", "test.json: root.levelsOfDetailBias: must be a whole number from 0 to 63, not -1")
        }
    }

    func testErrorsNameTheFieldAndTheRule() {
        let t = #"{"type": "tiledLayer", "#
        assertError(t + #""tileSize": [0, 256]}"#, "root.tileSize[0]: must be a whole number from 1 to 4096, not 0")
        assertError(t + #""tileSize": [256, 0.5]}"#, "root.tileSize[1]: must be a whole number from 1 to 4096, not 0.5")
        assertError(t + #""tileSize": [4097, 1]}"#, "root.tileSize[0]: must be a whole number from 1 to 4096, not 4097")
        assertError(t + #""tileSize": [256]}"#, "root.tileSize: expected [w, h] (2 numbers), found 1 element")
        assertError(t + #""levelsOfDetail": 1000000}"#, "root.levelsOfDetail: must be a whole number from 1 to 64, not 1000000")
        assertError(t + #""levelsOfDetail": 0}"#, "root.levelsOfDetail: must be a whole number from 1 to 64, not 0")
        assertError(t + #""levelsOfDetailBias": -1}"#, "root.levelsOfDetailBias: must be a whole number from 0 to 63, not -1")
        assertError(t + #""levelsOfDetailBias": 1.5}"#, "root.levelsOfDetailBias: must be a whole number from 0 to 63, not 1.5")
        assertError(#"{"type": "replicatorLayer", "tileSize": [1, 1]}"#, "root.tileSize: unknown field for a replicatorLayer")
        assertError(#"{"tileSize": [1, 1]}"#, "root.tileSize: unknown field for a layer")
        assertError(t + #""instanceCount": 2}"#, "root.instanceCount: unknown field for a tiledLayer")
        assertError(t + #""animations": [{"type": "basic", "keyPath": "tileSize", "toValue": [1, 1]}]}"#,
                    #"root.animations[0].keyPath: unknown or not yet animatable key path "tileSize""#)
    }

    /// Level 0 is the finest: 2048 points at contentsScale 1 with bias 4 is 32,768 pixels a
    /// side, over 16,384; with bias 2 it is 8,192 a side, 67,108,864 pixels, the whole budget,
    /// so a second such layer goes over it.
    func testTheFinestLevelCountsAgainstTheDrawingBudget() {
        let big = #"{"type": "tiledLayer", "frame": [0, 0, 2048, 2048], "levelsOfDetailBias": BIAS, "drawing": []}"#
        assertError(big.replacingOccurrences(of: "BIAS", with: "4"),
                    "root.drawing: the drawing's bitmap would be 32768 x 32768 pixels (bounds x contentsScale x 2^levelsOfDetailBias), "
                        + "over the limit of 16384 pixels a side")
        let two = big.replacingOccurrences(of: "BIAS", with: "2")
        XCTAssertNoThrow(try readScene(sceneText(root: two)))
        assertError(#"{"sublayers": [\#(two), \#(two)]}"#,
                    "root.sublayers[1].drawing: the drawing's bitmap of 8192 x 8192 pixels (bounds x contentsScale x 2^levelsOfDetailBias) "
                        + "brings the scene's drawings to 134217728 pixels, over the budget of 67108864 (256 MiB) for all of them")
    }
}
