import Foundation
import LayerKitCore

/// A page with one layer showing an image, whose bounds follow the pointer: its top-left
/// corner stays put and its bottom-right corner is wherever the pointer is, so the way Core
/// Animation fits `contents` into changing bounds can be watched. Subclasses set the contents
/// properties being shown and describe them in the caption.
class ResizingContentsPage: Page {
    /// The layer being resized.
    let layer = CALayer()
    private let captionLayer: CATextLayer
    private static let origin = CGPoint(x: 40, y: 40)
    private static let canvasSize = CGSize(width: 480, height: 480)

    /// A page resizing a layer that shows `image`; the layer's border shows its bounds.
    init(id: String, title: String, image: CGImage) {
        let (canvas, root) = Page.whiteCanvas(Self.canvasSize.width, Self.canvasSize.height)
        layer.name = "layer"
        layer.frame = CGRect(origin: Self.origin, size: CGSize(width: 240, height: 160))
        layer.contents = image
        layer.borderWidth = 1
        layer.borderColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.6)
        root.addSublayer(layer)
        captionLayer = Page.caption(canvasWidth: Self.canvasSize.width, y: Self.canvasSize.height - 44)
        root.addSublayer(captionLayer)
        super.init(id: id, title: title, canvas: canvas, root: root)
    }

    /// What the caption says about the layer's contents properties.
    var summary: String { "" }

    override func update(clock: DemoClock) -> Redraw {
        let size = layer.bounds.size
        captionLayer.string = summary + String(format: " · bounds %.0f x %.0f — move the pointer to resize", size.width, size.height)
        return .onInput
    }

    override func pointerMoved(to p: CGPoint) -> Bool {
        let maxX = Self.canvasSize.width - 10, maxY = Self.canvasSize.height - 50
        let corner = CGPoint(x: min(max(p.x, Self.origin.x + 4), maxX), y: min(max(p.y, Self.origin.y + 4), maxY))
        layer.frame = CGRect(x: Self.origin.x, y: Self.origin.y, width: corner.x - Self.origin.x, height: corner.y - Self.origin.y)
        return true
    }
}
