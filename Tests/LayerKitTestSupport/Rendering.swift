import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore

/// The repository's `Examples/` folder (the copy of the shared scene corpus), found from this
/// file's path so tests do not depend on the working directory.
public let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

/// The display list of a layer tree on a `width` x `height` point canvas.
public func displayList(_ root: CALayer, width: Double, height: Double, scale: Double = 1,
                        background: CGColor? = nil) -> DisplayList {
    Compositor.displayList(root: root.snapshot(), width: width, height: height, scale: scale, background: background)
}

/// Renders a layer tree with the CPU reference. Test canvases are small: one over the canvas
/// limit is a mistake in the test, and traps.
public func renderCPU(_ root: CALayer, width: Double, height: Double, scale: Double = 1,
                      background: CGColor? = nil) -> Bitmap {
    try! CPURenderer().render(displayList(root, width: width, height: height, scale: scale, background: background))
}

/// A solid-colour layer with a frame, for hand-built test trees.
public func solidLayer(_ frame: CGRect, _ color: CGColor, name: String? = nil) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.backgroundColor = color
    l.name = name
    return l
}

/// A solid image of `width` x `height` pixels in one straight colour (premultiplied on creation).
public func solidImage(width: Int, height: Int, _ c: CGColor) -> CGImage {
    var b = Bitmap(width: width, height: height)
    let a = c.alpha
    let px = [c.red * a, c.green * a, c.blue * a, a].map { UInt8(($0 * 255).rounded()) }
    for i in 0..<(width * height) { for k in 0..<4 { b.pixels[i * 4 + k] = px[k] } }
    return CGImage(bitmap: b)
}

extension Bitmap {
    /// The pixel as an array `[r, g, b, a]`, handy in assertions.
    public func rgba(_ x: Int, _ y: Int) -> [UInt8] {
        let p = self[x, y]
        return [p.r, p.g, p.b, p.a]
    }
}

/// Opaque sRGB colour from 0–255 components.
public func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: a)
}
