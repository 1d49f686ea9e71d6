import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// The GL backend against the CPU reference on every scene of the corpus and on hand-built
/// trees: at most 0.1 % of pixels may differ by more than 2/255 in any channel.
final class GLRendererEquivalenceTests: XCTestCase {
    /// Every scene of `scenes.list` (in `Tests/CPURendererTests/Goldens`) that has a GL budget,
    /// at 1x and 2x, within that budget. The CPU reference of a scene with a golden image is
    /// that image, which `GoldenImageTests` holds byte-equal to the CPU render: read, it costs
    /// a PNG decode instead of a second CPU render of the corpus.
    func testEveryListedSceneMatchesTheReference() throws {
        let h = try GLHarness()
        let entries = try sceneList().filter { $0.gl != nil }
        XCTAssertGreaterThanOrEqual(entries.count, 20, "the corpus is missing from \(examplesDirectory.path)")
        var lines = [tableHeader]
        for entry in entries {
            let budget = entry.gl!
            let scene = try Scene(contentsOfFile: entry.url.path)
            for s in [1.0, 2.0] {
                let list = Compositor.displayList(for: scene, scale: s)
                let golden = entry.hasGolden ? try? Bitmap(contentsOfPNGFile: entry.golden(scale: s).path) : nil
                let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "\(entry.name)@\(Int(s))x", budget: budget,
                                                    reference: golden)
                lines.append(tableRow(entry.name, s, d, budget: budget))
                XCTAssertLessThanOrEqual(d.fraction, budget.fraction, "\(entry.name) at scale \(s): \(d)")
            }
        }
        print(lines.joined(separator: "\n"))
    }

    func testHandBuiltTreesMatchTheReference() throws {
        let h = try GLHarness()
        var lines = [tableHeader]
        for (name, root, w, hgt) in Self.handBuiltTrees() {
            for s in [1.0, 2.0] {
                let list = displayList(root, width: w, height: hgt, scale: s, background: rgb(240, 240, 240))
                let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "\(name)@\(Int(s))x")
                lines.append(tableRow(name, s, d))
                XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(name) at scale \(s): \(d)")
            }
        }
        print(lines.joined(separator: "\n"))
    }

    /// Trees that exercise one rule each.
    static func handBuiltTrees() -> [(String, CALayer, Double, Double)] {
        var out: [(String, CALayer, Double, Double)] = []

        // Solid layers at fractional positions, rotated, antialiased or not.
        do {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 160)
            for i in 0..<6 {
                let l = solidLayer(CGRect(x: 10.25 + Double(i) * 30.5, y: 20.75, width: 25.5, height: 60.3),
                                   rgb(40 * i, 200 - 30 * i, 90, 0.8))
                l.allowsEdgeAntialiasing = i % 2 == 1
                l.transform = CATransform3DMakeRotation(CGFloat(i) * 0.3, 0, 0, 1)
                root.addSublayer(l)
            }
            out.append(("solids-rotated", root, 200, 160))
        }
        // Rounded corners, borders, masksToBounds clipping a rotated child.
        do {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 220, height: 160)
            let a = solidLayer(CGRect(x: 10, y: 10, width: 90, height: 70), rgb(200, 60, 60))
            a.cornerRadius = 18
            a.borderWidth = 5
            a.borderColor = rgb(20, 20, 120, 0.7)
            root.addSublayer(a)
            let b = solidLayer(CGRect(x: 110, y: 20, width: 100, height: 120), rgb(60, 160, 60))
            b.cornerRadius = 30
            b.masksToBounds = true
            let c = solidLayer(CGRect(x: 20, y: 30, width: 100, height: 40), rgb(250, 200, 0))
            c.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
            b.addSublayer(c)
            root.addSublayer(b)
            let d = solidLayer(CGRect(x: 20, y: 100, width: 60, height: 40), rgb(0, 0, 0, 0))
            d.borderWidth = 40  // a border wider than half the layer: no hole
            d.borderColor = rgb(100, 0, 100)
            d.cornerRadius = 8
            root.addSublayer(d)
            out.append(("corners-borders-clips", root, 220, 160))
        }
        // Images: magnified nearest / linear, minified linear / trilinear, nine-slice, in perspective.
        do {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
            let img = checkerImage(width: 64, height: 48)
            let filters: [(CALayerContentsFilter, CALayerContentsFilter, CGRect)] = [
                (.linear, .nearest, CGRect(x: 5, y: 5, width: 130, height: 90)),
                (.linear, .linear, CGRect(x: 150, y: 5, width: 140, height: 100)),
                (.linear, .linear, CGRect(x: 10, y: 110, width: 37, height: 23)),
                (.trilinear, .linear, CGRect(x: 60, y: 110, width: 21, height: 17)),
                (.nearest, .nearest, CGRect(x: 90, y: 110, width: 29, height: 31)),
            ]
            for (mn, mg, f) in filters {
                let l = CALayer()
                l.frame = f
                l.contents = img
                l.minificationFilter = mn
                l.magnificationFilter = mg
                root.addSublayer(l)
            }
            let p = CALayer()
            p.frame = CGRect(x: 150, y: 110, width: 140, height: 80)
            var t = CATransform3DIdentity
            t.m34 = -1 / 300
            p.sublayerTransform = t
            let tilted = CALayer()
            tilted.frame = CGRect(x: 10, y: 5, width: 120, height: 70)
            tilted.contents = img
            tilted.minificationFilter = .trilinear
            tilted.transform = CATransform3DMakeRotation(1.0, 1, 0.3, 0)
            p.addSublayer(tilted)
            root.addSublayer(p)
            out.append(("images-filters", root, 300, 200))
        }
        // Group opacity, a shadow and a mask (offscreen passes, blur).
        do {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 240, height: 160)
            let g = solidLayer(CGRect(x: 10, y: 10, width: 100, height: 80), rgb(30, 90, 200))
            g.opacity = 0.6
            g.addSublayer(solidLayer(CGRect(x: 20, y: 20, width: 60, height: 30), rgb(250, 250, 250)))
            root.addSublayer(g)
            let s = solidLayer(CGRect(x: 130, y: 20, width: 80, height: 60), rgb(220, 120, 40))
            s.shadowOpacity = 0.8
            s.shadowRadius = 6
            s.shadowOffset = CGSize(width: 4, height: 6)
            s.cornerRadius = 10
            root.addSublayer(s)
            let m = solidLayer(CGRect(x: 30, y: 100, width: 100, height: 50), rgb(10, 150, 90))
            let mask = solidLayer(CGRect(x: 10, y: 5, width: 60, height: 40), rgb(0, 0, 0, 0.7))
            mask.cornerRadius = 15
            m.mask = mask
            root.addSublayer(m)
            out.append(("offscreen-passes", root, 240, 160))
        }
        // A masked layer with a shadow: the mask clips the shadow, which the unmasked layer casts.
        do {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 160)
            let l = solidLayer(CGRect(x: 20, y: 10, width: 100, height: 100), rgb(220, 40, 40))
            l.addSublayer(solidLayer(CGRect(x: 10, y: 10, width: 40, height: 40), rgb(40, 40, 220)))
            l.shadowOpacity = 0.9
            l.shadowRadius = 4
            l.shadowOffset = CGSize(width: 30, height: 20)
            let mask = solidLayer(CGRect(x: -10, y: 0, width: 90, height: 130), rgb(0, 0, 0, 0.8))
            mask.cornerRadius = 20
            l.mask = mask
            root.addSublayer(l)
            out.append(("masked-shadow", root, 200, 160))
        }
        // A level of the nested-passes benchmark: group opacity, a mask, and a shadow of radius
        // 20 whose blur runs downsampled (by 4 at 1x, by 8 at 2x); and a shadow of radius 10
        // (downsampled by 2 at 1x, by 4 at 2x) on an unmasked layer.
        do {
            out.append(("nested-pass", BenchmarkScene.nested.make(count: 1).root, 200, 200))
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
            let l = solidLayer(CGRect(x: 40.5, y: 30.25, width: 70, height: 50), rgb(40, 120, 220))
            l.shadowOpacity = 0.8
            l.shadowRadius = 10
            l.shadowOffset = CGSize(width: 5, height: 7)
            root.addSublayer(l)
            out.append(("downsampled-shadow", root, 160, 120))
        }
        return out
    }
}

/// A `width` x `height` checkerboard of 4-pixel cells with a gradient and a translucent band.
func checkerImage(width: Int, height: Int) -> CGImage {
    var b = Bitmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let on = ((x / 4) + (y / 4)) % 2 == 0
            var px: [Double] = on ? [Double(x) / Double(width), Double(y) / Double(height), 1, 1] : [0.1, 0.1, 0.1, 1]
            if y >= height / 2 && y < height / 2 + 6 { px = [1, 0.2, 0.2, 0.5] }
            let a = px[3]
            for c in 0..<3 { b.pixels[(y * width + x) * 4 + c] = UInt8((px[c] * a * 255).rounded()) }
            b.pixels[(y * width + x) * 4 + 3] = UInt8((a * 255).rounded())
        }
    }
    return CGImage(bitmap: b, source: "checker \(width)x\(height)")
}
