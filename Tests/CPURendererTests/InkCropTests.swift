import CPURenderer
import Foundation
@testable import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Image quads are cut down to the part of their rectangle that can reach the image's ink
/// (`ContentsGeometry.inked`): the numbers of that cut, and proof that it changes no pixel.
final class InkCropTests: XCTestCase {
    /// A `size` x `size` transparent image with an opaque block over columns `x0..<x1`, rows
    /// `y0..<y1` (and one half-transparent pixel at its top-left, so filters see an edge).
    private func inkedImage(size: Int = 16, x0: Int = 4, x1: Int = 10, y0: Int = 6, y1: Int = 12) -> CGImage {
        var b = Bitmap(width: size, height: size)
        for y in y0..<y1 { for x in x0..<x1 { for k in 0..<4 { b.pixels[(y * size + x) * 4 + k] = k == 1 ? 0 : 255 } } }
        for k in 0..<4 { b.pixels[(y0 * size + x0) * 4 + k] = 128 }
        return CGImage(bitmap: b)
    }

    func testInkBounds() {
        let b = inkedImage().inkBounds!
        XCTAssertEqual([b.x0, b.y0, b.x1, b.y1], [4, 6, 10, 12])
        XCTAssertNil(CGImage(bitmap: Bitmap(width: 8, height: 8)).inkBounds)
        // Colour without alpha (not valid premultiplied, but it adds light) is ink too.
        var add = Bitmap(width: 8, height: 8)
        add.pixels[(7 * 8 + 7) * 4] = 1
        let a = CGImage(bitmap: add).inkBounds!
        XCTAssertEqual([a.x0, a.y0, a.x1, a.y1], [7, 7, 8, 8])
        // Rows wider than the scan's blocks of 16 pixels: ink at columns 17 and 35 of row 2,
        // 33 of row 4 (its alpha byte only), 16 of row 5 (its first byte); rows 0, 1 and 3 empty.
        var wide = Bitmap(width: 37, height: 6)
        for (x, y, byte) in [(17, 2, 0), (35, 2, 2), (33, 4, 3), (16, 5, 0)] { wide.pixels[(y * 37 + x) * 4 + byte] = 9 }
        let w = CGImage(bitmap: wide).inkBounds!
        XCTAssertEqual([w.x0, w.y0, w.x1, w.y1], [16, 2, 36, 6])
        var lastColumn = Bitmap(width: 33, height: 1)
        lastColumn.pixels[32 * 4 + 1] = 1
        let l = CGImage(bitmap: lastColumn).inkBounds!
        XCTAssertEqual([l.x0, l.y0, l.x1, l.y1], [32, 0, 33, 1])
    }

    func testPreimageOfOneAndThreeSegmentMaps() {
        // 16 texels over 0...32 points: 2 points a texel.
        let one = AxisMap(stops: [0, 32], texels: [0, 16])
        XCTAssertEqual(one.preimage(3, 11)!.lo, 6)
        XCTAssertEqual(one.preimage(3, 11)!.hi, 22)
        XCTAssertEqual(one.preimage(-.infinity, 11)!.lo, -.infinity)
        // Flipped: texel 16 at the top.
        let flipped = AxisMap(stops: [0, 32], texels: [16, 0])
        XCTAssertEqual(flipped.preimage(3, 11)!.lo, 10)
        XCTAssertEqual(flipped.preimage(3, 11)!.hi, 26)
        // Nine-slice: caps of 4 texels kept at 4 points, the middle 8 texels stretched to 92.
        let nine = AxisMap(stops: [0, 4, 96, 100], texels: [0, 4, 12, 16])
        XCTAssertEqual(nine.preimage(1, 2)!.lo, 1)
        XCTAssertEqual(nine.preimage(1, 2)!.hi, 2)
        XCTAssertEqual(nine.preimage(6, 8)!.lo, 4 + 2 * 11.5)
        XCTAssertEqual(nine.preimage(6, 8)!.hi, 4 + 4 * 11.5)
        XCTAssertEqual(nine.preimage(3, 13)!.lo, 3)
        XCTAssertEqual(nine.preimage(3, 13)!.hi, 97)
        // A constant map either keeps everything or nothing.
        XCTAssertNil(AxisMap(stops: [0, 10], texels: [5, 5]).preimage(6, 7))
    }

