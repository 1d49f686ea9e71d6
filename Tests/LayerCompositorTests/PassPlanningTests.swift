import Foundation
import LayerCompositor
import LayerKitCore
import XCTest

/// Which layers the compositor sends offscreen and how: group opacity over more than one quad
/// (with `allowsGroupOpacity`), a mask, a shadow, `shouldRasterize`; each pass the size of what
/// the subtree draws at the pass's scale, rendered in the layer's own plane and drawn back as
/// one quad with the layer's matrix; nested passes before the passes that read them.
///
/// The layer under test, `l`, is 40 x 30 at (10, 10) in a 200 x 200 root at the canvas origin,
/// so its matrix on a canvas of scale s is T(10, 10) · S(s).
final class PassPlanningTests: XCTestCase {
    private func layer(_ edit: (CALayer) -> Void = { _ in }) -> CALayer {
        let l = solid("l", CGRect(x: 10, y: 10, width: 40, height: 30))
        edit(l)
        return l
    }

    private func list(_ l: CALayer, scale: Double = 1) -> DisplayList {
        compose(container(CGRect(x: 0, y: 0, width: 200, height: 200), [l]), scale: scale)
    }

    /// s's placement matrix: T(x, y) · S(s).
    private func placed(_ x: Double, _ y: Double, scale s: Double) -> [Double] {
        matrix([s, 0, 0, 0], [0, s, 0, 0], [0, 0, 1, 0], [x * s, y * s, 0, 1])
    }

    /// Opacity 0.5 over a background and a sublayer that reaches out of the bounds (20 x 20 at
    /// (30, 20): to x 50, y 40) composites the group first, on a 2x canvas: the pass covers the
    /// bounds and the sublayer, (0, 0, 50, 40), at 2 pixels a point: 100 x 80. In it the layer
    /// is drawn at S(2) and the sublayer at T(30, 20) · S(2), both at opacity 1; the canvas
    /// draws the pass once over (0, 0, 50, 40) with the layer's matrix and its opacity.
    func testGroupOpacityRendersTheSubtreeOnce() throws {
        let l = layer {
            $0.opacity = 0.5
            $0.addSublayer(solid("s", CGRect(x: 30, y: 20, width: 20, height: 20)))
        }
        let dl = list(l, scale: 2)
        XCTAssertEqual(dl.passes.map(\.purpose), [.groupOpacity, .canvas])
        guard dl.passes.count == 2, dl.passes[0].quads.count == 2, dl.canvas.quads.count == 1 else { return XCTFail("one pass of two quads") }
        let pass = dl.passes[0]
        XCTAssertEqual([pass.width, pass.height], [100, 80])
        XCTAssertEqual(pass.quads.map(\.label), ["l", "s"])
        XCTAssertEqual(pass.quads.map(\.opacity), [1, 1])
        assertTransform(pass.quads[0], placed(0, 0, scale: 2))
        assertTransform(pass.quads[1], placed(30, 20, scale: 2))
        XCTAssertEqual(dl.canvas.quads.count, 1)
        let q = dl.canvas.quads[0]
        XCTAssertEqual(passFill(q), PassFill(pass: 0, scale: 2))
        XCTAssertEqual(q.opacity, 0.5)
        XCTAssertEqual(q.rect, CGRect(x: 0, y: 0, width: 50, height: 40))
        assertTransform(q, placed(10, 10, scale: 2))
        XCTAssertEqual(dl.lastReaders, [1, nil])
    }

