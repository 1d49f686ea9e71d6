import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Hand-computed pixels for each rendering rule of docs/architecture.md, on the CPU reference.
final class RenderingRulesTests: XCTestCase {
    let red = rgb(255, 0, 0), green = rgb(0, 255, 0), blue = rgb(0, 0, 255), white = rgb(255, 255, 255)

    /// A 100 pt square rotated 45° about its centre at (100, 100) is a diamond with half-diagonal
    /// 70.71: aliased coverage takes exactly the pixels whose centres are inside it.
    func testRotated45SquareCoverage() {
        let root = solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), red)
        root.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        let img = renderCPU(root, width: 200, height: 200)
        var expected = 0, actual = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let dx = abs(Double(x) + 0.5 - 100), dy = abs(Double(y) + 0.5 - 100)
                let inside = dx + dy < 50 * 2.0.squareRoot() - 1e-9
                let onEdge = abs(dx + dy - 50 * 2.0.squareRoot()) < 1e-6
                if onEdge { continue }
                if inside { expected += 1 }
                let px = img.rgba(x, y)
                if px == [255, 0, 0, 255] { actual += 1 } else { XCTAssertEqual(px, [0, 0, 0, 0], "pixel \(x),\(y)") }
                XCTAssertEqual(px[3] == 255, inside, "pixel \(x),\(y)")
            }
        }
        XCTAssertEqual(actual, expected)
        XCTAssertEqual(Double(expected), 2 * 70.71 * 70.71, accuracy: 300)   // area 10,000 pt²
    }

    /// Listing 5.5's perspective: the four corners of the projected quad land where
    /// `[x y 0 1] · W` divided by w says.
    func testPerspectiveQuadCorners() {
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        let layer = solidLayer(CGRect(x: 100, y: 100, width: 200, height: 200), red)
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        t = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
        layer.transform = t
        container.addSublayer(layer)
        let img = renderCPU(container, width: 400, height: 400)
        let w = layer.properties.localTransform
        for (cx, cy) in [(0.0, 0.0), (200.0, 0.0), (0.0, 200.0), (200.0, 200.0)] {
            let p = w.projecting(CGPoint(x: cx, y: cy))!
            // The pixel one step inside the corner (towards the centre) is covered, one outside is not.
            let inX = p.x < 200 ? 1.5 : -1.5, inY = p.y < 200 ? 1.5 : -1.5
            XCTAssertEqual(img.rgba(Int(p.x + inX), Int(p.y + inY))[3], 255, "inside corner \(cx),\(cy) at \(p)")
            XCTAssertEqual(img.rgba(Int(p.x - inX), Int(p.y - inY))[3], 0, "outside corner \(cx),\(cy) at \(p)")
        }
        // The right edge recedes: it is shorter than the left one.
        let left = w.projecting(CGPoint(x: 0, y: 200))!.y - w.projecting(CGPoint(x: 0, y: 0))!.y
        let right = w.projecting(CGPoint(x: 200, y: 200))!.y - w.projecting(CGPoint(x: 200, y: 0))!.y
        XCTAssertLessThan(right, left)
    }

    /// Listing 5.8: nested opposite Y rotations with perspective do not cancel, because the outer
    /// layer flattens the inner into its plane. The inner square ends up narrower than upright.
    func testNestedYRotationsDoNotCancel() {
        func build(transformLayer: Bool) -> CALayer {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            let outer: CALayer = transformLayer ? CATransformLayer() : CALayer()
            outer.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
            var o = CATransform3DIdentity
            o.m34 = -1.0 / 500
            outer.transform = CATransform3DRotate(o, .pi / 4, 0, 1, 0)
            let inner = solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), red)
            var i = CATransform3DIdentity
            i.m34 = -1.0 / 500
            inner.transform = CATransform3DRotate(i, -.pi / 4, 0, 1, 0)
            outer.addSublayer(inner)
            root.addSublayer(outer)
            return root
        }
        let flat = renderCPU(build(transformLayer: false), width: 400, height: 400)
        // Measure the inner square's width along the row through the centre.
        func width(_ b: Bitmap) -> Int { (0..<400).filter { b.rgba($0, 200)[3] > 0 }.count }
        XCTAssertLessThan(width(flat), 95, "flattened inner layer must not be upright (100 pt wide)")
        XCTAssertGreaterThan(width(flat), 40)
        // With a transform layer in between, the two rotations compose in 3D.
        let threeD = renderCPU(build(transformLayer: true), width: 400, height: 400)
        XCTAssertNotEqual(width(threeD), width(flat))
    }

    /// A single-sided layer turned 180° about Y is not drawn, with its subtree; a double-sided one
    /// shows its mirrored back.
    func testBackFaceCulling() {
        func build(_ doubleSided: Bool) -> CALayer {
            let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), red)
            l.isDoubleSided = doubleSided
            l.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 50, height: 100), blue))
            return l
        }
        let shown = renderCPU(build(true), width: 100, height: 100)
        XCTAssertEqual(shown.rgba(25, 50), [255, 0, 0, 255], "mirrored: the blue half is now on the right")
        XCTAssertEqual(shown.rgba(75, 50), [0, 0, 255, 255])
        let culled = renderCPU(build(false), width: 100, height: 100)
        XCTAssertEqual(culled.rgba(25, 50), [0, 0, 0, 0])
        XCTAssertEqual(culled.rgba(75, 50), [0, 0, 0, 0])
        // A mirror image in x is not a back face.
        let mirrored = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), red)
        mirrored.isDoubleSided = false
        mirrored.transform = CATransform3DMakeScale(-1, 1, 1)
        XCTAssertEqual(renderCPU(mirrored, width: 100, height: 100).rgba(50, 50), [255, 0, 0, 255])
    }

    /// The border is drawn inside the bounds and above the sublayers.
    func testBorderAboveSublayers() {
        let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), white)
        l.borderWidth = 10
        l.borderColor = blue
        l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 50, height: 50), red))
        let img = renderCPU(l, width: 120, height: 120)
        XCTAssertEqual(img.rgba(5, 5), [0, 0, 255, 255], "border over the red sublayer")
        XCTAssertEqual(img.rgba(20, 20), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(95, 50), [0, 0, 255, 255])
        XCTAssertEqual(img.rgba(89, 50), [255, 255, 255, 255], "border is inside the bounds: 10 pt")
        XCTAssertEqual(img.rgba(105, 50), [0, 0, 0, 0], "nothing outside the bounds")
    }

    /// cornerRadius rounds the background only; contents and sublayers are clipped to the
    /// rounded bounds only with masksToBounds.
    func testCornerRadiusClipsOnlyWithMasksToBounds() {
        func build(_ masks: Bool) -> CALayer {
            let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), white)
            l.cornerRadius = 30
            l.masksToBounds = masks
            l.contents = solidImage(width: 10, height: 10, green)
            l.contentsGravity = .topLeft   // maximum y: the visual bottom-left corner
            l.addSublayer(solidLayer(CGRect(x: 80, y: 0, width: 20, height: 20), red))
            return l
        }
        let open = renderCPU(build(false), width: 100, height: 100)
        XCTAssertEqual(open.rgba(1, 98), [0, 255, 0, 255], "contents square in the corner")
        XCTAssertEqual(open.rgba(98, 1), [255, 0, 0, 255], "sublayer square in the corner")
        let clipped = renderCPU(build(true), width: 100, height: 100)
        XCTAssertEqual(clipped.rgba(1, 98), [0, 0, 0, 0])
        XCTAssertEqual(clipped.rgba(98, 1), [0, 0, 0, 0])
        XCTAssertEqual(clipped.rgba(95, 15), [255, 0, 0, 255], "inside the rounding")
        // The background's own corner is rounded either way: (1, 1) is 40 pt from the arc centre.
        XCTAssertEqual(open.rgba(1, 1)[3], 0)
    }

    /// zPosition reorders siblings in drawing (sublayer order breaks ties).
    func testZPositionReordersDrawing() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let g = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), green)
        let r = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), red)
        root.addSublayer(g)
        root.addSublayer(r)
        XCTAssertEqual(renderCPU(root, width: 100, height: 100).rgba(50, 50), [255, 0, 0, 255])
        g.zPosition = 1
        XCTAssertEqual(renderCPU(root, width: 100, height: 100).rgba(50, 50), [0, 255, 0, 255])
    }

    /// A clock hand with anchorPoint (0.5, 0.9) at the dial's centre turns about its pivot.
    func testAnchorPointClockHand() {
        let dial = CALayer()
        dial.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let hand = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 100), red)
        hand.anchorPoint = CGPoint(x: 0.5, y: 0.9)
        hand.position = CGPoint(x: 100, y: 100)
        dial.addSublayer(hand)
        var img = renderCPU(dial, width: 200, height: 200)
        XCTAssertEqual(img.rgba(100, 15)[0], 255, "pointing up: the tip 90 pt above the pivot")
        XCTAssertEqual(img.rgba(100, 105)[0], 255, "10 pt below the pivot")
        XCTAssertEqual(img.rgba(100, 115)[3], 0)
        hand.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))   // 3 o'clock: clockwise
        img = renderCPU(dial, width: 200, height: 200)
        XCTAssertEqual(img.rgba(185, 100)[0], 255)
        XCTAssertEqual(img.rgba(95, 100)[0], 255)
        XCTAssertEqual(img.rgba(15, 100)[3], 0)
    }

    /// A layer crossing w = 0 draws only its part in front of the eye, never a mirrored copy.
    func testBehindTheEyeIsNeverDrawnInverted() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 200
        root.sublayerTransform = p
        // A long strip tilted about X so its top passes behind the eye at z = 200.
        let strip = solidLayer(CGRect(x: 150, y: -400, width: 100, height: 1200), red)
        strip.transform = CATransform3DMakeRotation(-.pi / 3, 1, 0, 0)
        root.addSublayer(strip)
        let list = displayList(root, width: 400, height: 400)
        let img = try CPURenderer().render(list)
        // Every drawn pixel maps back to a point of the strip that is in front of the eye.
        let w = strip.properties.localTransform.concatenating(root.properties.childrenTransform)
        var drawn = 0
        for y in stride(from: 0, to: 400, by: 4) {
            for x in stride(from: 0, to: 400, by: 4) where img.rgba(x, y)[3] > 0 {
                drawn += 1
                let local = w.unprojecting(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                XCTAssertNotNil(local, "pixel \(x),\(y) shows a point behind the eye")
            }
        }
        XCTAssertGreaterThan(drawn, 100)
    }

    /// Two planes that cross are split: each is in front on its own side of the intersection.
    func testIntersectingPlanesAreSplit() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 800
        root.sublayerTransform = p
        let a = solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), red)
        a.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        let b = solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), blue)
        b.transform = CATransform3DMakeRotation(-.pi / 6, 0, 1, 0)
        root.addSublayer(a)
        root.addSublayer(b)
        let img = renderCPU(root, width: 200, height: 200)
        // Rotating +30° about Y brings a's left edge towards the eye; b's right edge. So red wins
        // on the left, blue on the right; the planes cross at x = 100.
        XCTAssertEqual(img.rgba(70, 100), [255, 0, 0, 255])
        XCTAssertEqual(img.rgba(130, 100), [0, 0, 255, 255])
        let list = displayList(root, width: 200, height: 200)
        XCTAssertTrue(list.canvas.quads.contains { $0.clips.contains {
            if case .halfPlane = $0.shape { return true }
            return false
        } },
                      "one plane is drawn in two pieces")
    }

    /// Group opacity composites the subtree first: overlapping children at opacity 0.5 show one
    /// uniform colour; without it the overlap is more opaque.
    func testGroupOpacity() {
        func build(_ group: Bool) -> CALayer {
            let l = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), white)
            l.opacity = 0.5
            l.allowsGroupOpacity = group
            l.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 50, height: 100), white))
            return l
        }
        let g = renderCPU(build(true), width: 100, height: 100)
        XCTAssertEqual(g.rgba(25, 50), g.rgba(75, 50))
        XCTAssertEqual(g.rgba(75, 50), [128, 128, 128, 128])
        let n = renderCPU(build(false), width: 100, height: 100)
        XCTAssertEqual(n.rgba(75, 50), [128, 128, 128, 128])
        XCTAssertEqual(n.rgba(25, 50), [192, 192, 192, 192])
    }
}
