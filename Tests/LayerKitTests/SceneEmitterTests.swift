import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// Scene files with `emitterLayer`s (docs/scene-format.md, "emitterLayer"): every field read
/// into the Swift properties, each error with its exact message, the bound on live particles,
/// and an exact round trip through the writer.
final class SceneEmitterTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SceneEmitterTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)).writePNG(to: directory.appendingPathComponent("spark.png").path)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func scene(_ root: String) throws -> Scene {
        try readScene(sceneText(root: root, extra: #""images": {"spark": "spark.png"}"#), directory: directory.path)
    }

    private func assertError(_ root: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try scene(root), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    private let fire = #"""
    {"type": "emitterLayer", "name": "fire", "frame": [0, 0, 100, 100], "renderMode": "additive",
     "emitterPosition": [50, 60], "emitterZPosition": 2, "emitterSize": [10, 20], "emitterDepth": 3,
     "emitterShape": "circle", "emitterMode": "outline", "seed": 4294967295,
     "birthRate": 2, "lifetime": 0.5, "velocity": 3, "scale": 0.25, "spin": 4,
     "emitterCells": [
       {"name": "flame", "contents": "spark", "birthRate": 150, "lifetime": 5, "lifetimeRange": 1,
        "color": [1, 0.5, 0.1, 1], "alphaSpeed": -0.4, "velocity": 50, "velocityRange": 50,
        "emissionRange": 6.283185307179586, "emissionLongitude": -1.5, "emissionLatitude": 0.5,
        "xAcceleration": 1, "yAcceleration": 2, "zAcceleration": 3, "scale": 0.5, "scaleRange": 0.1, "scaleSpeed": -0.1,
        "spin": 1, "spinRange": 2, "redRange": 0.1, "greenRange": 0.2, "blueRange": 0.3, "alphaRange": 0.4,
        "redSpeed": 0.5, "greenSpeed": 0.6, "blueSpeed": 0.7, "contentsRect": [0, 0, 0.5, 1], "contentsScale": 2,
        "magnificationFilter": "nearest", "minificationFilter": "trilinear"},
       {"isEnabled": false, "color": null}
     ]}
    """#

    func testEveryFieldIsRead() throws {
        let l = try XCTUnwrap(try scene(fire).root as? CAEmitterLayer)
        XCTAssertEqual(l.renderMode, .additive)
        XCTAssertEqual(l.emitterPosition, CGPoint(x: 50, y: 60))
        XCTAssertEqual(l.emitterZPosition, 2)
        XCTAssertEqual(l.emitterSize, CGSize(width: 10, height: 20))
        XCTAssertEqual(l.emitterDepth, 3)
        XCTAssertEqual(l.emitterShape, .circle)
        XCTAssertEqual(l.emitterMode, .outline)
        XCTAssertEqual(l.seed, 4_294_967_295)
        XCTAssertEqual([l.birthRate, l.lifetime, l.velocity, l.scale, l.spin], [2, 0.5, 3, 0.25, 4])
        let cells = try XCTUnwrap(l.emitterCells)
        XCTAssertEqual(cells.count, 2)
        let c = cells[0]
        XCTAssertEqual(c.name, "flame")
        XCTAssertNotNil(c.contents)
        XCTAssertEqual([c.birthRate, c.lifetime, c.lifetimeRange, c.alphaSpeed], [150, 5, 1, -0.4])
        XCTAssertEqual(c.color, CGColor(red: 1, green: 0.5, blue: 0.1, alpha: 1))
        XCTAssertEqual([c.velocity, c.velocityRange, c.emissionRange, c.emissionLongitude, c.emissionLatitude],
                       [50, 50, 6.283185307179586, -1.5, 0.5])
        XCTAssertEqual([c.xAcceleration, c.yAcceleration, c.zAcceleration, c.scale, c.scaleRange, c.scaleSpeed, c.spin, c.spinRange],
                       [1, 2, 3, 0.5, 0.1, -0.1, 1, 2])
        XCTAssertEqual([c.redRange, c.greenRange, c.blueRange, c.alphaRange, c.redSpeed, c.greenSpeed, c.blueSpeed],
                       [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
        XCTAssertEqual(c.contentsRect, CGRect(x: 0, y: 0, width: 0.5, height: 1))
        XCTAssertEqual(c.contentsScale, 2)
        XCTAssertEqual(c.magnificationFilter, .nearest)
        XCTAssertEqual(c.minificationFilter, .trilinear)
        XCTAssertFalse(cells[1].isEnabled)
        XCTAssertNil(cells[1].color, "null is opaque white, as the property's nil")
        let defaults = try XCTUnwrap(try scene(#"{"type": "emitterLayer"}"#).root as? CAEmitterLayer)
        XCTAssertEqual(defaults.style, EmitterStyle())
        XCTAssertEqual(try XCTUnwrap(try scene(#"{"type": "emitterLayer", "emitterCells": [{}]}"#).root as? CAEmitterLayer).style.cells,
                       [EmitterCellProperties()])
    }

    func testTheWriterRoundTripsExactly() throws {
        let read = try scene(fire)
        let written = try read.jsonData()
        let again = try Scene(data: written, baseDirectory: directory.path, fileName: "again.json")
        // Images compare by identity, and each reading decodes its own.
        func withoutImages(_ l: CALayer) -> EmitterStyle? {
            guard var s = (l as? CAEmitterLayer)?.style else { return nil }
            XCTAssertNotNil(s.cells[0].contents)
            for i in s.cells.indices { s.cells[i].contents = nil }
            return s
        }
        XCTAssertEqual(withoutImages(again.root), withoutImages(read.root))
        XCTAssertEqual(String(decoding: try again.jsonData(), as: UTF8.self), String(decoding: written, as: UTF8.self))
        XCTAssertTrue(String(decoding: written, as: UTF8.self).contains(#""contents" : "spark""#)
                          || String(decoding: written, as: UTF8.self).contains(#""contents": "spark""#))
        // A shape the format cannot spell is refused by the writer, naming the field.
        let l = try XCTUnwrap(read.root as? CAEmitterLayer)
        l.emitterShape = .sphere
        XCTAssertThrowsError(try read.jsonData()) {
            XCTAssertEqual("\($0)", "test.json: root.emitterShape: emitterShape \"sphere\" has no spelling in scene files")
        }
    }

    func testErrorsNameTheFieldAndTheRule() {
        let e = #"{"type": "emitterLayer", "#
        assertError(e + #""emitterShape": "sphere"}"#,
                    #"root.emitterShape: unknown value "sphere"; expected one of "point", "line", "rectangle", "circle""#)
        assertError(e + #""emitterShape": "cuboid"}"#,
                    #"root.emitterShape: unknown value "cuboid"; expected one of "point", "line", "rectangle", "circle""#)
        assertError(e + #""preservesDepth": true}"#, "root.preservesDepth: an emitterLayer with preservesDepth true is not supported")
        assertError(e + #""emitterCells": [{}, {"emitterCells": []}]}"#, "root.emitterCells[1].emitterCells: unknown field for an emitter cell")
        assertError(e + #""emitterCells": [{"contents": "flame"}]}"#, #"root.emitterCells[0].contents: no image named "flame" in images"#)
        assertError(e + #""emitterCells": [{"birthRate": -1}]}"#, "root.emitterCells[0].birthRate: must be >= 0, not -1")
        assertError(e + #""emitterCells": [{"birthRate": 1e40}]}"#,
                    "root.emitterCells[0].birthRate: number out of range for a single-precision value")
        assertError(e + #""emitterCells": [{"contentsRect": [0, 0, 0, 1]}]}"#, "root.emitterCells[0].contentsRect: w and h must be > 0, not 0 x 1")
        assertError(e + #""emitterSize": [-1, 0]}"#, "root.emitterSize: w and h must be >= 0, not -1 x 0")
        assertError(e + #""emitterDepth": -1}"#, "root.emitterDepth: must be >= 0, not -1")
        assertError(e + #""seed": -1}"#, "root.seed: must be a whole number from 0 to 4294967295, not -1")
        assertError(e + #""seed": 4294967296}"#, "root.seed: must be a whole number from 0 to 4294967295, not 4294967296")
        assertError(e + #""seed": 0.5}"#, "root.seed: must be a whole number from 0 to 4294967295, not 0.5")
        assertError(e + #""renderMode": "add"}"#,
                    #"root.renderMode: unknown value "add"; expected one of unordered, oldestFirst, oldestLast, backToFront, additive"#)
        assertError(#"{"emitterCells": []}"#, "root.emitterCells: unknown field for a layer")
        assertError(e + #""animations": [{"type": "basic", "keyPath": "birthRate", "toValue": 2}]}"#,
                    "root.animations[0].keyPath: an emitterLayer's own fields are not animatable in scene files")
    }

    func testCellsThatCouldHaveTooManyParticlesAliveAreRefused() {
        let e = #"{"type": "emitterLayer", "emitterCells": "#
        // ⌈4 · 59999.75⌉ + 1 = 240000.
        assertError(e + #"[{"birthRate": 4, "lifetime": 59999.75}]}"#, "root.emitterCells: up to 240000 particles alive at once; at most 100000")
        // The issue's birthRate 1e12: refused from the numbers, before a particle is made.
        assertError(e + #"[{"birthRate": 1e12, "lifetime": 1}]}"#,
                    "root.emitterCells: up to 999999995905 particles alive at once; at most 100000")
        // 100,000 exactly is allowed: ⌈99999 · 1⌉ + 1; the layer's lifetime multiplies.
        XCTAssertNoThrow(try scene(e + #"[{"birthRate": 99999, "lifetime": 1}]}"#))
        assertError(#"{"type": "emitterLayer", "lifetime": 2, "emitterCells": [{"birthRate": 99999, "lifetime": 1}]}"#,
                    "root.emitterCells: up to 199999 particles alive at once; at most 100000")
    }
}
