import Foundation
@testable import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `DebugOverlay`'s rules on small trees, each answer worked out from the rule by hand: which
/// quads blend, which are drawn through offscreen passes, how images land on pixels, and where
/// `withDebugOverlay` puts the tints; `BlendedPixels`' areas.
final class DebugOverlayTests: XCTestCase {
    /// The canvas quads of `layers` on a 60x40 canvas at `scale`.
    private func quads(_ layers: [CALayer], scale: Double = 1) -> [DrawQuad] {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        for l in layers { root.addSublayer(l) }
        return displayList(root, width: 60, height: 40, scale: scale).canvas.quads
    }

    /// The one canvas quad of `layer`.
    private func quad(_ layer: CALayer, scale: Double = 1, file: StaticString = #filePath, line: UInt = #line) throws -> DrawQuad {
        let q = quads([layer], scale: scale)
        XCTAssertEqual(q.count, 1, "one quad", file: file, line: line)
        return try XCTUnwrap(q.first, file: file, line: line)
    }

    /// A layer showing a 10x10 opaque image (contentsScale 1) with `frame`.
    private func imageLayer(_ frame: CGRect, image: CGImage = solidImage(width: 10, height: 10, rgb(0, 255, 0))) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.contents = image
        return l
    }

    func testAnOpaqueAliasedLayerIsDrawnWithoutBlending() throws {
        let q = try quad(solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0)))
        XCTAssertFalse(q.blends, "opaque colour, opacity 1, aliased square edges, no clips")
        XCTAssertEqual(DebugOverlay.blended.tint(for: q), DebugOverlay.opaqueTint)
    }

    /// Every pixel looked at, the last one too; an empty image has no opaque pixel.
    func testAnImagesAlphaInfoIsJudgedFromItsPixels() {
        var b = Bitmap(width: 3, height: 1, pixels: [UInt8](repeating: 255, count: 12))
        XCTAssertEqual(CGImage(bitmap: b).alphaInfo, .noneSkipLast)
        b.pixels[11] = 254
        XCTAssertEqual(CGImage(bitmap: b).alphaInfo, .premultipliedLast)
        XCTAssertEqual(CGImage(bitmap: Bitmap(width: 0, height: 0)).alphaInfo, .premultipliedLast)
    }

    func testWhatMakesAQuadBlend() throws {
        let square = CGRect(x: 0, y: 0, width: 10, height: 10)
        let cases: [(String, CALayer)] = [
            ("a translucent colour", solidLayer(square, rgb(255, 0, 0, 0.5))),
            ("layer opacity 0.5", solidLayer(square, rgb(255, 0, 0)).with { $0.opacity = 0.5 }),
            ("rounded corners (antialiased curves)", solidLayer(square, rgb(255, 0, 0)).with { $0.cornerRadius = 3 }),
            ("antialiased edges", solidLayer(square, rgb(255, 0, 0)).with { $0.allowsEdgeAntialiasing = true }),
            ("an image with translucent texels", imageLayer(square, image: solidImage(width: 10, height: 10, rgb(0, 255, 0, 0.5)))),
        ]
        for (name, layer) in cases {
            let q = try quad(layer)
            XCTAssertTrue(q.blends, name)
            XCTAssertEqual(DebugOverlay.blended.tint(for: q), DebugOverlay.blendedTint, name)
        }
        XCTAssertFalse(try quad(imageLayer(square)).blends, "an image whose every texel is opaque")
    }

    func testARoundedClipMakesAnOpaqueSublayerBlend() throws {
        // Containers with no background of their own: their sublayers' quads are the only ones.
        let clip = container(CGRect(x: 0, y: 0, width: 20, height: 20), [solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), rgb(255, 0, 0))])
            .with {
                $0.masksToBounds = true
                $0.cornerRadius = 4
            }
        let square = container(CGRect(x: 30, y: 0, width: 20, height: 20), [solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), rgb(0, 0, 255))])
            .with { $0.masksToBounds = true }
        let q = quads([clip, square])
        XCTAssertEqual(q.count, 2, "the two clipped sublayers")
        XCTAssertEqual(q.map(\.clips.count), [1, 1])
        XCTAssertTrue(q[0].blends, "clipped by rounded corners: antialiased coverage")
        XCTAssertFalse(q[1].blends, "clipped by an aliased square: coverage stays 0 or 1")
    }

    func testMasksAndGroupOpacityAreOffscreen() throws {
        let masked = solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), rgb(255, 0, 0))
        masked.mask = solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), rgb(0, 0, 0))
        let group = solidLayer(CGRect(x: 30, y: 0, width: 20, height: 20), rgb(0, 0, 255)).with { $0.opacity = 0.5 }
        group.addSublayer(solidLayer(CGRect(x: 5, y: 5, width: 5, height: 5), rgb(0, 255, 0)))
        let plain = solidLayer(CGRect(x: 0, y: 25, width: 10, height: 10), rgb(255, 0, 0))
        let q = quads([masked, group, plain])
        XCTAssertEqual(q.count, 3, "each pass drawn back by one quad, and the plain layer")
        XCTAssertEqual(q.map { DebugOverlay.offscreen.tint(for: $0) }, [DebugOverlay.offscreenTint, DebugOverlay.offscreenTint, nil])
        XCTAssertEqual(q.map(\.blends), [true, true, false], "a pass's pixels are not known to be opaque")
    }

    func testImageAlignment() throws {
        let cases: [(String, CALayer, Double, DrawQuad.ImageAlignment)] = [
            ("whole pixels, unscaled", imageLayer(CGRect(x: 10, y: 3, width: 10, height: 10)), 1, .aligned),
            ("at x 10.5", imageLayer(CGRect(x: 10.5, y: 3, width: 10, height: 10)), 1, .misaligned),
            ("at y 3.25", imageLayer(CGRect(x: 10, y: 3.25, width: 10, height: 10)), 1, .misaligned),
            ("scaled 2x", imageLayer(CGRect(x: 10, y: 3, width: 20, height: 20)), 1, .scaled),
            ("scaled 2x along x alone", imageLayer(CGRect(x: 10, y: 3, width: 20, height: 10)), 1, .scaled),
            // 10 texels over 10 points at 2 pixels a point: each texel 2 pixels.
            ("a 1x image at scale 2", imageLayer(CGRect(x: 10, y: 3, width: 10, height: 10)), 2, .scaled),
            // 10 points at 0.5 pixels: x 10.5 lands on pixel 21, whole.
            ("at x 10.5, contentsScale 2, canvas scale 2",
             imageLayer(CGRect(x: 10.5, y: 3, width: 5, height: 5)).with { $0.contentsScale = 2 }, 2, .aligned),
            ("flipped vertically", imageLayer(CGRect(x: 10, y: 3, width: 10, height: 10)).with { $0.transform = CATransform3DMakeScale(1, -1, 1) },
             1, .aligned),
            ("rotated 30°", imageLayer(CGRect(x: 10, y: 3, width: 10, height: 10)).with { $0.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1) },
             1, .misaligned),
        ]
        for (name, layer, scale, want) in cases {
            let q = try quad(layer, scale: scale)
            XCTAssertEqual(q.imageAlignment, want, name)
            let tint: PremultipliedColor? = [.aligned: nil, .scaled: DebugOverlay.scaledTint, .misaligned: DebugOverlay.misalignedTint][want]!
            XCTAssertEqual(DebugOverlay.misaligned.tint(for: q), tint, name)
        }
        XCTAssertNil(try quad(solidLayer(CGRect(x: 0.5, y: 0, width: 10, height: 10), rgb(255, 0, 0))).imageAlignment,
                     "a colour is not an image")
    }

    /// Nine-slice: 30 texels, 10 each side kept at 10 points, the middle 10 stretched over 20.
    func testANineSliceStretchesItsMiddle() throws {
        let l = imageLayer(CGRect(x: 0, y: 0, width: 40, height: 30), image: solidImage(width: 30, height: 30, rgb(0, 255, 0)))
        l.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        XCTAssertEqual(try quad(l).imageAlignment, .scaled, "the middle column is 2 pixels a texel")
        l.frame.size.width = 30
        XCTAssertEqual(try quad(l).imageAlignment, .aligned, "30 points for 30 texels: every segment 1:1")
    }

    /// Each tint comes right after its quad, with the quad's geometry and coverage.
    func testTheOverlayInterleavesTintsWithTheirQuads() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        let opaque = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0))
        let rounded = solidLayer(CGRect(x: 20, y: 0, width: 10, height: 10), rgb(0, 0, 255)).with { $0.cornerRadius = 3 }
        let masked = solidLayer(CGRect(x: 40, y: 0, width: 10, height: 10), rgb(255, 0, 0))
        masked.mask = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(0, 0, 0))
        for l in [opaque, rounded, masked] { root.addSublayer(l) }
        let list = displayList(root, width: 60, height: 40)
        let quads = list.canvas.quads
        XCTAssertEqual(quads.count, 3)

        let blended = list.withDebugOverlay(.blended)
        XCTAssertEqual(blended.passes.dropLast(), list.passes.dropLast(), "offscreen passes untouched")
        let b = blended.canvas.quads
        XCTAssertEqual(b.count, 6)
        XCTAssertEqual([b[0], b[2], b[4]], quads)
        XCTAssertEqual([b[1], b[3], b[5]].map(\.fill), [.color(DebugOverlay.opaqueTint), .color(DebugOverlay.blendedTint),
                                                         .color(DebugOverlay.blendedTint)])
        for (tint, q) in zip([b[1], b[3], b[5]], quads) {
            XCTAssertEqual(tint.transform, q.transform)
            XCTAssertEqual(tint.rect, q.rect)
            XCTAssertEqual(tint.shape, q.shape)
            XCTAssertEqual(tint.antialiased, q.antialiased)
            XCTAssertEqual(tint.clips, q.clips)
            XCTAssertEqual(tint.opacity, 1)
        }
        let offscreen = list.withDebugOverlay(.offscreen).canvas.quads
        XCTAssertEqual(offscreen.count, 4, "only the masked layer's quad is tinted")
        XCTAssertEqual(offscreen[3].fill, .color(DebugOverlay.offscreenTint))
        XCTAssertEqual(list.withDebugOverlay(.misaligned), list, "no images: nothing to tint")
    }

    func testTintsAre102Over255() {
        for (tint, rgb) in [(DebugOverlay.opaqueTint, [0, 1, 0]), (DebugOverlay.blendedTint, [1, 0, 0]),
                            (DebugOverlay.offscreenTint, [1, 1, 0]), (DebugOverlay.scaledTint, [1, 1, 0]),
                            (DebugOverlay.misalignedTint, [1, 0, 1])] as [(PremultipliedColor, [Float])] {
            XCTAssertEqual([tint.r, tint.g, tint.b, tint.a].map { $0 * 255 }, (rgb + [1]).map { $0 * 102 })
        }
    }

    /// Areas: a rectangle, one half outside the canvas, at scale 2, a border's ring, a square
    /// rotated 45° about its centre inside the canvas (its area kept), and one cut in half by
    /// the canvas's edge.
    func testCoveredArea() throws {
        XCTAssertEqual(try quad(solidLayer(CGRect(x: 0, y: 0, width: 10, height: 20), rgb(255, 0, 0))).coveredArea(width: 60, height: 40), 200)
        XCTAssertEqual(try quad(solidLayer(CGRect(x: 55, y: 0, width: 10, height: 20), rgb(255, 0, 0))).coveredArea(width: 60, height: 40), 100)
        XCTAssertEqual(try quad(solidLayer(CGRect(x: 0, y: 0, width: 10, height: 20), rgb(255, 0, 0)), scale: 2)
                        .coveredArea(width: 120, height: 80), 800)
        let border = CALayer()
        border.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        border.borderWidth = 2
        border.borderColor = rgb(0, 0, 0)
        XCTAssertEqual(try quad(border).coveredArea(width: 60, height: 40), 200 - 6 * 16, "the ring: 10x20 less 6x16")
        let rotated = solidLayer(CGRect(x: 20, y: 10, width: 10, height: 10), rgb(255, 0, 0)).with {
            $0.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        }
        XCTAssertEqual(try quad(rotated).coveredArea(width: 60, height: 40), 100, accuracy: 1e-9)
        // The same diamond centred on the canvas's left edge (x = 0): the half inside.
        let cut = solidLayer(CGRect(x: -5, y: 15, width: 10, height: 10), rgb(255, 0, 0)).with {
            $0.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        }
        XCTAssertEqual(try quad(cut).coveredArea(width: 60, height: 40), 50, accuracy: 1e-9)
    }

    /// A layer split by 3D sorting covers, in its pieces, what it covers whole: two translucent
    /// 100x100 squares turned ±30° about the y axis through the same centre line (x = 100) cross
    /// there, so b is drawn in two pieces, its halves either side of x = 100, b a b back to
    /// front. Each square projects to 100 cos 30° x 100, each half of b to half that; a piece
    /// counting all of b would make the frame's blended area three squares' instead of two.
    func testPiecesOfASplitLayerCoverTheirPartAlone() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let context = CATransformLayer()
        context.frame = root.bounds
        root.addSublayer(context)
        for (name, degrees) in [("a", 30.0), ("b", -30.0)] {
            context.addSublayer(solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), rgb(255, 0, 0, 0.5), name: name).with {
                $0.transform = rotationY(degrees)
            })
        }
        let list = displayList(root, width: 200, height: 200)
        XCTAssertEqual(list.canvas.quads.map(\.label), ["b", "a", "b"])
        let square = 10_000 * cos(Double.pi / 6)
        let areas = list.canvas.quads.map { $0.coveredArea(width: 200, height: 200) }
        XCTAssertEqual(areas.count, 3)
        for (area, expected) in zip(areas, [square / 2, square, square / 2]) { XCTAssertEqual(area, expected, accuracy: 1e-6) }
        var counter = BlendedPixels()
        XCTAssertEqual(counter.count(list), 2 * square, accuracy: 3.0 / 256, "each quad's area is kept to 1/256 pixel")
    }

    /// `blended_pixels` of a list: a 10x20 translucent layer 200, an opaque one nothing, and
    /// after a move of the translucent layer half off the canvas, 100, counted incrementally
    /// as a fresh count counts it.
    func testBlendedPixelsFollowChanges() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        let translucent = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 20), rgb(255, 0, 0, 0.5))
        root.addSublayer(translucent)
        root.addSublayer(solidLayer(CGRect(x: 20, y: 0, width: 10, height: 20), rgb(255, 0, 0)))
        let compositor = FrameCompositor()
        func frame() -> DisplayList { compositor.displayList(root: root.snapshot(), width: 60, height: 40, scale: 1, background: nil) }
        var counter = BlendedPixels()
        XCTAssertEqual(counter.count(frame()), 200)
        XCTAssertEqual(counter.count(frame()), 200, "the list reused")
        translucent.position.x = 60
        let moved = frame()
        XCTAssertEqual(counter.count(moved), 100, "5 of its 10 columns left on the canvas")
        var fresh = BlendedPixels()
        XCTAssertEqual(fresh.count(moved), 100)
        translucent.opacity = 1
        translucent.backgroundColor = rgb(255, 0, 0)
        XCTAssertEqual(counter.count(frame()), 0, "made opaque")
    }
}
