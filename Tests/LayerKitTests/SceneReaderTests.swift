import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// Reading scene files (`scene-format.md`): every field's default and spelling, the `frame`
/// shorthand, transform operation order, images, probes, and one test per rule the strict
/// reader enforces, each with its exact one-line message.
final class SceneReaderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SceneReaderTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("img"), withIntermediateDirectories: true)
        try Bitmap(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255]).writePNG(to: directory.appendingPathComponent("img/red.png").path)
        try Data("not a png".utf8).write(to: directory.appendingPathComponent("img/corrupt.png"))
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func root(_ layer: String) throws -> CALayer { try readScene(sceneText(root: layer)).root }

    /// Reading `text` fails with exactly `message` after "test.json: ".
    private func assertError(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try readScene(text, directory: directory.path), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    /// Reading a scene whose root layer is `layer` fails with `message`.
    private func assertLayerError(_ layer: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        assertError(sceneText(root: layer), message, file: file, line: line)
    }

    private func assertTransform(_ a: CATransform3D, _ b: CATransform3D, accuracy: CGFloat = 1e-12,
                                 file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.entries, b.entries) { XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line) }
    }

    // MARK: Defaults and fields

    func testDefaultsAreCoreAnimations() throws {
        let scene = try readScene(sceneText(root: "{}"))
        XCTAssertTrue(type(of: scene.root) == CALayer.self)
        XCTAssertEqual(scene.root.properties, LayerProperties())
        XCTAssertEqual(scene.canvas, Canvas(width: 100, height: 100, scale: 1, background: nil))
        XCTAssertEqual(scene.images, [:])
        XCTAssertEqual(scene.probes, [])
        XCTAssertEqual(scene.warnings, [])
        XCTAssertEqual(scene.fileName, "test.json")
        XCTAssertNil(scene.root.sublayers)
        XCTAssertNil(scene.root.mask)
        XCTAssertTrue(try root(#"{"type": "transformLayer"}"#) is CATransformLayer)
        XCTAssertEqual(try XCTUnwrap(root(#"{"type": "shapeLayer"}"#) as? CAShapeLayer).style, ShapeStyle())
        XCTAssertEqual(try XCTUnwrap(root(#"{"type": "gradientLayer"}"#) as? CAGradientLayer).style, GradientStyle())
        XCTAssertEqual(try XCTUnwrap(root(#"{"type": "textLayer"}"#) as? CATextLayer).style, TextStyle())
        XCTAssertTrue(type(of: try root(#"{"type": "layer"}"#)) == CALayer.self)
    }

    /// Every stored property of the model has a scene field (contents, needing the image table,
    /// is read by the reader itself), so a property added to the model cannot be forgotten.
    func testEveryModelPropertyHasAField() {
        XCTAssertEqual(Mirror(reflecting: LayerProperties()).children.count, commonLayerFields.fields.count + 1)
        XCTAssertEqual(Mirror(reflecting: ShapeStyle()).children.count, shapeLayerFields.fields.count)
        XCTAssertEqual(Mirror(reflecting: GradientStyle()).children.count, gradientLayerFields.fields.count)
        XCTAssertEqual(Mirror(reflecting: TextStyle()).children.count, textLayerFields.fields.count)
    }

    func testEveryCommonFieldIsRead() throws {
        let layer = try root("""
            {"name": "n", "bounds": [1, 2, 30, 40], "position": [5, 6], "anchorPoint": [0, 1], "anchorPointZ": 7,
             "zPosition": 8, "transform": [{"translate": [1, 2, 3]}], "sublayerTransform": [{"scale": [2, 3, 4]}],
             "hidden": true, "opacity": 0.25, "allowsGroupOpacity": false, "backgroundColor": "#FF000080",
             "cornerRadius": 4, "maskedCorners": ["layerMaxXMaxYCorner", "layerMinXMinYCorner"], "cornerCurve": "continuous",
             "borderWidth": 2, "borderColor": null, "masksToBounds": true, "doubleSided": false,
             "geometryFlipped": true, "contentsGravity": "topLeft", "contentsScale": 2, "contentsRect": [0, 0, 0.5, 0.5],
             "contentsCenter": [0.25, 0.25, 0.5, 0.5], "minificationFilter": "trilinear", "magnificationFilter": "nearest",
             "allowsEdgeAntialiasing": true, "shadowColor": [0, 0, 1, 1], "shadowOpacity": 0.5, "shadowOffset": [3, 4],
             "shadowRadius": 6, "shadowPath": {"rect": [0, 0, 10, 10]}, "shouldRasterize": true, "rasterizationScale": 3}
            """)
        var p = LayerProperties()
        p.name = "n"
        p.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        p.position = CGPoint(x: 5, y: 6)
        p.anchorPoint = CGPoint(x: 0, y: 1)
        p.anchorPointZ = 7
        p.zPosition = 8
        p.transform = CATransform3DMakeTranslation(1, 2, 3)
        p.sublayerTransform = CATransform3DMakeScale(2, 3, 4)
        p.isHidden = true
        p.opacity = 0.25
        p.allowsGroupOpacity = false
        p.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)
        p.cornerRadius = 4
        p.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        p.cornerCurve = .continuous
        p.borderWidth = 2
        p.borderColor = nil
        p.masksToBounds = true
        p.isDoubleSided = false
        p.isGeometryFlipped = true
        p.contentsGravity = .topLeft
        p.contentsScale = 2
        p.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
        p.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        p.minificationFilter = .trilinear
        p.magnificationFilter = .nearest
        p.allowsEdgeAntialiasing = true
        p.shadowColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        p.shadowOpacity = 0.5
        p.shadowOffset = CGSize(width: 3, height: 4)
        p.shadowRadius = 6
        p.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        p.shouldRasterize = true
        p.rasterizationScale = 3
        XCTAssertEqual(layer.properties, p)
    }

    func testShapeLayerFields() throws {
        let layer = try XCTUnwrap(root("""
            {"type": "shapeLayer", "path": "M 0 0 L 10 0 L 10 10 Z", "fillColor": null, "fillRule": "evenOdd",
             "strokeColor": "#0000FF", "lineWidth": 3, "lineCap": "round", "lineJoin": "bevel", "miterLimit": 4,
             "lineDashPattern": [5, 2.5], "lineDashPhase": 1, "strokeStart": 0.25, "strokeEnd": 0.75}
            """) as? CAShapeLayer)
        var s = ShapeStyle()
        s.path = CGPath(elements: [.moveTo(CGPoint(x: 0, y: 0)), .lineTo(CGPoint(x: 10, y: 0)), .lineTo(CGPoint(x: 10, y: 10)), .closeSubpath])
        s.fillColor = nil
        s.fillRule = .evenOdd
        s.strokeColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        s.lineWidth = 3
        s.lineCap = .round
        s.lineJoin = .bevel
        s.miterLimit = 4
        s.lineDashPattern = [5, 2.5]
        s.lineDashPhase = 1
        s.strokeStart = 0.25
        s.strokeEnd = 0.75
        XCTAssertEqual(layer.style, s)
    }

    func testGradientLayerFields() throws {
        let layer = try XCTUnwrap(root("""
            {"type": "gradientLayer", "colors": ["#FF0000", [0, 1, 0, 0.5]], "locations": [0.2, 0.8],
             "startPoint": [0, 0], "endPoint": [1, 1], "gradientType": "conic"}
            """) as? CAGradientLayer)
        var g = GradientStyle()
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)]
        g.locations = [0.2, 0.8]
        g.startPoint = CGPoint(x: 0, y: 0)
        g.endPoint = CGPoint(x: 1, y: 1)
        g.type = .conic
        XCTAssertEqual(layer.style, g)
    }

    func testTextLayerFields() throws {
        let layer = try XCTUnwrap(root("""
            {"type": "textLayer", "string": "北", "fontSize": 12, "font": "DejaVu Sans", "foregroundColor": "#000000",
             "alignmentMode": "justified", "isWrapped": true, "truncationMode": "middle"}
            """) as? CATextLayer)
        var t = TextStyle()
        t.string = "北"
        t.fontSize = 12
        t.font = "DejaVu Sans"
        t.foregroundColor = .black
        t.alignmentMode = .justified
        t.isWrapped = true
        t.truncationMode = .middle
        XCTAssertEqual(layer.style, t)
    }

    func testColorSpellings() throws {
        func color(_ json: String) throws -> CGColor? { try root(#"{"backgroundColor": \#(json)}"#).backgroundColor }
        XCTAssertEqual(try color(##""#FF8000""##), CGColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
        XCTAssertEqual(try color(##""#ff800040""##), CGColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 64.0 / 255))
        XCTAssertEqual(try color("[0.1, 0.2, 0.3, 0.4]"), CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        XCTAssertNil(try color("null"))
        XCTAssertNil(try root(#"{"shadowColor": null}"#).shadowColor)
    }

    func testPathSpellings() throws {
        func path(_ json: String) throws -> CGPath? { try root(#"{"shadowPath": \#(json)}"#).shadowPath }
        let r = CGRect(x: 1, y: 2, width: 30, height: 40)
        XCTAssertEqual(try path(#"{"rect": [1, 2, 30, 40]}"#), CGPath(rect: r))
        XCTAssertEqual(try path(#"{"ellipse": [1, 2, 30, 40]}"#), CGPath(ellipseIn: r))
        XCTAssertEqual(try path(#"{"roundedRect": [1, 2, 30, 40, 5]}"#), CGPath(roundedRect: r, cornerWidth: 5, cornerHeight: 5, transform: nil))
        XCTAssertEqual(try path(#""M 1 2 h 30 v 40 h -30 z""#), CGPath(rect: r))
    }

    // MARK: frame

    func testFramePlacesTheLayerByItsOwnAnchorPoint() throws {
        let centred = try root(#"{"frame": [10, 20, 100, 50]}"#)
        XCTAssertEqual(centred.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(centred.position, CGPoint(x: 60, y: 45))
        // The anchor point applies wherever it is written in the object.
        let anchored = try root(#"{"frame": [10, 20, 100, 50], "anchorPoint": [0, 1]}"#)
        XCTAssertEqual(anchored.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(anchored.position, CGPoint(x: 10, y: 70))
        XCTAssertEqual(anchored.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
        // The transform then applies about the anchor point: the frame getter sees it.
        let turned = try root(#"{"frame": [0, 0, 100, 50], "transform": [{"rotate": [90, 0, 0, 1]}]}"#)
        XCTAssertEqual(turned.position, CGPoint(x: 50, y: 25))
        XCTAssertEqual(turned.frame.size.width, 50, accuracy: 1e-9)
    }

    func testFrameExcludesBoundsAndPosition() {
        assertLayerError(#"{"bounds": [0, 0, 1, 1], "frame": [0, 0, 10, 10]}"#,
                         "root.frame: not allowed together with bounds (frame sets both bounds and position)")
        assertLayerError(#"{"frame": [0, 0, 10, 10], "position": [1, 1]}"#,
                         "root.frame: not allowed together with position (frame sets both bounds and position)")
        assertLayerError(#"{"frame": [0, 0, -10, 10]}"#, "root.frame: width and height must be >= 0, not -10 x 10")
    }

    // MARK: Transforms

    /// `[{"perspective": 500}, {"rotate": [45, 0, 1, 0]}]` is Listing 5.5:
    /// `t = Identity; t.m34 = -1/500; t = CATransform3DRotate(t, M_PI_4, 0, 1, 0)`.
    func testOperationsComposeInProgramOrderListing55() throws {
        let layer = try root(#"{"transform": [{"perspective": 500}, {"rotate": [45, 0, 1, 0]}]}"#)
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        t = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
        assertTransform(layer.transform, t)
    }

    /// Listing 5.2: `t = Scale(I, 0.5); t = Rotate(t, 30°); t = Translate(t, 200, 0)` is the
    /// list `[scale, rotate, translate]`: the translation acts first, so the anchor travels
    /// 200 pt right, turns 30° clockwise and halves, landing at (86.60, 50.00) from the
    /// position, not 200 pt to the right. The reverse list is the reverse program.
    func testCompositeTransformOfTheBook() throws {
        let program = try root(#"{"transform": [{"scale": [0.5, 0.5, 1]}, {"rotate": [30, 0, 0, 1]}, {"translate": [200, 0, 0]}]}"#).transform
        var t = CATransform3DScale(CATransform3DIdentity, 0.5, 0.5, 1)
        t = CATransform3DRotate(t, .pi / 6, 0, 0, 1)
        t = CATransform3DTranslate(t, 200, 0, 0)
        assertTransform(program, t)
        let anchor = program.apply(x: 0, y: 0, z: 0)
        XCTAssertEqual(anchor.x, 86.60, accuracy: 0.01)
        XCTAssertEqual(anchor.y, 50.00, accuracy: 0.01)

        let reversed = try root(#"{"transform": [{"translate": [200, 0, 0]}, {"rotate": [30, 0, 0, 1]}, {"scale": [0.5, 0.5, 1]}]}"#).transform
        let moved = reversed.apply(x: 0, y: 0, z: 0)
        XCTAssertEqual(moved.x, 200, accuracy: 1e-9)
        XCTAssertEqual(moved.y, 0, accuracy: 1e-9)

        // The seed scene of the listing writes the program order.
        let seed = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/5.2-composite.json").path)
        assertTransform(try XCTUnwrap(seed.root.sublayers?.first).transform, t)
    }

    func testEachOperation() throws {
        func transform(_ json: String) throws -> CATransform3D { try root(#"{"transform": \#(json)}"#).transform }
        XCTAssertEqual(try transform(#"[{"translate": [1, 2, 3]}]"#), CATransform3DMakeTranslation(1, 2, 3))
        XCTAssertEqual(try transform(#"[{"scale": [0.5, 2, 3]}]"#), CATransform3DMakeScale(0.5, 2, 3))
        XCTAssertEqual(try transform(#"[{"rotate": [90, 0, 0, 1]}]"#), CATransform3DMakeRotation(90 * .pi / 180, 0, 0, 1))
        XCTAssertEqual(try transform(#"[{"rotate": [30, 0, 0, 0]}]"#), .identity, "a zero axis is the identity")
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 250
        XCTAssertEqual(try transform(#"[{"perspective": 250}]"#), p)
        XCTAssertEqual(try transform(#"[{"affine": [1, 0, -1, 1, 5, 6]}]"#),
                       CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 0, c: -1, d: 1, tx: 5, ty: 6)))
        let m: [CGFloat] = (1...16).map { CGFloat($0) }
        let matrix = "[" + m.map { "\(Int($0))" }.joined(separator: ", ") + "]"
        XCTAssertEqual(try transform(#"{"matrix": \#(matrix)}"#), CATransform3D(m))
        XCTAssertEqual(try transform(#"[{"matrix": \#(matrix)}]"#), CATransform3D(m))
        XCTAssertEqual(try transform("[]"), .identity)
        XCTAssertEqual(try root(#"{"sublayerTransform": [{"translate": [1, 2, 3]}]}"#).sublayerTransform,
                       CATransform3DMakeTranslation(1, 2, 3))
    }

    // MARK: Images, tree, probes

    func testImagesAreDecodedOnceAndShared() throws {
        let scene = try readScene(sceneText(root: #"{"contents": "red", "sublayers": [{"contents": "red"}]}"#,
                                             extra: #""images": {"red": "img/red.png"}"#), directory: directory.path)
        XCTAssertEqual(scene.images, ["red": "img/red.png"])
        let image = try XCTUnwrap(scene.decodedImages["red"])
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.bitmap[0, 0].r, 255)
        XCTAssertTrue(scene.root.contents === image)
        XCTAssertTrue(scene.root.sublayers?.first?.contents === image)
    }

    func testImagePathsAreRelativeToTheSceneFile() throws {
        let path = directory.appendingPathComponent("scene.json").path
        try Data(sceneText(root: #"{"contents": "red"}"#, extra: #""images": {"red": "img/red.png"}"#).utf8)
            .write(to: URL(fileURLWithPath: path))
        let scene = try Scene(contentsOfFile: path)
        XCTAssertEqual(scene.decodedImages["red"]?.width, 2)
        XCTAssertEqual(scene.baseDirectory, directory.path)
        XCTAssertEqual(scene.fileName, path)
    }

    func testMaskAndSublayers() throws {
        let layer = try root(#"{"mask": {"name": "m"}, "sublayers": [{"name": "a"}, {"name": "b", "sublayers": []}]}"#)
        XCTAssertEqual(layer.mask?.name, "m")
        XCTAssertTrue(layer.mask?.superlayer === layer)
        XCTAssertEqual(layer.sublayers?.map(\.name), ["a", "b"])
        XCTAssertNil(layer.sublayers?[1].sublayers)
    }

    func testProbes() throws {
        let scene = try readScene(sceneText(root: #"{"name": "root", "frame": [0, 0, 100, 100]}"#,
                                             extra: #""probes": [{"point": [50, 50], "hit": "root"}, {"hit": null, "point": [150.5, 0]}]"#))
        XCTAssertEqual(scene.probes, [Scene.Probe(point: CGPoint(x: 50, y: 50), hit: "root"),
                                      Scene.Probe(point: CGPoint(x: 150.5, y: 0), hit: nil)])
        let results = scene.probes.map(scene.check)
        XCTAssertEqual(results.map(\.passed), [true, true])
        XCTAssertEqual(results.map(\.description), ["probe (50, 50): expected root, got root: ok",
                                                    "probe (150.5, 0): expected none, got none: ok"])
        let failing = scene.check(Scene.Probe(point: CGPoint(x: 1, y: 1), hit: "other"))
        XCTAssertEqual(failing.description, "probe (1, 1): expected other, got root: FAIL")
    }

    func testHitTestPathsAndCounts() throws {
        let scene = try readScene(sceneText(root: """
            {"frame": [0, 0, 100, 100], "sublayers": [
              {"frame": [0, 0, 50, 50], "mask": {"frame": [0, 0, 50, 50]}},
              {"frame": [50, 50, 50, 50], "sublayers": [{"name": "deep", "frame": [0, 0, 10, 10]}]}]}
            """))
        XCTAssertEqual(scene.layerCount, 5)
        XCTAssertEqual(scene.depth, 3)
        XCTAssertEqual(scene.describe(scene.hitTest(CGPoint(x: 10, y: 10))), "root.sublayers[0]")
        XCTAssertEqual(scene.describe(scene.hitTest(CGPoint(x: 55, y: 55))), "deep")
        XCTAssertEqual(scene.describe(scene.hitTest(CGPoint(x: 90, y: 90))), "root.sublayers[1]")
        XCTAssertEqual(scene.describe(scene.hitTest(CGPoint(x: 90, y: 10))), "root")
        XCTAssertEqual(scene.describe(scene.hitTest(CGPoint(x: 190, y: 10))), "none")
        let mask = try XCTUnwrap(scene.root.sublayers?[0].mask)
        XCTAssertEqual(scene.path(of: mask), "root.sublayers[0].mask")
        XCTAssertNil(scene.path(of: CALayer()))
    }

    func testTransformLayerWarnsAboutWhatItIgnores() throws {
        let scene = try readScene(sceneText(root: """
            {"sublayers": [{"type": "transformLayer", "backgroundColor": "#FF0000", "opacity": 0.5, "masksToBounds": true,
                            "shadowOpacity": 1, "borderWidth": 1, "mask": {}}]}
            """))
        let ignored = "ignored: a transformLayer draws nothing of its own"
        XCTAssertEqual(scene.warnings, ["backgroundColor", "masksToBounds", "shadowOpacity", "borderWidth", "mask"]
            .map { "test.json: root.sublayers[0].\($0): \(ignored)" })
        XCTAssertNotNil(scene.root.sublayers?[0].mask, "accepted all the same")
    }

    // MARK: Errors

    func testFileErrors() {
        XCTAssertThrowsError(try Scene(contentsOfFile: directory.appendingPathComponent("missing.json").path)) {
            XCTAssertEqual("\($0)", directory.appendingPathComponent("missing.json").path + ": no such file")
        }
        assertError("", "not valid JSON: line 1, column 1: expected a value, found end of file")
        assertError("{\n  \"format\": \"layerkit-scene\",\n  \"version\": 1,,\n}",
                    "not valid JSON: line 3, column 16: expected a key in double quotes, found ','")
        assertError(#"{"format": "layerkit-scene", "format": "x"}"#, #"not valid JSON: line 1, column 30: duplicate key "format""#)
        // Past 16 keys the duplicate check changes hands from a scan to a set; an escaped key
        // equals the same key written plainly.
        let twenty = (0..<20).map { "\"k\($0)\": 0" }.joined(separator: ", ")
        assertError("{" + twenty + #", "k3": 1}"#, #"not valid JSON: line 1, column 192: duplicate key "k3""#)
        assertError(#"{"a\u0062": 1, "ab": 2}"#, #"not valid JSON: line 1, column 16: duplicate key "ab""#)
        assertError("[1, 2,]", "not valid JSON: line 1, column 7: expected a value, found ']'")
        assertError("[1] x", "not valid JSON: line 1, column 5: unexpected 'x' after the document")
        assertError("[01]", "not valid JSON: line 1, column 3: a number must not have a leading zero")
        assertError("[\"a\u{01}\"]", "not valid JSON: line 1, column 4: control character byte 0x01 in a string (write it as an escape)")
        assertError("[1]", "expected a scene (an object), found an array")
    }

    func testTopLevelErrors() {
        let canvas = #""canvas": {"width": 10, "height": 10}"#
        assertError(#"{"version": 1}"#, "format: required field is missing")
        assertError(#"{"format": "svg", "version": 1}"#, #"format: expected "layerkit-scene", found "svg""#)
        assertError(#"{"format": "layerkit-scene"}"#, "version: required field is missing")
        assertError(#"{"format": "layerkit-scene", "version": 2, "newField": 1}"#, "version: version 2 is newer than this reader (1)")
        assertError(#"{"format": "layerkit-scene", "version": 1.5}"#, "version: expected a whole number >= 1, found 1.5")
        assertError(#"{"format": "layerkit-scene", "version": 0}"#, "version: expected a whole number >= 1, found 0")
        assertError(#"{"format": "layerkit-scene", "version": "1"}"#, "version: expected a number, found a string")
        assertError(#"{"format": "layerkit-scene", "version": 1, "extra": 1}"#,
                    "extra: unknown field for a scene; expected one of canvas, format, images, probes, root, samples, time, timeline, version")
        assertError(#"{"format": "layerkit-scene", "version": 1, "root": {}}"#, "canvas: required field is missing")
        assertError(#"{"format": "layerkit-scene", "version": 1, \#(canvas)}"#, "root: required field is missing")
        assertError(#"{"format": "layerkit-scene", "version": 1, \#(canvas), "root": []}"#, "root: expected a layer (an object), found an array")
    }

    func testCanvasErrors() {
        func canvas(_ json: String) -> String { #"{"format": "layerkit-scene", "version": 1, "canvas": \#(json), "root": {}}"# }
        assertError(canvas(#"{"height": 10}"#), "canvas.width: required field is missing")
        assertError(canvas(#"{"width": -1, "height": 10}"#), "canvas.width: must be > 0, not -1")
        assertError(canvas(#"{"width": 10, "height": 0}"#), "canvas.height: must be > 0, not 0")
        assertError(canvas(#"{"width": 10, "height": 10, "scale": 0}"#), "canvas.scale: must be > 0, not 0")
        assertError(canvas(#"{"width": 10000, "height": 10, "scale": 2}"#),
                    "canvas.width: 10000 pt at scale 2 is 20000 px; at most 16384 px a side")
        assertError(canvas(#"{"width": 10, "height": 16385}"#), "canvas.height: 16385 pt at scale 1 is 16385 px; at most 16384 px a side")
        assertError(canvas(#"{"width": 0.4, "height": 10}"#), "canvas.width: 0.4 pt at scale 1 rounds to 0 px")
        assertError(canvas(#"{"width": 10, "height": 10, "background": "white"}"#),
                    ##"canvas.background: expected a colour "#RRGGBB" or "#RRGGBBAA", found "white""##)
        assertError(canvas(#"{"width": 10, "height": 10, "depth": 1}"#),
                    "canvas.depth: unknown field for the canvas; expected one of background, height, scale, width")
        XCTAssertNoThrow(try readScene(canvas(#"{"width": 8192, "height": 4096, "scale": 2}"#)))
    }

    func testTypeErrors() {
        assertLayerError(#"{"opacity": "1"}"#, "root.opacity: expected a number, found a string")
        assertLayerError(#"{"hidden": 1}"#, "root.hidden: expected true or false, found a number")
        assertLayerError(#"{"name": 5}"#, "root.name: expected a string, found a number")
        assertLayerError(#"{"name": null}"#, "root.name: expected a string, found null")
        assertLayerError(#"{"bounds": [0, 0, 10]}"#, "root.bounds: expected [x, y, w, h] (4 numbers), found 3 elements")
        assertLayerError(#"{"bounds": [0, 0, 10, "10"]}"#, "root.bounds[3]: expected a number, found a string")
        assertLayerError(#"{"position": {"x": 1}}"#, "root.position: expected [x, y], found an object")
        assertLayerError(#"{"sublayers": {}}"#, "root.sublayers: expected an array of layers, found an object")
        assertLayerError(#"{"sublayers": [{}, 5]}"#, "root.sublayers[1]: expected a layer (an object), found a number")
        assertLayerError(#"{"contents": 1}"#, "root.contents: expected a string, found a number")
        assertLayerError(#"{"type": "shapeLayer", "lineDashPattern": [1, true]}"#, "root.lineDashPattern[1]: expected a number, found a boolean")
    }

    func testNonFiniteNumbersAreRefused() {
        assertLayerError(#"{"zPosition": 1e999}"#, "root.zPosition: number out of range (not finite)")
        assertLayerError(#"{"sublayers": [{"transform": [{"translate": [0, -1e400, 0]}]}]}"#,
                         "root.sublayers[0].transform[0].translate[1]: number out of range (not finite)")
        assertLayerError(#"{"opacity": 1e39}"#, "root.opacity: number out of range for a single-precision value")
    }

    func testRangeErrors() {
        assertLayerError(#"{"bounds": [0, 0, -1, 5]}"#, "root.bounds: width and height must be >= 0, not -1 x 5")
        assertLayerError(#"{"opacity": 1.5}"#, "root.opacity: must be between 0 and 1, not 1.5")
        assertLayerError(#"{"shadowOpacity": -0.1}"#, "root.shadowOpacity: must be between 0 and 1, not -0.1")
        assertLayerError(#"{"cornerRadius": -2}"#, "root.cornerRadius: must be >= 0, not -2")
        assertLayerError(#"{"borderWidth": -2}"#, "root.borderWidth: must be >= 0, not -2")
        assertLayerError(#"{"shadowRadius": -2}"#, "root.shadowRadius: must be >= 0, not -2")
        assertLayerError(#"{"contentsScale": 0}"#, "root.contentsScale: must be > 0, not 0")
        assertLayerError(#"{"rasterizationScale": -1}"#, "root.rasterizationScale: must be > 0, not -1")
        assertLayerError(#"{"type": "shapeLayer", "lineWidth": -1}"#, "root.lineWidth: must be >= 0, not -1")
        assertLayerError(#"{"type": "shapeLayer", "strokeEnd": 2}"#, "root.strokeEnd: must be between 0 and 1, not 2")
        assertLayerError(#"{"type": "textLayer", "fontSize": -1}"#, "root.fontSize: must be >= 0, not -1")
    }

    /// `maskedCorners` is an array of Core Animation's corner names, each at most once;
    /// `cornerCurve` one of the two curves. Anything else is refused at its JSON path.
    func testCornerFieldErrors() throws {
        XCTAssertEqual(try root(#"{"maskedCorners": []}"#).maskedCorners, [])
        XCTAssertEqual(try root(#"{"maskedCorners": ["layerMinXMaxYCorner"]}"#).maskedCorners, [.layerMinXMaxYCorner])
        XCTAssertEqual(try root(#"{"cornerCurve": "circular"}"#).cornerCurve, .circular)
        assertLayerError(#"{"maskedCorners": "layerMinXMinYCorner"}"#,
                         "root.maskedCorners: expected an array of corner names, found a string")
        assertLayerError(#"{"maskedCorners": 15}"#, "root.maskedCorners: expected an array of corner names, found a number")
        assertLayerError(#"{"sublayers": [{"maskedCorners": ["layerMinXMinYCorner", "topLeft"]}]}"#,
                         #"root.sublayers[0].maskedCorners[1]: unknown corner "topLeft"; expected one of layerMinXMinYCorner, layerMaxXMinYCorner, layerMinXMaxYCorner, layerMaxXMaxYCorner"#)
        assertLayerError(#"{"maskedCorners": ["layerMaxXMaxYCorner", "layerMaxXMaxYCorner"]}"#,
                         #"root.maskedCorners[1]: corner "layerMaxXMaxYCorner" is listed twice"#)
        assertLayerError(#"{"maskedCorners": [1]}"#, "root.maskedCorners[0]: expected a string, found a number")
        assertLayerError(#"{"cornerCurve": "squircle"}"#,
                         #"root.cornerCurve: unknown value "squircle"; expected one of circular, continuous"#)
        assertLayerError(#"{"cornerCurve": null}"#, "root.cornerCurve: expected a string, found null")
    }

    func testEnumAndFieldNameErrors() {
        assertLayerError(#"{"type": "imageLayer"}"#,
                         #"root.type: unknown value "imageLayer"; expected one of layer, transformLayer, shapeLayer, gradientLayer, textLayer, replicatorLayer, scrollLayer, tiledLayer, emitterLayer"#)
        assertLayerError(#"{"contentsGravity": "middle"}"#,
                         #"root.contentsGravity: unknown value "middle"; expected one of center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight, resize, resizeAspect, resizeAspectFill"#)
        assertLayerError(#"{"magnificationFilter": "cubic"}"#,
                         #"root.magnificationFilter: unknown value "cubic"; expected one of linear, nearest, trilinear"#)
        assertLayerError(#"{"type": "shapeLayer", "lineCap": "flat"}"#, #"root.lineCap: unknown value "flat"; expected one of butt, round, square"#)
        assertLayerError(#"{"type": "gradientLayer", "gradientType": "linear"}"#,
                         #"root.gradientType: unknown value "linear"; expected one of axial, radial, conic"#)
        assertLayerError(##"{"sublayers": [{"colour": "#FFFFFF"}]}"##, "root.sublayers[0].colour: unknown field for a layer")
        assertLayerError(##"{"fillColor": "#FFFFFF"}"##, "root.fillColor: unknown field for a layer")
        assertLayerError(#"{"type": "textLayer", "path": "M 0 0"}"#, "root.path: unknown field for a textLayer")
        assertLayerError(#"{"mask": {"isHidden": true}}"#, "root.mask.isHidden: unknown field for a layer")
    }

    func testColorErrors() {
        assertLayerError(##"{"backgroundColor": "#FFF"}"##, ##"root.backgroundColor: expected a colour "#RRGGBB" or "#RRGGBBAA", found "#FFF""##)
        assertLayerError(##"{"backgroundColor": "#GG0000"}"##, ##"root.backgroundColor: expected a colour "#RRGGBB" or "#RRGGBBAA", found "#GG0000""##)
        assertLayerError(##"{"backgroundColor": "#+F0000"}"##, ##"root.backgroundColor: expected a colour "#RRGGBB" or "#RRGGBBAA", found "#+F0000""##)
        assertLayerError(#"{"backgroundColor": [1, 0, 0]}"#, "root.backgroundColor: expected [r, g, b, a] (4 numbers), found 3 elements")
        assertLayerError(#"{"backgroundColor": [1, 0, 0, 1.5]}"#, "root.backgroundColor[3]: colour components must be between 0 and 1, not 1.5")
        assertLayerError(#"{"backgroundColor": true}"#,
                         ##"root.backgroundColor: expected a colour ("#RRGGBB", "#RRGGBBAA" or [r, g, b, a]), found a boolean"##)
        assertLayerError(##"{"type": "gradientLayer", "colors": ["#FF0000", null]}"##,
                         ##"root.colors[1]: expected a colour ("#RRGGBB", "#RRGGBBAA" or [r, g, b, a]), found null"##)
    }

    func testTransformErrors() {
        assertLayerError(#"{"transform": [{"rotate": [1, 2, 3]}]}"#,
                         "root.transform[0].rotate: expected [degrees, x, y, z] (4 numbers), found 3 elements")
        assertLayerError(#"{"transform": [{"rotate": [45, 0, 0, 1]}, {"perspective": 0}]}"#,
                         "root.transform[1].perspective: the perspective distance must be > 0, not 0")
        assertLayerError(#"{"transform": [{"scale": [1e300, 1, 1]}, {"scale": [1e300, 1, 1]}]}"#,
                         "root.transform: the transform's matrix is not finite: its numbers overflow a Double")
        assertLayerError(#"{"shadowPath": {"rect": [1.7976931348623157e308, 0, 1e300, 1]}}"#,
                         "root.shadowPath: the path's coordinates are not finite: its numbers overflow a Double")
        assertLayerError(#"{"sublayerTransform": [{"perspective": -500}]}"#,
                         "root.sublayerTransform[0].perspective: the perspective distance must be > 0, not -500")
        assertLayerError(#"{"transform": [{"skew": [1, 2]}]}"#,
                         "root.transform[0].skew: unknown field for a transform operation; expected one of affine, matrix, perspective, rotate, scale, translate")
        assertLayerError(#"{"transform": [{"translate": [1, 2, 3], "scale": [1, 1, 1]}]}"#,
                         #"root.transform[0]: expected exactly one operation, such as {"rotate": [degrees, x, y, z]}, found 2"#)
        assertLayerError(#"{"transform": [{}]}"#, #"root.transform[0]: expected exactly one operation, such as {"rotate": [degrees, x, y, z]}, found 0"#)
        assertLayerError(#"{"transform": {"rotate": [45, 0, 0, 1]}}"#,
                         #"root.transform: a transform object must be {"matrix": [16 numbers]}; list operations in an array"#)
        assertLayerError(#"{"transform": {"matrix": [1, 0, 0, 1]}}"#,
                         "root.transform.matrix: expected [m11, m12, …, m44] (16 numbers), found 4 elements")
        assertLayerError(#"{"transform": "rotate(45deg)"}"#,
                         #"root.transform: expected a transform ({"matrix": [...]} or an array of operations), found a string"#)
        assertLayerError(#"{"transform": [[1, 0]]}"#, "root.transform[0]: expected a transform operation (an object), found an array")
    }

    func testPathErrors() {
        assertLayerError(#"{"type": "shapeLayer", "path": "M 0 0 L x"}"#,
                         "root.path: SVG path data at character 8: expected a number, found 'x'")
        assertLayerError(#"{"shadowPath": {"rect": [0, 0, -1, 1]}}"#, "root.shadowPath.rect: width and height must be >= 0, not -1 x 1")
        assertLayerError(#"{"shadowPath": {"roundedRect": [0, 0, 1, 1, -1]}}"#, "root.shadowPath.roundedRect: must be >= 0, not -1")
        assertLayerError(#"{"shadowPath": {"circle": [0, 0, 1]}}"#,
                         "root.shadowPath.circle: unknown field for a path shape; expected one of ellipse, rect, roundedRect")
        assertLayerError(#"{"shadowPath": {"rect": [0, 0, 1, 1], "ellipse": [0, 0, 1, 1]}}"#,
                         "root.shadowPath: expected exactly one shape (rect, ellipse or roundedRect), found 2")
        assertLayerError(#"{"shadowPath": [0, 0, 1, 1]}"#, "root.shadowPath: expected a path (SVG path data or a shape object), found an array")
    }

    /// A JPEG image entry is read and turned upright: the seed stored 16x8 with EXIF orientation
    /// 6 (turn 90° clockwise to view) is 8 wide and 16 tall.
    func testJPEGImageEntryIsReadUpright() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/exif-orientation-6.jpg").path
        let text = sceneText(root: #"{"contents": "photo"}"#, extra: #""images": {"photo": "\#(seed)"}"#)
        let scene = try readScene(text, directory: directory.path)
        let image = try XCTUnwrap(scene.root.contents)
        XCTAssertEqual([image.width, image.height], [8, 16])
    }

    func testImageErrors() {
        func scene(_ images: String, root: String = "{}") -> String { sceneText(root: root, extra: #""images": \#(images)"#) }
        let missing = directory.appendingPathComponent("img/missing.png").path
        assertError(scene(#"{"cat": "img/missing.png"}"#), "images.cat: \(missing): no such file")
        XCTAssertThrowsError(try readScene(scene(#"{"bad": "img/corrupt.png"}"#), directory: directory.path)) {
            XCTAssertTrue("\($0)".hasPrefix("test.json: images.bad: \(directory.path)/img/corrupt.png: not a valid PNG"), "\($0)")
        }
        assertError(scene(#"{"cat": 5}"#), "images.cat: expected a string, found a number")
        assertError(scene("[]"), "images: expected the images (name to file path) (an object), found an array")
        assertError(scene(#"{"red": "img/red.png"}"#, root: #"{"sublayers": [{"contents": "cat"}]}"#),
                    #"root.sublayers[0].contents: no image named "cat" in images"#)
    }

    func testProbeErrors() {
        func probes(_ json: String) -> String { sceneText(root: "{}", extra: #""probes": \#(json)"#) }
        assertError(probes(#"{}"#), "probes: expected an array of probes, found an object")
        assertError(probes(#"[{"point": [1, 2]}]"#), "probes[0].hit: required field is missing")
        assertError(probes(#"[{"hit": null}]"#), "probes[0].point: required field is missing")
        assertError(probes(#"[{"point": [1, 2], "hit": 3}]"#), "probes[0].hit: expected a layer name or null, found a number")
        assertError(probes(#"[{"point": [1, 2], "hit": null, "radius": 3}]"#),
                    "probes[0].radius: unknown field for a probe; expected one of hit, point, time")
    }

    // MARK: Limits

    private func chain(depth: Int) -> String {
        String(repeating: #"{"sublayers": ["#, count: depth - 1) + "{}" + String(repeating: "]}", count: depth - 1)
    }

    func testLayersMayNestAThousandDeep() throws {
        let scene = try readScene(sceneText(root: chain(depth: Scene.maximumDepth)))
        XCTAssertEqual(scene.depth, Scene.maximumDepth)
        XCTAssertEqual(scene.layerCount, Scene.maximumDepth)
        let path = "root" + String(repeating: ".sublayers[0]", count: Scene.maximumDepth)
        assertError(sceneText(root: chain(depth: Scene.maximumDepth + 1)), "\(path): layers nest more than 1000 deep")
        // Masks count as a level too.
        let masked = chain(depth: Scene.maximumDepth).replacingOccurrences(of: "{}", with: #"{"mask": {}}"#)
        let innermost = "root" + String(repeating: ".sublayers[0]", count: Scene.maximumDepth - 1)
        assertError(sceneText(root: masked), "\(innermost).mask: layers nest more than 1000 deep")
    }

    func testJSONNestingIsBounded() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        assertError(deep, "not valid JSON: line 1, column 2009: nested more than 2008 levels deep (layers may nest at most 1000 deep)")
    }

    /// (Only the refusal: reading a million layers takes seconds in a debug build.)
    func testAtMostAMillionLayers() {
        let layers = String(repeating: "{},", count: Scene.maximumLayerCount)
        assertError(sceneText(root: #"{"sublayers": [\#(layers.dropLast())]}"#),
                    "root.sublayers[\(Scene.maximumLayerCount - 1)]: more than 1000000 layers in the scene")
    }
}
