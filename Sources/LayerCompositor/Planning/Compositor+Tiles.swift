// A tiled layer's contents (docs/scene-format.md, "tiledLayer"): the level of detail chosen
// from how large the layer appears on the canvas, the tiles of that level that lie on the
// canvas drawn where missing (by the layer's TileStore), and one image quad over them.
import Foundation
import LayerKitCore

/// Which level of a tiled layer a placement shows, and which of its tiles lie on the canvas.
struct TilePlan {
    let grid: TileStore.Grid
    /// Tile indices (`row · columns + column`), row by row.
    let tiles: [Int]

    /// The plan for a tiled layer of `style` with properties `p` placed by `toCanvas` (its
    /// bounds space → canvas pixels), showing only what falls in `window` (canvas pixels);
    /// `nil` when it shows no tile.
    init?(style: TiledLayerStyle, properties p: LayerProperties, toCanvas m: CATransform3D, window: CGRect) {
        let b = p.bounds
        let sigma = TilePlan.screenScale(m, at: CGPoint(x: b.midX, y: b.midY))
        guard let level = style.level(screenScale: sigma, size: b.size, contentsScale: p.contentsScale) else { return nil }
        let grid = style.grid(level: level, bounds: b, contentsScale: p.contentsScale)
        let (tw, th) = (grid.tileWidth, grid.tileHeight)
        guard grid.columns > 0, grid.rows > 0, let visible = TilePlan.visibleRect(of: b, toCanvas: m, window: window) else { return nil }
        // The range of tiles under the visible part of the bounds, then each tested on its own
        // (a turned layer's range holds tiles off the canvas at its corners).
        let d = grid.pixelsPerPoint
        func index(_ v: CGFloat, _ origin: CGFloat, _ size: Int, _ count: Int, up: Bool) -> Int {
            let t = (Double(v - origin) * d / Double(size))
            let i: Double = up ? t.rounded(.up) : t.rounded(.down)
            return Int(min(max(i, 0), Double(count)))
        }
        let c0 = index(visible.minX, b.minX, tw, grid.columns, up: false), c1 = index(visible.maxX, b.minX, tw, grid.columns, up: true)
        let r0 = index(visible.minY, b.minY, th, grid.rows, up: false), r1 = index(visible.maxY, b.minY, th, grid.rows, up: true)
        var tiles: [Int] = []
        for r in r0..<max(r1, r0) {
            for c in c0..<max(c1, c0) where TilePlan.mayShow(grid.rect(column: c, row: r), toCanvas: m, window: window) {
                tiles.append(r * grid.columns + c)
            }
        }
        guard !tiles.isEmpty else { return nil }
        self.grid = grid
        self.tiles = tiles
    }

    /// σ: canvas pixels per point of the map `m` at `c`, √|det J| of its 2 x 2 derivative there
    /// (with perspective, the derivative of the projected point).
    static func screenScale(_ m: CATransform3D, at c: CGPoint) -> Double {
        let u = Double(c.x), v = Double(c.y)
        let (m11, m12, m14) = (Double(m.m11), Double(m.m12), Double(m.m14))
        let (m21, m22, m24) = (Double(m.m21), Double(m.m22), Double(m.m24))
        let x = u * m11 + v * m21 + Double(m.m41), y = u * m12 + v * m22 + Double(m.m42), w = u * m14 + v * m24 + Double(m.m44)
        // d(x/w)/du = (m11·w − x·m14) / w², and so on.
        let w2 = w * w
        let xu = (m11 * w - x * m14) / w2, xv = (m21 * w - x * m24) / w2
        let yu = (m12 * w - y * m14) / w2, yv = (m22 * w - y * m24) / w2
        return abs(xu * yv - xv * yu).squareRoot()
    }

