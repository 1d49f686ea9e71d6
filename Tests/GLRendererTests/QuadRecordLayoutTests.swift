@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import XCTest

/// The quad record's one description: its fields fit and do not collide, the GLSL prelude
/// names them where they are, and a record written for a known quad decodes, field by field,
/// to the numbers worked out by hand (no GL context needed).
final class QuadRecordLayoutTests: XCTestCase {
    func testFieldsFitTheStrideAndOnlyUnionsOfFillsShareFloats() {
        var owner = [QuadRecordField?](repeating: nil, count: FrameData.quadStride * 4)
        for field in QuadRecordField.allCases {
            let (offset, count, stage, fill) = field.span
            XCTAssertLessThanOrEqual(offset + count, FrameData.quadStride * 4, "\(field) ends past the record")
            if stage == .vertex { XCTAssertEqual(offset % 4, 0, "\(field): vertex fields start a texel") }
            if stage == .fragment { XCTAssertLessThanOrEqual(count, 4, "\(field): fragment fields are at most a vec4") }
            for i in offset..<(offset + count) {
                if let other = owner[i] {
                    XCTAssertTrue(fill != nil && other.span.fill != nil && fill != other.span.fill,
                                  "\(field) and \(other) share float \(i) without being fields of different fills")
                }
                owner[i] = field
            }
        }
        // Texels 5...16 and 23...24 reach the fragment shader: 14 varyings, as before names.
        XCTAssertEqual(QuadRecordField.fragmentTexels, Array(5...16) + [23, 24])
    }

    func testThePreludeNamesEachFieldWhereItIs() {
        let vertex = QuadRecordField.glslPrelude(vertex: true), fragment = QuadRecordField.glslPrelude(vertex: false)
        XCTAssertTrue(vertex.contains("#define QUAD_STRIDE 26\n"))
        // cornerRadius is float 66: texel 16, component z.
        XCTAssertTrue(fragment.contains("#define rec_cornerRadius v_rec16.z\n"))
        // mapDy is floats 23...25: across texels 5 and 6.
        XCTAssertTrue(fragment.contains("#define rec_mapDy vec3(v_rec5.w, v_rec6.x, v_rec6.y)\n"))
        XCTAssertTrue(vertex.contains("#define fetch_referencePixel(base) fetch((base) + 7).yz\n"))
        XCTAssertTrue(vertex.contains("#define REC_halfPlanes_TEXEL 17\n"))
        XCTAssertTrue(vertex.contains("flat out vec4 v_rec24;\n"))
        XCTAssertTrue(fragment.contains("flat in vec4 v_rec24;\n"))
        XCTAssertFalse(fragment.contains("rec_transform"), "the transform is the vertex shader's alone")
    }

    /// A 10x20 layer at (5, 7) on a 100x100 canvas, red at 50 % opacity, corner radius 3.
    func testAColourQuadDecodesToItsFields() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = CALayer()
        layer.frame = CGRect(x: 5, y: 7, width: 10, height: 20)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.opacity = 0.5
        layer.cornerRadius = 3
        root.addSublayer(layer)
        let list = Compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        let frame = GLRenderer.frameData(list, canvas: (100, 100), es: false) { _ in (1, 1) }
        XCTAssertEqual(list.quadCount, 1)
        let rec = QuadRecord(floats: frame.data.floats[0..<(FrameData.quadStride * 4)])

        // The visible box is x 5...15, y 7...27: the reference pixel is its centre, (10, 17),
        // and the local origin the layer point under it, (5, 10). Rebased, the rectangle is
        // (0 - 5, 0 - 10, 10 - 5, 20 - 10).
        XCTAssertEqual(rec[.referencePixel], [10, 17])
        XCTAssertEqual(rec[.rect], [-5, -10, 5, 10])
        // Local (rebased) → pixels: the translation to the reference pixel.
        XCTAssertEqual(rec[.transform], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 17, 0, 1])
        // Pixels relative to the reference → local relative to the origin: the identity.
        XCTAssertEqual(rec[.mapDx] + rec[.mapDy] + rec[.mapOrigin], [1, 0, 0, 0, 1, 0, 0, 0, 1])
        // Rounded corners: coverage is not just 0 or 1, so the geometry reaches one pixel (one
        // local unit) out.
        XCTAssertEqual(rec[.geometry], [-6, -11, 6, 11])
        XCTAssertEqual(rec[.opacity], 0.5)
        XCTAssertEqual(rec[.cornerRadius], 3)
        XCTAssertEqual(rec[.borderWidth], 0)
        XCTAssertEqual(rec[.antialiased], 0, "allowsEdgeAntialiasing is off by default")
        XCTAssertEqual(rec[.fillKind], 0)
        XCTAssertEqual(rec[.color], [1, 0, 0, 1])
        XCTAssertEqual(rec[.clipCount], 0)
        // No half-planes: every slot keeps everything, (0, 0, 1).
        XCTAssertEqual(rec[.halfPlanes], Array(repeating: [0.0, 0, 1], count: FrameData.maxRecordHalfPlanes).flatMap { $0 })
    }

    /// A 10x20 layer at (5, 7) showing a 4x2 image, stretched (`resize`, the default gravity).
    func testAnImageQuadDecodesToItsTexelMaps() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = CALayer()
        layer.frame = CGRect(x: 5, y: 7, width: 10, height: 20)
        layer.contents = CGImage(bitmap: Bitmap(width: 4, height: 2, pixels: [UInt8](repeating: 255, count: 4 * 2 * 4)))
        layer.magnificationFilter = .nearest
        root.addSublayer(layer)
        let list = Compositor.displayList(root: root.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        let frame = GLRenderer.frameData(list, canvas: (100, 100), es: false) { _ in (1, 1) }
        let rec = QuadRecord(floats: frame.data.floats[0..<(FrameData.quadStride * 4)])
        XCTAssertEqual(rec[.fillKind], 1)
        XCTAssertEqual(rec[.minificationFilter], 1, "linear")
        XCTAssertEqual(rec[.magnificationFilter], 0, "nearest")
        // x: 4 texels over 10 points from the layer's left edge, rebased by the origin 5:
        // start -5, texel 0, slope 0.4; y: 2 texels over 20 points from -10, slope 0.1.
        XCTAssertEqual(rec[.imageXSegment][0], -5)
        XCTAssertEqual(rec[.imageXSegment][1], 0)
        XCTAssertEqual(rec[.imageXSegment][2], 0.4, accuracy: 1e-7)
        XCTAssertEqual(rec[.imageYSegment][0], -10)
        XCTAssertEqual(rec[.imageYSegment][1], 0)
        XCTAssertEqual(rec[.imageYSegment][2], 0.1, accuracy: 1e-7)
        XCTAssertEqual(rec[.imageXStarts][0], rec[.imageXSegment][0], "the segmented map's first segment is the same")
    }
}
