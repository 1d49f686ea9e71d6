import Foundation
import LayerKitCore
import LayerKitScene

/// The layer tree the window shows: a backdrop filling the window, the current page's canvas
/// centred on it (a layer with the canvas's bounds and background whose only sublayer is the
/// page's root, as `Scene` defines the canvas, clipping it as a window would), the page's
/// caption under it, and above them the hit outline, the HUD and the keys overlay. A canvas
/// larger than the window is scaled down to fit, keeping its aspect ratio. Sizes are in
/// points; the window's content scale turns them into pixels.
final class Stage {
    /// The top of the tree: the window's backdrop.
    let root = CALayer()
    /// The page's canvas.
    let canvas = CALayer()
    /// The last hit layer's outline.
    let outline = HitOutline()
    /// Timings and counts.
    let hud = HUD()
    /// The `?` list.
    let keys = KeysOverlay()
    /// The page's caption, in a band under the canvas.
    let caption = CATextLayer()
    /// Whether the caption band is shown: not in scripted runs, whose screenshots are the
    /// canvas alone.
    var showsCaption = true {
        didSet { placeCanvas() }
    }
    /// How much the canvas is scaled to fit the window (1: it fits as it is).
    private(set) var canvasScale: CGFloat = 1
    private static let captionHeight: CGFloat = 52
    /// The window's size in points.
    private(set) var size = CGSize.zero
    /// Pixels per point.
    private(set) var scale: CGFloat = 1

    /// Builds the tree (empty until `show` and `layout`).
    init() {
        root.name = "stage"
        root.anchorPoint = .zero
        root.backgroundColor = CGColor(gray: 0.82, alpha: 1)
        canvas.name = "canvas"
        canvas.anchorPoint = .zero
        // A canvas is a window onto the page: nothing draws outside it (the cube at m34 = −1/200
        // reaches past its canvas), as nothing does in a scene render.
        canvas.masksToBounds = true
        caption.name = "caption"
        caption.anchorPoint = .zero
        caption.fontSize = 13
        caption.foregroundColor = CGColor(gray: 0.12, alpha: 1)
        caption.isWrapped = true
        caption.truncationMode = .end
        for l in [canvas, caption, outline.layer, hud.layer, keys.layer] { root.addSublayer(l) }
    }

    /// Puts `page`'s tree on the canvas (again after a reload replaced it).
    func show(_ page: Page) {
        if canvas.sublayers?.first !== page.root { canvas.sublayers = [page.root] }
        canvas.bounds = CGRect(x: 0, y: 0, width: page.canvas.width, height: page.canvas.height)
        canvas.backgroundColor = page.canvas.background
        caption.string = page.caption
        placeCanvas()
    }

    /// Fits the stage to a window of `size` points at `scale` pixels per point.
    func layout(size: CGSize, scale: CGFloat) {
        self.size = size
        self.scale = scale
        root.bounds = CGRect(origin: .zero, size: size)
        root.position = .zero
        hud.layer.position = CGPoint(x: 8, y: 8)
        hud.setScale(scale)
        caption.contentsScale = scale
        keys.layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
        placeCanvas()
    }

    /// Centres the canvas on whole pixels (so a page drawn in a window of its own size lands
    /// exactly where a scene render puts it), beside the HUD when the window has room for both,
    /// above the caption band when there is a caption, scaled down when it is larger than that.
    private func placeCanvas() {
        func snap(_ v: CGFloat) -> CGFloat { (v * scale).rounded(.down) / scale }
        var area = CGRect(origin: .zero, size: size)
        let sidebar = hud.layer.bounds.width + 16
        if !hud.layer.isHidden, size.width - sidebar >= canvas.bounds.width {
            area = CGRect(x: sidebar, y: 0, width: size.width - sidebar, height: size.height)
        }
        caption.isHidden = !showsCaption || caption.string == nil
        if !caption.isHidden { area.size.height = max(area.height - Self.captionHeight, 1) }
        let (w, h) = (canvas.bounds.width, canvas.bounds.height)
        canvasScale = w > 0 && h > 0 ? min(1, area.width / w, area.height / h) : 1
        canvas.transform = canvasScale < 1 ? CATransform3DMakeScale(canvasScale, canvasScale, 1) : CATransform3DIdentity
        canvas.position = CGPoint(x: snap(area.minX + (area.width - w * canvasScale) / 2),
                                  y: snap(area.minY + (area.height - h * canvasScale) / 2))
        caption.frame = CGRect(x: area.minX + 12, y: canvas.position.y + h * canvasScale + 6,
                               width: max(area.width - 24, 1), height: Self.captionHeight - 10)
    }

    /// Shows or hides the HUD, moving the canvas to make room for it.
    var isHUDVisible: Bool {
        get { !hud.layer.isHidden }
        set {
            hud.layer.isHidden = !newValue
            placeCanvas()
        }
    }

    /// A point of the stage (window points) in the canvas's coordinates, which pages use.
    func canvasPoint(_ p: CGPoint) -> CGPoint {
        CGPoint(x: (p.x - canvas.position.x) / canvasScale, y: (p.y - canvas.position.y) / canvasScale)
    }

    /// The number of the page's layers in `snapshot`, a snapshot of `root` (the canvas is its
    /// first sublayer and holds just the page's root).
    func pageLayerCount(in snapshot: LayerSnapshot) -> Int {
        (snapshot.sublayers.first?.layerCount ?? 1) - 1
    }

    /// Brings the outline to where its target is now.
    func updateOutline() {
        outline.update(stageBounds: root.bounds, container: canvas)
    }
}
