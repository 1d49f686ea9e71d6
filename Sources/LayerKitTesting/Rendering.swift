import LayerKit

/// What one image snapshot draws: a tree on a canvas.
struct ImageRequest {
    var root: LayerSnapshot
    var width: Double, height: Double, scale: Double
    var background: CGColor?

    /// Refuses what cannot make an image (an empty or non-finite size or scale, a canvas over
    /// LayerKit's limit) with a sentence saying which and why.
    init(root: LayerSnapshot, width: CGFloat, height: CGFloat, scale: CGFloat, background: CGColor?) throws {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw SnapshotError("the image would be \(width)x\(height) points: give the layer bounds, or the image a size (.image(size:))")
        }
        guard scale.isFinite, scale > 0 else { throw SnapshotError("the scale \(scale) is not a positive number") }
        try CanvasSizeError.check(width: Double(width), height: Double(height), scale: Double(scale))
        (self.root, self.width, self.height, self.scale, self.background) = (root, Double(width), Double(height), Double(scale), background)
    }

    func displayList() -> DisplayList {
        Compositor.displayList(root: root, width: width, height: height, scale: scale, background: background)
    }
}

/// Why a snapshot could not be taken, in one sentence.
struct SnapshotError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension LayerSnapshot {
    /// The root moved so that its bounds are the canvas, as `render(in:)` draws a layer: its
    /// bounds' origin at the canvas's, its own position, transform and z position not applied.
    func placedAtBoundsOrigin() -> LayerSnapshot {
        var p = properties
        p.position = CGPoint(x: p.anchorPoint.x * p.bounds.width, y: p.anchorPoint.y * p.bounds.height)
        p.transform = CATransform3DIdentity
        p.zPosition = 0
        return LayerSnapshot(properties: p, kind: kind, sublayers: sublayers, mask: mask, transition: transition)
    }
}

/// Draws `list` with OpenGL on a headless EGL context made for it (current on this thread
/// only while it draws), so that an assertion needs no setup and leaves no GL state behind.
func renderGL(_ list: DisplayList) throws -> Bitmap {
    do {
        let context = try EGLHeadlessContext()
        return try withExtendedLifetime(context) {
            // The renderer frees its GL objects when it goes, so it goes before the context.
            try GLRenderer().render(list)
        }
    } catch {
        throw SnapshotError("the GL backend cannot draw here: \(error)")
    }
}