    /// A pass is rendered in the layer's own plane, flat, and the layer's matrix, here turned
    /// 30° about y, goes on the quad that draws it back: in the pass the sublayer at (5, 5) is
    /// at T(5, 5); on the canvas the pass is at T(−20, −15) · R(30°) · T(30, 25), whose rows are
    /// (cos 30°, 0, −½, 0), (0, 1, 0, 0), (½, 0, cos 30°, 0), (30 − 20·cos 30°, 10, 10, 1).
    func testAPassIsRenderedInTheLayersPlane() {
        let l = layer {
            $0.opacity = 0.5
            $0.transform = rotationY(30)
            $0.addSublayer(solid("s", CGRect(x: 5, y: 5, width: 10, height: 10)))
        }
        let dl = list(l)
        XCTAssertEqual(dl.passes.map(\.purpose), [.groupOpacity, .canvas])
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[40, 30], [200, 200]])
        guard dl.passes[0].quads.count == 2, dl.canvas.quads.count == 1 else { return XCTFail("one pass of two quads") }
        assertTransform(dl.passes[0].quads[0], placed(0, 0, scale: 1))
        assertTransform(dl.passes[0].quads[1], placed(5, 5, scale: 1))
        let c = 3.0.squareRoot() / 2
        assertTransform(dl.canvas.quads[0], matrix([c, 0, -0.5, 0], [0, 1, 0, 0], [0.5, 0, c, 0], [30 - 20 * c, 10, 10, 1]))
    }

    /// With masksToBounds the group's pass is the bounds alone, 40 x 30, however far the
    /// sublayer reaches.
    func testAMaskToBoundsGroupPassIsTheBounds() {
        let l = layer {
            $0.opacity = 0.5
            $0.masksToBounds = true
            $0.addSublayer(solid("s", CGRect(x: 30, y: 20, width: 20, height: 20)))
        }
        let dl = list(l)
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[40, 30], [200, 200]])
        XCTAssertEqual(dl.canvas.quads.first?.rect, CGRect(x: 0, y: 0, width: 40, height: 30))
    }

    /// Group opacity needs no pass where it changes nothing: one quad (the opacity goes on it),
    /// `allowsGroupOpacity` off (each quad takes the product of the opacities down to it: s at
    /// 0.5 in l at 0.5 is 0.25), or opacity 1.
    func testGroupOpacityWithoutAPass() {
        let single = list(layer { $0.opacity = 0.5 })
        XCTAssertEqual(single.passes.count, 1)
        XCTAssertEqual(single.canvas.quads.map(\.opacity), [0.5])

        let ungrouped = list(layer {
            $0.opacity = 0.5
            $0.allowsGroupOpacity = false
            let s = solid("s", CGRect(x: 0, y: 0, width: 10, height: 10))
            s.opacity = 0.5
            $0.addSublayer(s)
        })
        XCTAssertEqual(ungrouped.passes.count, 1)
        XCTAssertEqual(ungrouped.canvasLabels, ["l", "s"])
        XCTAssertEqual(ungrouped.canvas.quads.map(\.opacity), [0.5, 0.25])

        let opaque = list(layer { $0.addSublayer(solid("s", CGRect(x: 0, y: 0, width: 10, height: 10))) })
        XCTAssertEqual(opaque.passes.count, 1)
        XCTAssertEqual(opaque.canvasLabels, ["l", "s"])
    }

    /// A mask (20 x 10 at (5, 5) in l's bounds) bounds the pass: what l draws (its bounds)
    /// within the mask is (5, 5, 20, 10), 20 x 10 pixels at 1x. The mask is drawn into a pass of
    /// the same size, at T(5, 5) · T(−5, −5): the identity; the canvas draws the content pass
    /// multiplied by the mask pass over (5, 5, 20, 10) with l's matrix.
    func testAMaskGetsTwoPassesOfTheMasksSize() {
        let m = CALayer()
        m.frame = CGRect(x: 5, y: 5, width: 20, height: 10)
        m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        m.name = "m"
        let dl = list(layer { $0.mask = m })
        XCTAssertEqual(dl.passes.map(\.purpose), [.maskedContent, .mask, .canvas])
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[20, 10], [20, 10], [200, 200]])
        XCTAssertEqual(dl.passes[1].quads.map(\.label), ["m"])
        guard dl.passes.count == 3, dl.passes[0].quads.count == 1, dl.canvas.quads.count == 1 else { return XCTFail("two passes") }
        assertTransform(dl.passes[1].quads[0], placed(0, 0, scale: 1))
        assertTransform(dl.passes[0].quads[0], placed(-5, -5, scale: 1))   // l in its pass, whose origin is (5, 5)
        let q = dl.canvas.quads[0]
        XCTAssertEqual(passFill(q), PassFill(pass: 0, scale: 1, mask: 1))
        XCTAssertEqual(q.rect, CGRect(x: 5, y: 5, width: 20, height: 10))
        assertTransform(q, placed(10, 10, scale: 1))
    }

    /// A shadow of radius 2 at offset (3, 4): the pass reaches 3σ + 1 = 7 points around the
    /// bounds, (−7, −7, 54, 44), 54 x 44 at 1x; it is blurred across and down (σ = 2 pixels ≤ 8:
    /// no downsampling; taps out to ⌈3σ⌉ = 6, 7 weights) and drawn first, moved by the offset
    /// (T(3, 4) · T(10, 10)) and tinted with the shadow colour at the shadow opacity; then the
    /// layer's own pass.
    func testAShadowBlursTheSubtreesPass() {
        let dl = list(layer {
            $0.shadowOpacity = 0.5
            $0.shadowRadius = 2
            $0.shadowOffset = CGSize(width: 3, height: 4)
        })
        XCTAssertEqual(dl.passes.map(\.purpose), [.shadowSource, .shadowBlur, .shadowBlur, .canvas])
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[54, 44], [54, 44], [54, 44], [200, 200]])
        guard case let .blur(source, horizontal, weights) = dl.passes[1].content,
              case let .blur(source2, horizontal2, weights2) = dl.passes[2].content else { return XCTFail("two blurs") }
        XCTAssertEqual([source, source2], [0, 1])
        XCTAssertEqual([horizontal, horizontal2], [true, false])
        XCTAssertEqual([weights.count, weights2.count], [7, 7])
        guard dl.canvas.quads.count == 2 else { return XCTFail("the shadow and the layer") }
        let (shadow, content) = (dl.canvas.quads[0], dl.canvas.quads[1])
        XCTAssertEqual(passFill(shadow), PassFill(pass: 2, scale: 1, tint: PremultipliedColor(r: 0, g: 0, b: 0, a: 0.5)))
        assertTransform(shadow, placed(13, 14, scale: 1))
        XCTAssertEqual(passFill(content), PassFill(pass: 0, scale: 1))
        assertTransform(content, placed(10, 10, scale: 1))
        for q in [shadow, content] { XCTAssertEqual(q.rect, CGRect(x: -7, y: -7, width: 54, height: 44)) }
    }

    /// A shadowPath casts the shadow instead of the layer's alpha: the path (20 x 10 at the
    /// origin) is filled into a pass of its own, the shadow pass's size, (−4, −4, 48, 38) for a
    /// radius of 1, as an image whose texels are the pass's pixels; the blur reads that pass.
    func testAShadowPathCastsFromAPassOfItsOwn() {
        let dl = list(layer {
            $0.shadowOpacity = 1
            $0.shadowRadius = 1
            $0.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 10), transform: nil)
        })
        XCTAssertEqual(dl.passes.map(\.purpose), [.shadowSource, .shadowSource, .shadowBlur, .shadowBlur, .canvas])
        XCTAssertEqual(dl.passes.dropLast().map { [$0.width, $0.height] }, Array(repeating: [48, 38], count: 4))
        XCTAssertEqual(dl.passes[1].label, "l shadowPath")
        guard let path = dl.passes[1].quads.first, case .image(let fill) = path.fill,
              case let .blur(source, _, _) = dl.passes[2].content else { return XCTFail("the path's image, blurred") }
        XCTAssertEqual(source, 1)
        XCTAssertEqual(path.rect, CGRect(x: -4, y: -4, width: 48, height: 38))
        XCTAssertEqual([fill.x.stops, fill.x.texels, fill.y.stops, fill.y.texels], [[-4, 44], [0, 48], [-4, 34], [0, 38]])
        XCTAssertEqual(dl.canvas.quads.map(passFill), [PassFill(pass: 3, scale: 1, tint: PremultipliedColor(r: 0, g: 0, b: 0, a: 1)),
                                                       PassFill(pass: 0, scale: 1)])
    }

    /// A shadowPath reaching beyond what the layer draws casts all of its shadow: the pass
    /// holds the path (0, 0, 100, 100) with the layer (0, 0, 40, 30), a radius of 0 leaving the
    /// blur's one point of margin: (−1, −1, 102, 102).
    func testAShadowPathBeyondTheLayerGetsAPassOfItsSize() {
        let dl = list(layer {
            $0.shadowOpacity = 1
            $0.shadowRadius = 0
            $0.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        })
        XCTAssertEqual(dl.passes.dropLast().map { [$0.width, $0.height] }, Array(repeating: [102, 102], count: 4))
        XCTAssertEqual(dl.passes[1].quads.first?.rect, CGRect(x: -1, y: -1, width: 102, height: 102))
    }

    /// The same kind of layer in a group-opacity parent: the parent's pass holds the shadow
    /// cast by the path and moved by the default offset (0, −3), (0, −3, 100, 100), with the
    /// sublayer (0, 0, 10, 10), one point wider: (−1, −4, 102, 102) in the parent's space,
    /// where the parent's own bounds are inside it.
    func testAParentsPassHoldsASublayersShadowPath() {
        let child = solid("c", CGRect(x: 0, y: 0, width: 10, height: 10))
        child.shadowOpacity = 1
        child.shadowRadius = 0
        child.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        let dl = list(layer {
            $0.opacity = 0.5
            $0.addSublayer(child)
        })
        let group = dl.passes.first { $0.purpose == .groupOpacity }
        XCTAssertEqual(group.map { [$0.width, $0.height] }, [102, 102])
    }

    /// A masked layer's pass holds what its shadowPath casts into the mask: the cast, the
    /// layer and path (0, 0, 100, 100) with their shadow (0, −3, 100, 100), one point wider,
    /// (−1, −4, 102, 105), within the mask (0, 0, 120, 120) and what casts into it
    /// (moved back by the offset: (0, 0, 120, 123)), one point wider: (−1, −1, 122, 125);
    /// together (−1, −1, 102, 102).
    func testAMaskedLayersPassHoldsItsShadowPath() {
        let m = CALayer()
        m.frame = CGRect(x: 0, y: 0, width: 120, height: 120)
        m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let dl = list(layer {
            $0.shadowOpacity = 1
            $0.shadowRadius = 0
            $0.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
            $0.mask = m
        })
        XCTAssertEqual(dl.passes.first.map { [$0.width, $0.height] }, [102, 102])
    }

    /// masksToBounds clips the shadow to the bounds too (in the layer's plane: pixels minus
    /// (10, 10)); the layer's own pass needs no clip, being the bounds already.
    func testMasksToBoundsClipsTheShadow() {
        let dl = list(layer {
            $0.masksToBounds = true
            $0.shadowOpacity = 1
            $0.shadowRadius = 2
        })
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[54, 44], [54, 44], [54, 44], [200, 200]])
        let boundsClip = Clip(map: PlaneMap(1, 0, 0, 0, 1, 0, -10, -10, 1),
                              shape: .roundedRect(CGRect(x: 0, y: 0, width: 40, height: 30), corners: .square, antialiased: false))
        XCTAssertEqual(dl.canvas.quads.map(\.clips), [[boundsClip], []])
    }

    /// A mask masks the shadow too: the shadow (radius 1: 4 points around) is cast from the
    /// unmasked layer, drawn with it into one pass, and that pass is what the mask multiplies.
    /// The mask covers l's bounds, so every pass is what casts into the mask, 4 points wider,
    /// (−4, −4, 48, 38).
    func testAMaskMasksTheShadowToo() {
        let m = CALayer()
        m.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let dl = list(layer {
            $0.mask = m
            $0.shadowOpacity = 1
            $0.shadowRadius = 1
        })
        XCTAssertEqual(dl.passes.map(\.purpose), [.shadowSource, .mask, .shadowBlur, .shadowBlur, .maskedContent, .canvas])
        XCTAssertEqual(dl.passes.dropLast().map { [$0.width, $0.height] }, Array(repeating: [48, 38], count: 5))
        let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 1)
        XCTAssertEqual(dl.passes[4].quads.map(passFill), [PassFill(pass: 3, scale: 1, tint: black), PassFill(pass: 0, scale: 1)])
        XCTAssertEqual(dl.canvas.quads.map(passFill), [PassFill(pass: 4, scale: 1, mask: 1)])
        XCTAssertEqual(dl.canvas.quads.first?.rect, CGRect(x: -4, y: -4, width: 48, height: 38))
        XCTAssertEqual(dl.lastReaders, [4, 5, 3, 4, 5, nil])
    }

    /// shouldRasterize renders at `rasterizationScale` pixels a point, not the canvas's: 3 on a
    /// 2x canvas makes the 40 x 30 layer a 120 x 90 pass, drawn back at scale 3; left at 1 it
    /// is 40 x 30 and magnified.
    func testShouldRasterizeRendersAtTheRasterizationScale() {
        for (rasterizationScale, size) in [(3.0, [120, 90]), (1, [40, 30])] {
            let dl = list(layer {
                $0.shouldRasterize = true
                $0.rasterizationScale = CGFloat(rasterizationScale)
            }, scale: 2)
            XCTAssertEqual(dl.passes.map(\.purpose), [.rasterized, .canvas])
            guard dl.passes.count == 2, dl.canvas.quads.count == 1 else { return }
            XCTAssertEqual([dl.passes[0].width, dl.passes[0].height], size)
            XCTAssertEqual(dl.canvas.quads.map(passFill), [PassFill(pass: 0, scale: rasterizationScale)])
            assertTransform(dl.canvas.quads[0], placed(10, 10, scale: 2))
        }
    }

    /// A rasterized layer with a shadow rasterizes once and casts the shadow from that pass:
    /// radius 5 reaches 16 points, (−16, −16, 72, 62), 144 x 124 at rasterizationScale 2, where
    /// σ = 10 pixels > 8 blurs on the pass halved (72 x 62) with σ' = √(10² − 3/12 − 4/6) / 2
    /// ≈ 4.98 (taps to ⌈14.93⌉ = 15: 16 weights); the shadow is drawn back at 2 / 2 = 1 pixel a point.
    func testARasterizedShadowBlursTheRasterizedPassDownsampled() {
        let dl = list(layer {
            $0.shouldRasterize = true
            $0.rasterizationScale = 2
            $0.shadowOpacity = 1
            $0.shadowRadius = 5
        })
        XCTAssertEqual(dl.passes.map(\.purpose), [.rasterized, .shadowDownsample, .shadowBlur, .shadowBlur, .canvas])
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[144, 124], [72, 62], [72, 62], [72, 62], [200, 200]])
        guard case let .downsample(source, factor) = dl.passes[1].content,
              case let .blur(_, _, weights) = dl.passes[2].content else { return XCTFail("a downsample, then a blur") }
        XCTAssertEqual([source, factor, weights.count], [0, 2, 16])
        XCTAssertEqual(dl.canvas.quads.map(passFill), [PassFill(pass: 3, scale: 1, tint: PremultipliedColor(r: 0, g: 0, b: 0, a: 1)),
                                                       PassFill(pass: 0, scale: 2)])
        XCTAssertEqual(dl.canvas.quads.first?.rect, CGRect(x: -16, y: -16, width: 72, height: 62))
    }

    /// Nested groups: the inner group's pass comes first and is drawn, as one quad, into the
    /// outer group's pass (at the inner layer's place in it, T(5, 5)), which the canvas reads.
    /// Each pass lives until its reader has drawn.
    func testNestedPassesPrecedeTheirReaders() {
        let inner = solid("inner", CGRect(x: 5, y: 5, width: 20, height: 10))
        inner.opacity = 0.5
        inner.addSublayer(solid("innerChild", CGRect(x: 0, y: 0, width: 10, height: 10)))
        let dl = list(layer {
            $0.opacity = 0.5
            $0.addSublayer(inner)
        })
        XCTAssertEqual(dl.passes.map(\.purpose), [.groupOpacity, .groupOpacity, .canvas])
        XCTAssertEqual(dl.passes.map(\.label), ["inner", "l", "canvas"])
        XCTAssertEqual(dl.passes.map { [$0.width, $0.height] }, [[20, 10], [40, 30], [200, 200]])
        XCTAssertEqual(dl.passes[1].quads.map(\.label), ["l", "inner"])
        guard dl.passes.count == 3, dl.passes[1].quads.count == 2 else { return }
        let drawnBack = dl.passes[1].quads[1]
        XCTAssertEqual(passFill(drawnBack), PassFill(pass: 0, scale: 1))
        XCTAssertEqual(drawnBack.opacity, 0.5)
        assertTransform(drawnBack, placed(5, 5, scale: 1))
        XCTAssertEqual(dl.canvas.quads.map(passFill), [PassFill(pass: 1, scale: 1)])
        XCTAssertEqual(dl.lastReaders, [1, 2, nil])
    }

    /// A fully transparent layer that a rule would send offscreen draws nothing at all: no pass
    /// is made for what cannot show.
    func testNoPassForWhatCannotShow() {
        let transparent = list(layer {
            $0.opacity = 0
            $0.shouldRasterize = true
        })
        XCTAssertEqual(transparent.passes.count, 1)
        XCTAssertEqual(transparent.canvas.quads.count, 0)
    }
}
