import Foundation
import LayerKitCore

/// Listing 5.10 live: each face of the cube carries a black layer whose alpha is the listing's
/// shading, recomputed every frame from a light direction the user moves.
///
/// The listing's formula: the face normal is `(0, 0, 1)` through the 3x3 part of the face's
/// transform, and `alpha = 1 + dot(normalize(light), normal) − AMBIENT_LIGHT`, clamped to 0…1
/// as `UIColor` does. As in the book the normal comes from `face.transform` alone, so the
/// light is fixed to the cube; `v` also applies the container's `sublayerTransform` (the
/// camera), which fixes the light to the viewer instead.
final class LitCubePage: Page {
    /// `LIGHT_DIRECTION` of the listing.
    static let bookLight = (x: 0.0, y: 1.0, z: -0.5)
    /// `AMBIENT_LIGHT` of the listing.
    static let ambientLight = 0.5

    private let cube: Cube
    private let lights: [CALayer]
    private let captionLayer: CATextLayer
    private var light = LitCubePage.bookLight
    private var lightInViewSpace = false

    /// Builds the cube and one lighting layer per face.
    init(examples: Examples) throws {
        cube = try Cube(examples: examples)
        lights = cube.faces.map { face in
            let layer = CALayer()
            layer.name = "\(face.name ?? "face")-light"
            layer.frame = face.bounds
            face.addSublayer(layer)
            return layer
        }
        let (canvas, root) = Page.whiteCanvas(400, 440)
        captionLayer = Page.caption(canvasWidth: 400, y: 400)
        root.addSublayer(cube.container)
        root.addSublayer(captionLayer)
        super.init(id: "lit-cube", title: "5.10 lit cube: drag to move the light", canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "drag", action: "move the light (x and y of LIGHT_DIRECTION)"),
         KeyHelp(key: "v", action: "normal through the face's transform only (book) / also the camera"),
         KeyHelp(key: "0", action: "the listing's LIGHT_DIRECTION (0, 1, -0.5)")]
    }

    override func update(clock: DemoClock) -> Redraw {
        for (face, overlay) in zip(cube.faces, lights) {
            var m = face.transform
            if lightInViewSpace { m = m.concatenating(cube.container.sublayerTransform) }
            overlay.backgroundColor = CGColor(gray: 0, alpha: CGFloat(Self.shadow(transform: m, light: light)))
        }
        captionLayer.string = String(format: "LIGHT_DIRECTION (%.2f, %.2f, %.2f) · normal from %@ (v) — drag to move the light",
                                     light.x, light.y, light.z, lightInViewSpace ? "face × camera" : "face.transform")
        return .onInput
    }

    /// The listing's `1 + dot(light, normal) − AMBIENT_LIGHT` for a face turned by `transform`
    /// (unclamped; `CGColor` clamps the alpha, as `UIColor` does).
    static func shadow(transform t: CATransform3D, light: (x: Double, y: Double, z: Double)) -> Double {
        // GLKMatrix4GetMatrix3 of the transform's memory times (0, 0, 1): its third row.
        var n = (Double(t.m31), Double(t.m32), Double(t.m33))
        let nl = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
        n = (n.0 / nl, n.1 / nl, n.2 / nl)
        let ll = (light.x * light.x + light.y * light.y + light.z * light.z).squareRoot()
        let dot = (light.x * n.0 + light.y * n.1 + light.z * n.2) / ll
        return 1 + dot - ambientLight
    }

    override func dragged(by delta: CGSize) -> Bool {
        light.x += Double(delta.width) / 100
        light.y += Double(delta.height) / 100
        return true
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "v": lightInViewSpace.toggle()
        case "0": light = Self.bookLight
        default: return false
        }
        return true
    }
}
