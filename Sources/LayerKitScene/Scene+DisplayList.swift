import LayerCompositor

extension Compositor {
    /// The display list of a scene file's presentation tree and canvas, at `scale` (default:
    /// the scene's) and scene time `time` (default: the scene's `time`).
    public static func displayList(for scene: Scene, scale: Double? = nil, time: Double? = nil) -> DisplayList {
        displayList(root: scene.snapshot(atTime: time ?? scene.time), width: Double(scene.canvas.width), height: Double(scene.canvas.height),
                    scale: scale ?? Double(scene.canvas.scale), background: scene.canvas.background)
    }
}
