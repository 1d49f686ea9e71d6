import Foundation
import LayerKitCore

/// The book's cube (listing 5.9): six 200-point faces, each centred in a 400-point container
/// and folded into place by its own transform; the container's `sublayerTransform` is the
/// camera. Shared by the cube, lit cube and hit-testing pages.
struct Cube {
    /// The container, at the canvas's top-left; its sublayers are the faces, in the book's order.
    let container: CALayer
    /// `face1` … `face6`.
    let faces: [CALayer]

    /// The faces' transforms, in the listing's words: translate half the cube's size out, then
    /// turn to face outwards (`CATransform3DRotate` applies the turn first).
    static let faceTransforms: [CATransform3D] = [
        CATransform3DMakeTranslation(0, 0, 100),
        CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
    ]

    /// Builds the cube with the die pictures `Examples/images/face1…6.png`, seen from the
    /// book's corner (figure 5.21).
    init(examples: Examples) throws {
        container = CALayer()
        container.name = "container"
        container.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        var faces: [CALayer] = []
        for (i, transform) in Self.faceTransforms.enumerated() {
            let face = CALayer()
            face.name = "face\(i + 1)"
            face.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            face.position = CGPoint(x: 200, y: 200)
            face.contents = try examples.image("face\(i + 1)")
            face.transform = transform
            container.addSublayer(face)
            faces.append(face)
        }
        self.faces = faces
        container.sublayerTransform = Self.camera(pitch: -.pi / 4, yaw: -.pi / 4, distance: 500)
    }

    /// The listing's camera: perspective `m34 = -1/distance` (none when `distance` is 0), then
    /// turned by `pitch` about x and `yaw` about y (each `CATransform3DRotate` applies first).
    static func camera(pitch: CGFloat, yaw: CGFloat, distance: CGFloat) -> CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = distance > 0 ? -1 / distance : 0
        perspective = CATransform3DRotate(perspective, pitch, 1, 0, 0)
        return CATransform3DRotate(perspective, yaw, 0, 1, 0)
    }
}

/// The camera of the cube pages: dragging turns it, keys change the perspective distance.
struct CubeCamera {
    /// The `m34` distances the keys step through (listing 5.9 uses 500).
    static let distances: [CGFloat] = [200, 300, 500, 800, 1200, 2000]
    /// Turn about x, radians (the book's corner view: −45°).
    var pitch: CGFloat = -.pi / 4
    /// Turn about y, radians (the book's corner view: −45°).
    var yaw: CGFloat = -.pi / 4
    /// Index into `distances`.
    var distanceIndex = 2

    /// The container's `sublayerTransform`.
    var transform: CATransform3D { Cube.camera(pitch: pitch, yaw: yaw, distance: distance) }
    /// The current `m34` distance.
    var distance: CGFloat { Self.distances[distanceIndex] }

    /// Turns the camera as if the drag rolled the cube under the pointer (half a degree per point).
    mutating func drag(_ d: CGSize) {
        yaw += radians(d.width / 2)
        pitch = min(max(pitch - radians(d.height / 2), -.pi / 2), .pi / 2)
    }

    /// `+`/`-` step the distance, `0` returns to the corner view; returns whether `c` was one.
    mutating func typed(_ c: Character) -> Bool {
        switch c {
        case "+", "=": distanceIndex = min(distanceIndex + 1, Self.distances.count - 1)
        case "-", "_": distanceIndex = max(distanceIndex - 1, 0)
        case "0": self = CubeCamera()
        default: return false
        }
        return true
    }

    /// The keys, for the `?` overlay.
    static let keys = [KeyHelp(key: "drag", action: "turn the camera (the container's sublayerTransform)"),
                       KeyHelp(key: "+ / -", action: "m34 = -1/d: d farther / nearer (200 … 2000)"),
                       KeyHelp(key: "0", action: "back to the book's corner view")]

    /// One line describing the camera, for captions.
    var summary: String {
        String(format: "m34 = -1/%.0f · pitch %.0f° · yaw %.0f°", distance, pitch * 180 / .pi, yaw * 180 / .pi)
    }
}
