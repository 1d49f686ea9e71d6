import Foundation
import LayerKitCore

/// Drawn content under `isGeometryFlipped`, shared by the CPU and GL tests: a shape layer's
/// path, a `draw(in:)` drawing, a gradient and an image in a flipped superlayer, a shape layer,
/// a drawing layer and a gradient flipped themselves, and a drawing layer flipped inside a
/// flipped superlayer (two flips: y down again). Each path and drawing is a bar over the top
/// 10 points of its layer's own coordinates (y 0…10), and each gradient red over its first
/// half (start point y 0) and blue over the second, so they show at the layer's bottom on
/// screen exactly where `contentsAreFlipped()`; the image (blue over yellow) displays upright
/// whatever the flips.
public enum FlippedContent {
    public static let width = 270.0, height = 100.0

    /// Fills the top 10 points of its bounds (y 0…10 of its user space) in green.
    final class BarLayer: CALayer {
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width, height: 10))
        }
    }

    /// The tree, with its drawn layers at `scale` pixels per point; drawn on white.
    public static func tree(scale: CGFloat) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        func shape(_ frame: CGRect, in parent: CALayer, flipped: Bool = false) {
            let s = CAShapeLayer()
            s.frame = frame
            s.isGeometryFlipped = flipped
            s.path = CGPath(rect: CGRect(x: 0, y: 0, width: frame.width, height: 10), transform: nil)
            s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            s.contentsScale = scale
            parent.addSublayer(s)
        }
        func bar(_ frame: CGRect, in parent: CALayer, flipped: Bool = false) {
            let d = BarLayer()
            d.frame = frame
            d.isGeometryFlipped = flipped
            d.contentsScale = scale
            d.setNeedsDisplay()
            parent.addSublayer(d)
        }
        func gradient(_ frame: CGRect, in parent: CALayer, flipped: Bool = false) {
            let g = CAGradientLayer()
            g.frame = frame
            g.isGeometryFlipped = flipped
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            g.colors = [red, red, blue, blue]
            g.locations = [0, 0.5, 0.5, 1]
            g.contentsScale = scale
            parent.addSublayer(g)
        }
        let f = CALayer()
        f.frame = CGRect(x: 0, y: 0, width: 130, height: 100)
        f.isGeometryFlipped = true
        root.addSublayer(f)
        shape(CGRect(x: 0, y: 0, width: 40, height: 40), in: f)       // screen x 0…40, y 60…100
        bar(CGRect(x: 50, y: 0, width: 40, height: 40), in: f)        // screen x 50…90, y 60…100
        bar(CGRect(x: 50, y: 50, width: 40, height: 40), in: f, flipped: true)  // screen y 10…50
        let image = CALayer()
        image.frame = CGRect(x: 0, y: 50, width: 40, height: 40)     // screen x 0…40, y 10…50
        image.contents = blueOverYellow()
        image.magnificationFilter = .nearest
        f.addSublayer(image)
        gradient(CGRect(x: 100, y: 0, width: 20, height: 80), in: f)  // screen x 100…120, y 20…100
        shape(CGRect(x: 150, y: 10, width: 40, height: 40), in: root, flipped: true)
        bar(CGRect(x: 200, y: 10, width: 30, height: 40), in: root, flipped: true)
        gradient(CGRect(x: 240, y: 10, width: 20, height: 80), in: root, flipped: true)
        return root
    }

    /// A 1 x 2 image: a blue pixel above a yellow one.
    static func blueOverYellow() -> CGImage {
        var b = Bitmap(width: 1, height: 2)
        b.pixels = [0, 0, 255, 255, 255, 255, 0, 255]
        return CGImage(bitmap: b)
    }

    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], white: [UInt8] = [255, 255, 255, 255]
    static let blue: [UInt8] = [0, 0, 255, 255], yellow: [UInt8] = [255, 255, 0, 255]

    /// Points (5 points or more from any edge) and the colour each must have on screen.
    public static let expected: [(x: Double, y: Double, rgba: [UInt8], what: String)] = [
        (20, 95, red, "path in a flipped superlayer: at its layer's bottom"),
        (20, 65, white, "path in a flipped superlayer: not at its layer's top"),
        (70, 95, green, "drawing in a flipped superlayer: at its layer's bottom"),
        (70, 65, white, "drawing in a flipped superlayer: not at its layer's top"),
        (70, 15, green, "drawing flipped inside a flipped superlayer: at its layer's top"),
        (70, 45, white, "drawing flipped inside a flipped superlayer: not at its layer's bottom"),
        (20, 20, blue, "image in a flipped superlayer: upright, blue on top"),
        (20, 40, yellow, "image in a flipped superlayer: upright, yellow below"),
        (110, 90, red, "gradient in a flipped superlayer: its start at its layer's bottom"),
        (110, 30, blue, "gradient in a flipped superlayer: its end at its layer's top"),
        (170, 45, red, "flipped shape layer: its path at its bottom"),
        (170, 15, white, "flipped shape layer: not at its top"),
        (215, 45, green, "flipped drawing layer: the drawing at its bottom"),
        (215, 15, white, "flipped drawing layer: not at its top"),
        (250, 80, red, "flipped gradient: its start at its bottom"),
        (250, 20, blue, "flipped gradient: its end at its top"),
    ]

    /// What in `bitmap` (the tree drawn at `scale`) differs from `expected`.
    public static func problems(in bitmap: Bitmap, scale: Double) -> [String] {
        expected.compactMap { e in
            let p = bitmap[Int(e.x * scale), Int(e.y * scale)]
            let got = [p.r, p.g, p.b, p.a]
            return got == e.rgba ? nil : "\(e.what) at (\(e.x), \(e.y)) @\(scale)x: \(got), want \(e.rgba)"
        }
    }
}
