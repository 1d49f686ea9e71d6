import QuartzCore

/// Listing 6.12's view controller: a 2048 × 2048 `CATiledLayer` whose delegate draws the tile
/// the context asks for from the tiles listing 6.11 cut, with 6.12's Retina fix (the layer's
/// `contentsScale` is the screen's, and the tile index is found in pixels). UIKit's
/// `UIImage.draw(in:)` becomes a `CGContext.draw` flipped to draw upright in the layer's y-down
/// space, as UIKit does; `tileCount` counts the calls (they may run on several threads).
final class TiledSnowmanController: CALayerDelegate {
    let tiles: [String: CGImage]
    private let lock = NSLock()
    private var drawn: [String] = []

    init(tiles: [String: CGImage]) { self.tiles = tiles }

    /// The names of the tiles drawn so far, sorted.
    var drawnTiles: [String] {
        lock.lock()
        defer { lock.unlock() }
        return drawn.sorted()
    }

    func makeTileLayer(scale: CGFloat) -> CATiledLayer {
        // add the tiled layer
        let tileLayer = CATiledLayer()
        tileLayer.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        tileLayer.delegate = self
        // ensure that the layer draws its tiles at the screen's scale
        tileLayer.contentsScale = scale
        // draw layer
        tileLayer.setNeedsDisplay()
        return tileLayer
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        guard let layer = layer as? CATiledLayer else { return }
        // determine tile coordinate
        let bounds = ctx.boundingBoxOfClipPath
        let scale = layer.contentsScale
        let x = Int(floor(bounds.origin.x / layer.tileSize.width * scale))
        let y = Int(floor(bounds.origin.y / layer.tileSize.height * scale))
        // load tile image
        let imageName = String(format: "Snowman_%02i_%02i", x, y)
        guard let tileImage = tiles[imageName] else { return }
        lock.lock()
        drawn.append(imageName)
        lock.unlock()
        // draw tile (upright, as UIImage draws in UIKit's y-down context)
        ctx.saveGState()
        ctx.translateBy(x: 0, y: bounds.minY + bounds.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(tileImage, in: bounds)
        ctx.restoreGState()
    }
}
