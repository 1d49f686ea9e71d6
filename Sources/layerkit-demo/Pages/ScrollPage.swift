import Foundation
import LayerKitCore

/// Listing 6.10 (chapter 6, CAScrollLayer): a 200-point `CAScrollLayer` over a 600-point board
/// of tiles; dragging scrolls it the book's way, `scroll(to: bounds.origin − translation)`. The
/// layer has no content size, so the board can be dragged out of view, as the book says;
/// `r` brings its centre tile into view with `scrollRectToVisible(_:)`, and the caption shows
/// the scroll layer's origin and the centre tile's `visibleRect`.
final class ScrollPage: Page {
    /// The scroll layer the drag moves.
    let scrollLayer = CAScrollLayer()
    /// The tile at the board's centre, which `r` scrolls into view.
    let centreTile: CALayer
    private let label = Page.caption(canvasWidth: 300, y: 255)

    init() {
        let (canvas, root) = Page.whiteCanvas(300, 300)
        scrollLayer.name = "scrollLayer"
        scrollLayer.frame = CGRect(x: 50, y: 30, width: 200, height: 200)
        scrollLayer.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        scrollLayer.borderWidth = 1
        // A 6 x 6 board of 100-point tiles, coloured by their place, so the drag shows where it is.
        var centre: CALayer?
        for row in 0..<6 {
            for column in 0..<6 {
                let tile = CALayer()
                tile.name = "tile-\(row)-\(column)"
                tile.frame = CGRect(x: CGFloat(column) * 100 + 5, y: CGFloat(row) * 100 + 5, width: 90, height: 90)
                tile.backgroundColor = CGColor(red: CGFloat(column) / 5, green: 0.4, blue: CGFloat(row) / 5, alpha: 1)
                tile.cornerRadius = 8
                scrollLayer.addSublayer(tile)
                if row == 3 && column == 3 { centre = tile }
            }
        }
        centreTile = centre!
        root.addSublayer(scrollLayer)
        root.addSublayer(label)
        super.init(id: "6.10-scroll", title: "6.10 CAScrollLayer: drag to scroll", canvas: canvas, root: root)
        describe()
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "drag", action: "scroll (no limits: the layer has no content size)"),
         KeyHelp(key: "r", action: "scrollRectToVisible the centre tile")]
    }

    private func describe() {
        let o = scrollLayer.bounds.origin, v = centreTile.visibleRect
        label.string = "bounds.origin (\(Int(o.x)), \(Int(o.y))); centre tile's visibleRect "
            + "(\(Int(v.minX)), \(Int(v.minY)), \(Int(v.width)), \(Int(v.height)))"
    }

    // Listing 6.10's pan handler: the translation moves the content, so the origin goes the other way.
    override func dragged(by delta: CGSize) -> Bool {
        var offset = scrollLayer.bounds.origin
        offset.x -= delta.width
        offset.y -= delta.height
        scrollLayer.scroll(to: offset)
        describe()
        return true
    }

    override func typed(_ c: Character) -> Bool {
        guard c == "r" else { return false }
        centreTile.scrollRectToVisible(centreTile.bounds)
        describe()
        return true
    }
}
