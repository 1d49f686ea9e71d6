import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// A layer's `drawing` in scene files: the one table of operations (documented, each row's
/// call taking the arguments its row declares), the reader's message for each kind of bad
/// operation, and when the drawing runs.
final class SceneDrawingTests: XCTestCase {
    /// A scene whose root is a plain layer of `bounds` drawing `ops` (JSON objects).
    private func scene(_ ops: [String], bounds: String = "[0, 0, 8, 4]", extra: String = "") -> String {
        sceneText(root: #"{"bounds": \#(bounds), "anchorPoint": [0, 0], "drawing": [\#(ops.joined(separator: ", "))]\#(extra)}"#)
    }

    /// Reading a root layer drawing `ops` fails with exactly `message` after "test.json: ".
    private func assertError(_ ops: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try readScene(scene(ops)), file: file, line: line) {
            XCTAssertEqual("\($0)", "test.json: " + message, file: file, line: line)
        }
    }

    func testThePageListsEveryOperationAsTheTableSaysAndNamesTheField() throws {
        let page = try String(contentsOf: RepositoryLinkTests.root.appendingPathComponent("docs/scene-format.md"), encoding: .utf8)
        XCTAssertTrue(page.contains("| `drawing` |"), "the layer field table names drawing")
        XCTAssertTrue(page.contains(DrawingOperation.markdownTable),
                      "docs/scene-format.md's table of drawing operations is not the table's; it should read:\n\(DrawingOperation.markdownTable)")
    }

    func testOperationNamesAreUniqueAndNoArgumentIsCalledOp() {
        XCTAssertEqual(DrawingOperation.byName.count, DrawingOperation.all.count)
        for op in DrawingOperation.all {
            XCTAssertFalse(op.arguments.contains { $0.key == "op" }, op.name)
            XCTAssertEqual(Set(op.arguments.map(\.key)).count, op.arguments.count, op.name)
        }
    }

