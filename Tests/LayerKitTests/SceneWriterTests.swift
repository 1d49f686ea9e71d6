import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// Writing scene files: only non-default fields, exact numbers, images by name; and the round
/// trips the format promises: write → read → write gives the same bytes, read → write → read
/// gives an equal tree (on hand-made scenes and on every example).
final class SceneWriterTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SceneWriterTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func text(_ scene: Scene) throws -> String { String(decoding: try scene.jsonData(), as: UTF8.self) }

    private func assertWriteError(_ scene: Scene, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try scene.jsonData(), file: file, line: line) {
            XCTAssertEqual("\($0)", message, file: file, line: line)
        }
    }

    /// Reads back what `scene` writes (images relative to the same directory), checks that the
    /// tree, canvas, images and probes are equal and that writing again gives the same bytes.
    private func assertRoundTrip(_ scene: Scene, file: StaticString = #filePath, line: UInt = #line) throws {
        let written = try scene.jsonData()
        let again = try Scene(data: written, baseDirectory: scene.baseDirectory, fileName: scene.fileName)
        XCTAssertEqual(again.canvas, scene.canvas, file: file, line: line)
        XCTAssertEqual(again.images, scene.images, file: file, line: line)
        XCTAssertEqual(again.probes, scene.probes, file: file, line: line)
        assertSameTree(scene.root.snapshot(), in: scene, again.root.snapshot(), in: again, path: "root", file: file, line: line)
        XCTAssertEqual(String(decoding: try again.jsonData(), as: UTF8.self), String(decoding: written, as: UTF8.self),
                       "\(scene.fileName): writing what was read back changes the bytes", file: file, line: line)
    }

    /// Snapshots are equal with images compared by their scene names: each reading decodes its
    /// own `CGImage`s, and images compare by identity.
    private func assertSameTree(_ a: LayerSnapshot, in sa: Scene, _ b: LayerSnapshot, in sb: Scene, path: String,
                                file: StaticString, line: UInt) {
        func name(_ image: CGImage?, _ scene: Scene) -> String? {
            image.flatMap { i in scene.decodedImages.first { $0.value === i }?.key }
        }
        var pa = a.properties, pb = b.properties
        XCTAssertEqual(name(pa.contents, sa), name(pb.contents, sb), "\(path).contents", file: file, line: line)
        pa.contents = nil
        pb.contents = nil
        XCTAssertEqual(pa, pb, path, file: file, line: line)
        // An emitter's cells hold images too: compared by name, then the rest. A tiled layer's
        // tile store is each layer's own: its properties are compared instead.
        func withoutCellImages(_ kind: LayerSnapshot.Kind, _ scene: Scene) -> (LayerSnapshot.Kind, [String?]) {
            if case let .tiled(t) = kind { return (.layer, ["tiled \(t.tileSize) \(t.levelsOfDetail) \(t.levelsOfDetailBias)"]) }
            guard case var .emitter(style) = kind else { return (kind, []) }
            let names = style.cells.map { name($0.contents, scene) }
            for i in style.cells.indices { style.cells[i].contents = nil }
            return (.emitter(style), names)
        }
        let (ka, na) = withoutCellImages(a.kind, sa), (kb, nb) = withoutCellImages(b.kind, sb)
        XCTAssertEqual(na, nb, "\(path).emitterCells contents", file: file, line: line)
        XCTAssertEqual(ka, kb, path, file: file, line: line)
        XCTAssertEqual(a.sublayers.count, b.sublayers.count, "\(path).sublayers", file: file, line: line)
        for (i, (sa1, sb1)) in zip(a.sublayers, b.sublayers).enumerated() {
            assertSameTree(sa1, in: sa, sb1, in: sb, path: "\(path).sublayers[\(i)]", file: file, line: line)
        }
        XCTAssertEqual(a.mask == nil, b.mask == nil, "\(path).mask", file: file, line: line)
        if let ma = a.mask, let mb = b.mask {
            assertSameTree(ma, in: sa, mb, in: sb, path: "\(path).mask", file: file, line: line)
        }
    }

    func testOnlyNonDefaultFieldsAreWritten() throws {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        root.position = CGPoint(x: 50, y: 25)
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        shape.fillColor = nil
        shape.opacity = 0.3
        shape.transform = CATransform3DMakeTranslation(0.5, 0, 0)
        root.addSublayer(shape)
        let scene = Scene(canvas: Canvas(width: 100, height: 50), root: root,
                          probes: [Scene.Probe(point: CGPoint(x: 1, y: 2.5), hit: "root"), Scene.Probe(point: .zero, hit: nil)])
        XCTAssertEqual(try text(scene), """
            {
              "canvas": {
                "height": 50,
                "width": 100
              },
              "format": "layerkit-scene",
              "probes": [
                {
                  "hit": "root",
                  "point": [1, 2.5]
                },
                {
                  "hit": null,
                  "point": [0, 0]
                }
              ],
              "root": {
                "bounds": [0, 0, 100, 50],
                "name": "root",
                "position": [50, 25],
                "sublayers": [
                  {
                    "fillColor": null,
                    "opacity": 0.3,
                    "path": "M 0 0 L 10 0 L 10 10 L 0 10 Z",
                    "transform": {
                      "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, 0, 0, 1]
                    },
                    "type": "shapeLayer"
                  }
                ]
              },
              "version": 1
            }

            """)
    }

    func testEveryFieldAndTypeRoundTripsExactly() throws {
        let imagePath = directory.appendingPathComponent("dot.png").path
        try Bitmap(width: 1, height: 1, pixels: [10, 20, 30, 255]).writePNG(to: imagePath)
        let image = try CGImage(contentsOfPNGFile: imagePath)

        let root = CALayer()
        var p = LayerProperties()
        p.name = "every \"field\" \\ 北"
        p.bounds = CGRect(x: -1.0 / 3, y: 2, width: 30.25, height: 1e-7)
        p.position = CGPoint(x: .pi, y: -0.1)
        p.anchorPoint = CGPoint(x: 0.1, y: 2)
        p.anchorPointZ = -4
        p.zPosition = 1e10
        p.transform = CATransform3DRotate(CATransform3DMakeScale(0.3, 0.7, 1), 0.3, 1, 2, 3)
        p.sublayerTransform = CATransform3DMakeRotation(1, 0, 1, 0)
        p.sublayerTransform.m34 = -1.0 / 700
        p.isHidden = true
        p.opacity = 0.7
        p.allowsGroupOpacity = false
        p.backgroundColor = CGColor(red: 1.0 / 3, green: 0.2, blue: 0.3, alpha: 0.4)
        p.cornerRadius = 4.5
        p.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        p.cornerCurve = .continuous
        p.borderWidth = 2
        p.borderColor = nil
        p.masksToBounds = true
        p.isDoubleSided = false
        p.isGeometryFlipped = true
        p.contents = image
        p.contentsGravity = .bottomRight
        p.contentsScale = 3
        p.contentsRect = CGRect(x: -0.5, y: 0, width: 2, height: 0.5)
        p.contentsCenter = CGRect(x: 0.25, y: 0.3, width: 0.5, height: 0.4)
        p.minificationFilter = .trilinear
        p.magnificationFilter = .nearest
        p.allowsEdgeAntialiasing = true
        p.shadowColor = nil
        p.shadowOpacity = 0.123456
        p.shadowOffset = CGSize(width: 1, height: 3)
        p.shadowRadius = 0
        p.shadowPath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 7, height: 3))
        p.shouldRasterize = true
        p.rasterizationScale = 2
        root.properties = p

        let shape = CAShapeLayer()
        shape.path = try CGPath(svgPathData: "M 0 0 Q 1 2 3 4 C 5 6 7 8 9 10 A 5 5 0 1 1 20 20 z m 1 1 l 2 2")
        shape.fillColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
        shape.fillRule = .evenOdd
        shape.strokeColor = .white
        shape.lineWidth = 0.5
        shape.lineCap = .square
        shape.lineJoin = .round
        shape.miterLimit = 3
        shape.lineDashPattern = [1, 2.5, 0]
        shape.lineDashPhase = -1
        shape.strokeStart = 0.1
        shape.strokeEnd = 0.9
        shape.mask = CATransformLayer()
        let gradient = CAGradientLayer()
        gradient.colors = [CGColor.black, CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)]
        gradient.locations = [0.25, 0.75]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        gradient.type = .radial
        gradient.contents = image
        let text = CATextLayer()
        text.string = "Hello\n\t\u{01}"
        text.font = "fonts/Some Font.ttf"
        text.fontSize = 11
        text.foregroundColor = nil
        text.alignmentMode = .right
        text.isWrapped = true
        text.truncationMode = .start
        root.sublayers = [shape, gradient, text, CATransformLayer()]

        var scene = Scene(canvas: Canvas(width: 320.5, height: 200, scale: 2.5, background: CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)),
                          root: root, images: ["dot": "dot.png", "unused": "dot.png"],
                          decodedImages: ["dot": image, "unused": try CGImage(contentsOfPNGFile: imagePath)],
                          probes: [Scene.Probe(point: CGPoint(x: 0.1, y: 1e-3), hit: "x")])
        scene.baseDirectory = directory.path
        try assertRoundTrip(scene)
    }

    func testSharedImagesStayShared() throws {
        let scene = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("bench/leaves-100.json").path)
        let again = try Scene(data: try scene.jsonData(), baseDirectory: scene.baseDirectory, fileName: "again.json")
        let images = Set((again.root.sublayers ?? []).compactMap { $0.contents.map(ObjectIdentifier.init) })
        XCTAssertEqual(images.count, 1)
    }

    func testEveryExampleRoundTrips() throws {
        for path in try exampleScenePaths() {
            try assertRoundTrip(try Scene(contentsOfFile: path))
        }
    }

    func testFloatsAreWrittenShortAndReadBackExactly() throws {
        var count = 0
        for bits in stride(from: Float(0).bitPattern, through: Float(1).bitPattern, by: 4099) {
            let f = Float(bitPattern: bits)
            guard case .number(let d) = try jsonNumber(f) else { return XCTFail("not a number") }
            XCTAssertEqual(Float(d), f)
            count += 1
        }
        XCTAssertGreaterThan(count, 200_000)
        guard case .number(let d) = try jsonNumber(Float(0.3)) else { return XCTFail("not a number") }
        XCTAssertEqual(shortestDecimal(d), "0.3")
    }

    func testWhatCannotBeReadBackIsRefused() {
        let layer = CALayer()
        let scene = Scene(canvas: Canvas(width: 10, height: 10), root: layer)
        // Through `properties`: the setters would ignore these values.
        layer.properties.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)
        assertWriteError(scene, "untitled scene: root.bounds: nan cannot be written (JSON numbers are finite)")
        layer.bounds = .zero
        let sublayer = CALayer()
        sublayer.properties.opacity = 2
        layer.addSublayer(sublayer)
        assertWriteError(scene, "untitled scene: root.sublayers[0].opacity: must be between 0 and 1, not 2")
        sublayer.opacity = 1
        sublayer.properties.shadowPath = CGPath(elements: [.moveTo(CGPoint(x: 0, y: CGFloat.infinity))])
        assertWriteError(scene, "untitled scene: root.sublayers[0].shadowPath: a path with non-finite coordinates cannot be written")
        sublayer.shadowPath = nil
        sublayer.contents = CGImage(bitmap: Bitmap(width: 1, height: 1), source: "memory")
        assertWriteError(scene, "untitled scene: root.sublayers[0].contents: the image from memory is not in the scene's decodedImages, so it has no name")
        sublayer.contents = nil
        sublayer.add(CATransition(), forKey: kCATransition)
        assertWriteError(scene, "untitled scene: root.sublayers[0].animations[0]: a CATransition cannot be written (scene files have no transitions)")
        sublayer.removeAllAnimations()
        var wide = scene
        wide.canvas.width = .infinity
        assertWriteError(wide, "untitled scene: canvas.width: inf cannot be written (JSON numbers are finite)")
    }
}