    /// The part of `bounds` that can land in `window`: the bounding box of the window's
    /// corners mapped back into the layer's plane, within the bounds. The whole bounds when
    /// the plane's horizon crosses the window (some corners see the plane behind the eye);
    /// `nil` when every corner does, or nothing of the bounds is left.
    static func visibleRect(of bounds: CGRect, toCanvas m: CATransform3D, window: CGRect) -> CGRect? {
        guard let back = PlaneMap(inverseOf: m) else { return nil }
        let corners = [(window.minX, window.minY), (window.maxX, window.minY), (window.minX, window.maxY), (window.maxX, window.maxY)]
            .map { back.apply(Double($0.0), Double($0.1)) }
        if corners.allSatisfy({ $0.w <= 0 }) { return nil }
        guard corners.allSatisfy({ $0.w > 0 }) else { return bounds }
        let xs = corners.map { $0.x / $0.w }, ys = corners.map { $0.y / $0.w }
        let r = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!).intersection(bounds)
        return r.isNull || r.width <= 0 || r.height <= 0 ? nil : r
    }

    /// Whether `rect` (bounds space) may show in `window`: its corners' bounding box on the
    /// canvas overlaps the window, or a corner lies behind the eye (then it is drawn to be safe).
    static func mayShow(_ rect: CGRect, toCanvas m: CATransform3D, window: CGRect) -> Bool {
        var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for (u, v) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            let w = Double(u * m.m14 + v * m.m24 + m.m44)
            guard w > 0 else { return true }
            let x = Double(u * m.m11 + v * m.m21 + m.m41) / w, y = Double(u * m.m12 + v * m.m22 + m.m42) / w
            (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        }
        return x0 < Double(window.maxX) && x1 > Double(window.minX) && y0 < Double(window.maxY) && y1 > Double(window.minY)
    }

    /// The part of a `width` x `height` pixel canvas that `clips` leave: the canvas cut to the
    /// bounding box of each rectangle clip (`masksToBounds`) placed on it. Clips are in canvas
    /// pixels only outside offscreen passes (`onCanvas`); elsewhere, and where a clip's corner
    /// lies behind the eye, a clip leaves the canvas as it is.
    static func window(width: Int, height: Int, clips: [Clip], onCanvas: Bool) -> CGRect {
        var window = CGRect(x: 0, y: 0, width: width, height: height)
        guard onCanvas else { return window }
        for clip in clips {
            guard case let .roundedRect(r, _, _) = clip.shape else { continue }
            let e = clip.map.entries
            var t = CATransform3DIdentity
            (t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44) =
                (CGFloat(e[0]), CGFloat(e[1]), CGFloat(e[2]), CGFloat(e[3]), CGFloat(e[4]), CGFloat(e[5]), CGFloat(e[6]), CGFloat(e[7]), CGFloat(e[8]))
            guard let forward = PlaneMap(inverseOf: t) else { continue }
            let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY)].map { forward.apply(Double($0.0), Double($0.1)) }
            guard corners.allSatisfy({ $0.w > 0 }) else { continue }
            let xs = corners.map { $0.x / $0.w }, ys = corners.map { $0.y / $0.w }
            window = window.intersection(CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
            if window.isNull { return .zero }
        }
        return window
    }
}

extension Builder {
    /// A tiled layer's contents: the tiles of the level its placement shows that lie on the
    /// canvas, drawn where missing and assembled into one image, placed so that the level's
    /// pixel (x, y) covers the points [x/D, (x+1)/D) × [y/D, (y+1)/D) from the bounds' top-left
    /// corner, cut to the bounds (so there are no seams between tiles), and sampled with the
    /// layer's filters.
    func emitTiles(_ l: LayerSnapshot, style: TiledLayerStyle, placement: Placement, clips: [Clip], quad: (CGRect, ImageFill) -> Void) {
        drawsTiles = true
        let p = l.properties
        let window = TilePlan.window(width: canvasWidth, height: canvasHeight, clips: clips, onCanvas: offscreenDepth == 0)
        guard !window.isEmpty, let plan = TilePlan(style: style, properties: p, toCanvas: placement.toCanvas, window: window),
              let region = style.tiles.region(of: plan.grid, tiles: plan.tiles, style: style, contentsScale: p.contentsScale) else { return }
        let d = plan.grid.pixelsPerPoint, b = p.bounds
        let x0 = Double(b.minX) + Double(region.x) / d, y0 = Double(b.minY) + Double(region.y) / d
        let x1 = x0 + Double(region.image.width) / d, y1 = y0 + Double(region.image.height) / d
        let rect = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(b)
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return }
        quad(rect, ImageFill(image: region.image, x: AxisMap(stops: [x0, x1], texels: [0, Double(region.image.width)]),
                             y: AxisMap(stops: [y0, y1], texels: [0, Double(region.image.height)]),
                             minification: p.minificationFilter, magnification: p.magnificationFilter, modulation: style.modulation))
    }
}
