import Foundation
import LayerKitCore

/// Listings 6.11–6.12 (chapter 6, CATiledLayer): a 2048-point picture in a `CATiledLayer`,
/// drawn tile by tile as the book's view controller draws it, at the screen's scale (6.12's
/// Retina fix, `contentsScale`). The wheel (or `+` and `-`) zooms about the view's centre and
/// a drag pans; with `levelsOfDetail` 5 and `levelsOfDetailBias` 1 (zoom 1/16…2), each zoom
/// draws the level that fits, and every tile is marked with its level and index, so the levels
/// are visible. Zooming back shows the kept tiles: the HUD's `tiles` stays 0 then. `r`
/// redraws all tiles (`setNeedsDisplay()`).
final class TiledPage: Page {
    /// The listing's tiled layer.
    let tiledLayer = CATiledLayer()
    /// The zoom factor, a power of 2 from 1/16 to 2 (changed by `zoom(in:)`).
    private(set) var zoom: CGFloat = 0.25
    private let label = Page.caption(canvasWidth: 400, y: 355)
    private let art = SnowmanArt()

    init() {
        let (canvas, root) = Page.whiteCanvas(400, 400)
        let view = CALayer()
        view.name = "scrollView"
        view.frame = CGRect(x: 20, y: 20, width: 360, height: 330)
        view.masksToBounds = true
        view.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        view.borderWidth = 1
        tiledLayer.name = "tiledLayer"
        tiledLayer.bounds = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        tiledLayer.position = CGPoint(x: 180, y: 165)
        tiledLayer.levelsOfDetail = 5
        tiledLayer.levelsOfDetailBias = 1
        tiledLayer.delegate = art
        view.addSublayer(tiledLayer)
        root.addSublayer(view)
        root.addSublayer(label)
        super.init(id: "6.12-tiled", title: "6.12 CATiledLayer: zoom a 2048-point picture", canvas: canvas, root: root)
        applyZoom()
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "wheel, + -", action: "zoom (levels of detail 1/16…2)"), KeyHelp(key: "drag", action: "pan"),
         KeyHelp(key: "r", action: "redraw every tile (setNeedsDisplay)")]
    }

    /// The screen's scale becomes the tiled layer's `contentsScale` too (listing 6.12).
    override func adoptScreenScale(_ scale: CGFloat) {
        super.adoptScreenScale(scale)
        tiledLayer.contentsScale = scale
    }

    /// Zooms in (`in`) or out by a factor of 2, within 1/16…2.
    func zoom(in zoomIn: Bool) {
        zoom = min(max(zoomIn ? zoom * 2 : zoom / 2, 1.0 / 16), 2)
        applyZoom()
    }

    private func applyZoom() {
        tiledLayer.transform = CATransform3DMakeScale(zoom, zoom, 1)
        // The level the compositor will choose on a scale-1 canvas (r = zoom).
        let level = tiledLayer.style.level(screenScale: Double(zoom) * Double(tiledLayer.contentsScale),
                                           size: tiledLayer.bounds.size, contentsScale: tiledLayer.contentsScale) ?? 0
        label.string = "zoom \(zoom): level \(level) of \(tiledLayer.levelsOfDetail); \(tiledLayer.tileStore.tileCount) tiles kept"
    }

    override func wheeled(by dy: Double, at p: CGPoint) -> Bool {
        guard dy != 0 else { return false }
        zoom(in: dy > 0)
        return true
    }

    override func dragged(by delta: CGSize) -> Bool {
        tiledLayer.position.x += delta.width
        tiledLayer.position.y += delta.height
        return true
    }

    override func typed(_ c: Character) -> Bool {
        switch c {
        case "+", "=": zoom(in: true)
        case "-": zoom(in: false)
        case "r": tiledLayer.setNeedsDisplay()
        default: return false
        }
        return true
    }

    override func update(clock: DemoClock) -> Redraw {
        applyZoom()
        return .onInput
    }
}

/// The picture, drawn per tile on the tile-drawing threads: it reads nothing but the context,
/// so concurrent calls are safe. Each tile is outlined and labelled with its level (from the
/// CTM's scale: D = contentsScale · 2^(bias − level)) and its index.
private final class SnowmanArt: CALayerDelegate {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        guard let tiled = layer as? CATiledLayer else { return }
        ctx.drawLinearGradient(CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.12, green: 0.24, blue: 0.47, alpha: 1),
                                                                     CGColor(red: 0.55, green: 0.7, blue: 0.9, alpha: 1)],
                                          locations: [0, 1])!,
                               start: .zero, end: CGPoint(x: 0, y: 2048), options: [])
        ctx.setFillColor(CGColor(red: 0.96, green: 0.97, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 1500, width: 2048, height: 548))
        for (cx, cy, r) in [(1024.0, 1230.0, 330.0), (1024, 820, 230), (1024, 500, 160)] {
            let circle = CGRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)
            ctx.setFillColor(.white)
            ctx.fillEllipse(in: circle)
            ctx.setStrokeColor(CGColor(red: 0.6, green: 0.66, blue: 0.75, alpha: 1))
            ctx.setLineWidth(6)
            ctx.strokeEllipse(in: circle)
        }
        ctx.setFillColor(CGColor(gray: 0.12, alpha: 1))
        for (x, y, r) in [(970.0, 460.0, 18.0), (1078, 460, 18), (1024, 760, 22), (1024, 840, 22), (1024, 920, 22)] {
            ctx.fillEllipse(in: CGRect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
        }
        ctx.setFillColor(CGColor(red: 0.94, green: 0.5, blue: 0.12, alpha: 1))
        ctx.addLines(between: [CGPoint(x: 1024, y: 500), CGPoint(x: 1130, y: 520), CGPoint(x: 1024, y: 540)])
        ctx.fillPath()
        // The tile: its level from the CTM, its index from the clip (the book's arithmetic).
        let tile = ctx.boundingBoxOfClipPath, d = abs(ctx.ctm.a)
        let level = Int((Double(tiled.levelsOfDetailBias) - log2(Double(d / tiled.contentsScale))).rounded())
        let hue: [CGColor] = [.init(red: 0.9, green: 0.1, blue: 0.1, alpha: 0.8), .init(red: 0.1, green: 0.6, blue: 0.1, alpha: 0.8),
                              .init(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.8), .init(red: 0.7, green: 0.1, blue: 0.7, alpha: 0.8),
                              .init(red: 0.8, green: 0.5, blue: 0, alpha: 0.8)]
        ctx.setStrokeColor(hue[min(max(level, 0), hue.count - 1)])
        ctx.setLineWidth(2 / d)
        ctx.stroke(tile.insetBy(dx: 1 / d, dy: 1 / d))
        let column = Int((tile.minX * d / tiled.tileSize.width).rounded()), row = Int((tile.minY * d / tiled.tileSize.height).rounded())
        ctx.setFillColor(hue[min(max(level, 0), hue.count - 1)])
        ctx.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
        _ = ctx.draw(text: "L\(level) \(column),\(row)", at: CGPoint(x: tile.minX + 6 / d, y: tile.minY + 18 / d), font: "DejaVu Sans", size: 14 / d)
    }
}