    /// Every operation, with a valid value for each argument, is read and drawn: each row's
    /// call asks for the kinds its arguments declare (a mismatch would trap).
    func testEveryOperationReadsAndDraws() throws {
        func sample(_ kind: DrawingArgument.Kind) -> String {
            switch kind {
            case .number, .angle: return "1"
            case .point: return "[1, 1]"
            case .rect: return "[0, 0, 4, 2]"
            case .points: return "[[0, 0], [4, 2]]"
            case .numbers: return "[1, 1]"
            case .color: return "[1, 0, 0, 1]"
            case .colors: return "[[1, 0, 0, 1], [0, 0, 1, 1]]"
            case .bool: return "true"
            case .path: return #"{"rect": [0, 0, 2, 2]}"#
            case .image: return #""red""#
            case .transform: return "[1, 0, 0, 1, 0, 0]"
            case .word(let names): return "\"\(names[0])\""
            case .words(let names): return "[\"\(names[0])\"]"
            case .string: return #""Hi""#
            }
        }
        let ops = DrawingOperation.all.map { op in
            "{" + ([#""op": "\#(op.name)""#] + op.arguments.map { "\"\($0.key)\": \(sample($0.kind))" }).joined(separator: ", ") + "}"
        }
        let red = examplesDirectory.appendingPathComponent("images/tiny8.png").path
        let text = scene(ops).replacingOccurrences(of: #""root":"#, with: #""images": {"red": "\#(red)"}, "root":"#)
        let loaded = try readScene(text)
        let drawing = try XCTUnwrap(loaded.root.sceneDrawing)
        XCTAssertEqual(drawing.map(\.operation.name), DrawingOperation.all.map(\.name))
        XCTAssertNotNil(loaded.root.snapshot().properties.contents, "displayed at the snapshot")
    }

    func testBadOperationsAreRefusedWithTheirPath() {
        assertError([#"{"op": "fill", "rect": [0, 0, 4, 2]}"#, #"{"op": "fillRect", "rect": [0, 0, 4, 2]}"#],
                    #"root.drawing[1].op: unknown drawing operation "fillRect" (docs/scene-format.md lists them)"#)
        assertError([#"{"op": "fill", "rect": [0, 0, 4]}"#], "root.drawing[0].rect: expected [x, y, w, h] (4 numbers), found 3 elements")
        assertError([#"{"op": "move", "to": [1, 2, 3]}"#], "root.drawing[0].to: expected [x, y] (2 numbers), found 3 elements")
        // JSON has no NaN; a number too large for a double is the non-finite value a file can hold.
        assertError([#"{"op": "addLine", "to": [1e999, 0]}"#], "root.drawing[0].to[0]: number out of range (not finite)")
        assertError([#"{"op": "setLineWidth", "width": -1}"#], "root.drawing[0].width: must be >= 0, not -1")
        assertError([#"{"op": "fill"}"#], "root.drawing[0].rect: required field is missing")
        assertError([#"{"rect": [0, 0, 1, 1]}"#], "root.drawing[0].op: required field is missing")
        assertError([#"{"op": 3}"#], "root.drawing[0].op: expected a string, found a number")
        assertError([#"{"op": "fill", "rect": [0, 0, 1, 1], "colour": [1, 0, 0, 1]}"#],
                    "root.drawing[0].colour: unknown field for a fill operation; expected one of op, rect")
        assertError([#"{"op": "setLineCap", "cap": "flat"}"#],
                    #"root.drawing[0].cap: unknown value "flat"; expected one of butt, round, square"#)
        assertError([#"{"op": "drawLinearGradient", "colors": [[1, 0, 0, 1], [0, 0, 1, 1]], "locations": [0], "start": [0, 0], "end": [1, 0]}"#],
                    "root.drawing[0].locations: expected one location per colour (2), found 1")
        assertError([#"{"op": "drawImage", "image": "dog", "in": [0, 0, 1, 1]}"#], #"root.drawing[0].image: no image named "dog" in images"#)
        assertError([#"{"op": "concatenate", "transform": [1, 0, 0, 1]}"#],
                    "root.drawing[0].transform: expected [a, b, c, d, tx, ty] (6 numbers), found 4 elements")
        assertError([#""fill""#], "root.drawing[0]: expected a drawing operation (an object), found a string")
        assertError([#"{"op": "drawText", "text": 42, "at": [0, 0], "size": 10}"#], "root.drawing[0].text: expected a string, found a number")
        assertError([#"{"op": "drawText", "at": [0, 0], "size": 10}"#], "root.drawing[0].text: required field is missing")
        assertError([#"{"op": "drawText", "text": "a", "at": [0, 0], "size": 0}"#], "root.drawing[0].size: must be > 0, not 0")
        assertError([#"{"op": "drawText", "text": "a", "at": [0, 0], "size": 10, "font": ""}"#], "root.drawing[0].font: must not be empty")
        assertError([#"{"op": "drawText", "text": "a", "at": [0, 0], "size": 10, "color": [1, 0, 0, 1]}"#],
                    "root.drawing[0].color: unknown field for a drawText operation; expected one of at, font, op, size, text")
        assertError([#"{"op": "setTextMatrix", "transform": [1, 0, 0, -1, 0]}"#],
                    "root.drawing[0].transform: expected [a, b, c, d, tx, ty] (6 numbers), found 5 elements")
    }

    func testDrawingIsAPlainLayersFieldAndMakesTheContents() {
        XCTAssertThrowsError(try readScene(sceneText(root: #"{"type": "shapeLayer", "drawing": []}"#))) {
            XCTAssertEqual("\($0)", "test.json: root.drawing: unknown field for a shapeLayer")
        }
        XCTAssertThrowsError(try readScene(sceneText(root: #"{"drawing": {"op": "fill"}}"#))) {
            XCTAssertEqual("\($0)", "test.json: root.drawing: expected an array of drawing operations, found an object")
        }
        let image = examplesDirectory.appendingPathComponent("images/tiny8.png").path
        XCTAssertThrowsError(try readScene(sceneText(root: #"{"contents": "red", "drawing": []}"#, extra: #""images": {"red": "\#(image)"}"#))) {
            XCTAssertEqual("\($0)", "test.json: root.contents: not allowed together with drawing (drawing makes the contents)")
        }
    }

    /// `fill` in the layer's own space: y down from the top left of the bounds, at
    /// `contentsScale` pixels per point.
    func testFillIsInTheLayersYDownSpaceAtItsContentsScale() throws {
        let loaded = try readScene(scene([#"{"op": "setFillColor", "color": [1, 0, 0, 1]}"#, #"{"op": "fill", "rect": [1, 0, 2, 1]}"#],
                                         extra: #", "contentsScale": 2"#))
        let b = renderCPU(loaded.root, width: 8, height: 4, scale: 2)
        // Points x 1…3, y 0…1 are pixels x 2…5, y 0…1 of the 16x8 canvas; nothing else is painted.
        for y in 0..<8 {
            for x in 0..<16 {
                XCTAssertEqual(b.rgba(x, y), (2...5).contains(x) && y < 2 ? [255, 0, 0, 255] : [0, 0, 0, 0], "(\(x), \(y))")
            }
        }
    }

    /// `translateBy`, then `scaleBy`, then `setAlpha`: the unit square at (0, 0) lands at x 4…6,
    /// y 1…2 (scaled about the translated origin, as the CTM concatenates), half transparent.
    func testTransformsConcatenateInCallOrder() throws {
        let loaded = try readScene(scene([
            #"{"op": "translateBy", "x": 4, "y": 1}"#, #"{"op": "scaleBy", "x": 2, "y": 1}"#, #"{"op": "setAlpha", "alpha": 0.5}"#,
            #"{"op": "setFillColor", "color": [0, 0, 1, 1]}"#, #"{"op": "fill", "rect": [0, 0, 1, 1]}"#,
        ]))
        let b = renderCPU(loaded.root, width: 8, height: 4)
        // Blue at alpha 0.5, premultiplied: 255 · 0.5 = 127.5, either neighbour by rounding.
        for y in 0..<4 {
            for x in 0..<8 {
                let inside = (4...5).contains(x) && y == 1
                let p = b.rgba(x, y)
                XCTAssertEqual(p[0], 0, "(\(x), \(y))")
                XCTAssertEqual(p[1], 0, "(\(x), \(y))")
                XCTAssertEqual(Double(p[2]), inside ? 127.5 : 0, accuracy: 0.5, "(\(x), \(y))")
                XCTAssertEqual(Double(p[3]), inside ? 127.5 : 0, accuracy: 0.5, "(\(x), \(y))")
            }
        }
    }

    /// `drawText` is `draw(text:at:font:size:)` in the fill colour, its default font the call's
    /// default (`nil`, DejaVu Sans): the scene's layer and a layer making the calls in its
    /// `draw(in:)` render the same pixels. With the flipped text matrix of a y-down context the
    /// text stands upright on its baseline (row 20): DejaVu Sans's "H" is 1493/2048 em tall,
    /// 11.7 px at 16 px, so the stems ink rows 9…19 and nothing lies below row 20.
    func testDrawTextDrawsWhatTheContextCallDraws() throws {
        final class Direct: CALayer {
            override func draw(in ctx: CGContext) {
                ctx.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
                ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
                ctx.draw(text: "H 42", at: CGPoint(x: 2, y: 20), size: 16)
            }
        }
        let loaded = try readScene(scene([
            #"{"op": "setTextMatrix", "transform": [1, 0, 0, -1, 0, 0]}"#, #"{"op": "setFillColor", "color": [0, 0, 1, 1]}"#,
            #"{"op": "drawText", "text": "H 42", "at": [2, 20], "size": 16}"#,
        ], bounds: "[0, 0, 48, 24]"))
        let direct = Direct()
        direct.bounds = CGRect(x: 0, y: 0, width: 48, height: 24)
        direct.anchorPoint = .zero
        direct.setNeedsDisplay()
        let fromScene = renderCPU(loaded.root, width: 48, height: 24), fromCall = renderCPU(direct, width: 48, height: 24)
        var inkedRows = Set<Int>()
        for y in 0..<24 {
            for x in 0..<48 {
                XCTAssertEqual(fromScene.rgba(x, y), fromCall.rgba(x, y), "(\(x), \(y))")
                if fromScene.rgba(x, y)[3] > 0 { inkedRows.insert(y) }
            }
        }
        XCTAssertTrue(Set(9...19).isSubset(of: inkedRows), "upright stems: \(inkedRows.sorted())")
        XCTAssertTrue(inkedRows.allSatisfy { (7...20).contains($0) }, "nothing below the baseline: \(inkedRows.sorted())")
    }

    /// The reader marks a drawing layer once: the first snapshot draws it, later ones do not.
    func testTheDrawingRunsOnceAtTheFirstCommit() throws {
        let loaded = try readScene(scene([#"{"op": "fill", "rect": [0, 0, 1, 1]}"#]))
        XCTAssertTrue(loaded.root.needsDisplay())
        let first = loaded.root.snapshot().properties.contents
        XCTAssertNotNil(first)
        XCTAssertFalse(loaded.root.needsDisplay())
        XCTAssertTrue(loaded.root.snapshot().properties.contents === first, "not marked again, not drawn again")
    }

    /// An animated layer is displayed before its animations are applied: its drawing shows at
    /// any time of the presentation tree.
    func testAnAnimatedDrawingLayerIsDrawn() throws {
        let loaded = try readScene(scene([#"{"op": "fill", "rect": [0, 0, 1, 1]}"#],
                                         extra: #", "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]"#))
        XCTAssertNotNil(loaded.root.snapshot(atTime: 0.5).properties.contents)
    }
}