    func testInkedRectangle() {
        let image = inkedImage()
        let fill = ImageFill(image: image, x: AxisMap(stops: [0, 32], texels: [0, 16]), y: AxisMap(stops: [0, 32], texels: [0, 16]),
                             minification: .linear, magnification: .linear)
        let rect = CGRect(x: 0, y: 0, width: 32, height: 32)
        // Ink over texels 4..<10 by 6..<12, a texel of margin: 3...11 by 5...13, in points twice that.
        XCTAssertEqual(ContentsGeometry.inked(rect, fill: fill, antialiased: false), CGRect(x: 6, y: 10, width: 16, height: 16))
        XCTAssertEqual(ContentsGeometry.inked(rect, fill: fill, antialiased: true), rect, "antialiased edges are kept")
        var tri = fill
        tri.minification = .trilinear
        XCTAssertEqual(ContentsGeometry.inked(rect, fill: tri, antialiased: false), rect, "coarser mip levels reach further")
        // Ink on the image's edge is repeated beyond it by clamping: that side is not cut.
        var edge = fill
        edge.image = inkedImage(x0: 0, x1: 10, y0: 6, y1: 16)
        XCTAssertEqual(ContentsGeometry.inked(rect, fill: edge, antialiased: false), CGRect(x: 0, y: 10, width: 22, height: 22))
        var empty = fill
        empty.image = CGImage(bitmap: Bitmap(width: 16, height: 16))
        XCTAssertNil(ContentsGeometry.inked(rect, fill: empty, antialiased: false), "a transparent image draws nothing")
    }

    /// The cut rectangle draws exactly the pixels the whole one does, under nearest and linear
    /// filtering, magnified and minified, rotated, in perspective, flipped, through a
    /// contentsRect and a nine-slice contentsCenter.
    func testCroppingChangesNoPixel() throws {
        let image = inkedImage(size: 24, x0: 5, x1: 17, y0: 3, y1: 20)
        for filter in [CALayerContentsFilter.nearest, .linear] {
            for (size, transform) in [(70.0, CATransform3DMakeRotation(0.3, 0, 0, 1)), (13.0, CATransform3DIdentity),
                                      (61.0, CATransform3DMakeRotation(0.6, 1, 1, 0).perspective(300))] {
                let root = CALayer()
                root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
                root.isGeometryFlipped = size == 13
                let l = CALayer()
                l.frame = CGRect(x: 50 - size / 2, y: 50 - size / 2, width: size, height: size)
                l.transform = transform
                l.contents = image
                l.minificationFilter = filter
                l.magnificationFilter = filter
                if size == 61 { l.contentsCenter = CGRect(x: 0.3, y: 0.2, width: 0.3, height: 0.5) }
                if size == 70 { l.contentsRect = CGRect(x: 0.1, y: -0.1, width: 0.8, height: 1.1) }
                root.addSublayer(l)
                let cut = displayList(root, width: 100, height: 100)
                var whole = cut
                guard case .quads(var quads) = whole.passes[0].content, let i = quads.firstIndex(where: {
                    if case .image = $0.fill { return true } else { return false }
                }) else { return XCTFail("no image quad") }
                XCTAssertLessThan(quads[i].rect.width * quads[i].rect.height, l.bounds.width * l.bounds.height, "cut")
                quads[i].rect = l.bounds
                whole.passes[0].content = .quads(quads)
                let a = try CPURenderer().render(cut), b = try CPURenderer().render(whole)
                XCTAssertEqual(zip(a.pixels, b.pixels).filter { $0 != $1 }.count, 0, "\(filter) \(size): bytes that differ")
                XCTAssertGreaterThan(a.pixels.filter { $0 != 0 }.count, 100, "something is drawn")
            }
        }
    }
}

private extension CATransform3D {
    func perspective(_ d: CGFloat) -> CATransform3D {
        var p = CATransform3DIdentity
        p.m34 = -1 / d
        return concatenating(p)
    }
}
