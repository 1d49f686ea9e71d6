import Foundation
import Synchronization

/// A tiled layer's own properties as one value (`CATiledLayer` reads and writes it; a snapshot
/// records it in `LayerSnapshot.Kind.tiled`), with the store of the tiles drawn so far.
public struct TiledLayerStyle: Equatable, Sendable {
    /// The size of a tile in pixels of the level's bitmap. Sides are rounded to whole pixels
    /// and held within 1…4096 when tiles are cut (`tilePixels`).
    public var tileSize = CGSize(width: 256, height: 256)
    /// How many levels of detail there are, each half the resolution of the one before; levels
    /// whose bitmap would be under a pixel in either dimension are dropped (`usableLevels`).
    public var levelsOfDetail = 1
    /// How many of the levels magnify: level j draws at `2^(levelsOfDetailBias − j)` times
    /// `contentsScale`.
    public var levelsOfDetailBias = 0
    /// The tiles drawn so far, shared by the layer, its snapshots and its presentation copies
    /// (compared by identity).
    public let tiles: TileStore
    /// What the tiles' pixels are multiplied by, channel by channel (premultiplied; opaque white,
    /// the default, changes nothing): a `CAReplicatorLayer`'s copy sets its modulation colour
    /// here, as it tints a plain layer's `contents`. Not a property of Apple's class.
    public var modulation = PremultipliedColor(r: 1, g: 1, b: 1, a: 1)
    /// How many times the layer's tiles were dropped by `setNeedsDisplay`: a snapshot taken
    /// after differs from one taken before, so a frame that must redraw tiles is not a reuse of
    /// the last one.
    public internal(set) var revision = 0

    /// Core Animation's defaults, with the tiles of `tiles`.
    public init(tiles: TileStore) { self.tiles = tiles }

    /// The largest side, in pixels, of a level's bitmap that is drawn: the bound of a drawing
    /// (`CanvasSizeError.maximumSide`, 16,384). A finer level is replaced by the finest one
    /// within it, magnified.
    public static let maximumLevelSide = CanvasSizeError.maximumSide
    /// The largest tile side in pixels (the scene format's bound; Apple substitutes "a suitable
    /// value" for a tile size over its own maximum).
    public static let maximumTileSide = 4096

    /// The most tiles one level is cut into: 4,096, what the default 256-pixel tiles make of the
    /// largest level (16,384 pixels a side). A level that `tileSize` would cut into more is cut
    /// into tiles whose sides are doubled until it is not, so a level costs at most that many
    /// `draw(in:)` calls and kept images.
    public static let maximumTilesPerLevel = 4096

    /// The grid level `j` of a layer with `bounds` at `contentsScale` is cut into (see
    /// `maximumTilesPerLevel`).
    public func grid(level j: Int, bounds: CGRect, contentsScale: CGFloat) -> TileStore.Grid {
        let (tw, th) = tilePixels
        return TileStore.Grid(level: j, bias: levelsOfDetailBias, bounds: bounds, contentsScale: contentsScale, tileWidth: tw, tileHeight: th)
    }

    /// Level j's pixels per point: `contentsScale · 2^(levelsOfDetailBias − j)`.
    public func pixelsPerPoint(level j: Int, contentsScale: CGFloat) -> Double {
        Self.pixelsPerPoint(level: j, bias: levelsOfDetailBias, contentsScale: contentsScale)
    }

    static func pixelsPerPoint(level j: Int, bias: Int, contentsScale: CGFloat) -> Double {
        Double(contentsScale) * exp2(Double(bias) - Double(j))
    }

    /// The tile size in whole pixels, each side rounded and held within 1…`maximumTileSide`
    /// (a non-finite side is 1).
    public var tilePixels: (width: Int, height: Int) {
        func side(_ v: CGFloat) -> Int {
            guard v.isFinite else { return 1 }
            return Int(min(max(v.rounded(), 1), CGFloat(Self.maximumTileSide)))
        }
        return (side(tileSize.width), side(tileSize.height))
    }

    /// The levels drawn for a layer of `size` points at `contentsScale`: from the first whose
    /// bitmap is at most `maximumLevelSide` pixels a side up to (excluding) the first whose
    /// bitmap would be under one pixel in either dimension (Apple: "the bottom most LOD must
    /// contain at least a single pixel in each dimension"), and not past `levelsOfDetail`. Empty
    /// when no level fits both bounds (the layer then draws no tiles).
    public func usableLevels(size: CGSize, contentsScale: CGFloat) -> Range<Int> {
        let n = max(levelsOfDetail, 1)
        let w = Double(size.width), h = Double(size.height)
        guard w > 0, h > 0, w.isFinite, h.isFinite, contentsScale > 0 else { return 0..<0 }
        func hasPixel(_ j: Int) -> Bool {
            let d = pixelsPerPoint(level: j, contentsScale: contentsScale)
            return w * d >= 1 && h * d >= 1
        }
        func fits(_ j: Int) -> Bool {
            let d = pixelsPerPoint(level: j, contentsScale: contentsScale)
            return (w * d).rounded(.up) <= Double(Self.maximumLevelSide) && (h * d).rounded(.up) <= Double(Self.maximumLevelSide)
        }
        // D_j halves from level to level, so both bounds are thresholds on j: estimated with
        // log2, then settled by the exact checks (the estimate is off by at most one).
        let small = Double(contentsScale) * min(w, h), large = Double(contentsScale) * max(w, h)
        let bias = Double(levelsOfDetailBias)
        func index(_ v: Double) -> Int { Int(min(max(v, -1), Double(n) + 1)) }
        var end = index((bias + log2(small)).rounded(.down) + 1)
        while end > 0 && !hasPixel(end - 1) { end -= 1 }
        while end < n && hasPixel(end) { end += 1 }
        end = min(max(end, 0), n)
        var start = index((bias - log2(Double(Self.maximumLevelSide) / large)).rounded(.up))
        start = max(start, 0)
        while start > 0 && fits(start - 1) { start -= 1 }
        while start < end && !fits(start) { start += 1 }
        return start < end ? start..<end : 0..<0
    }

    /// The level drawn where the layer appears at `screenScale` canvas pixels per point (σ):
    /// with r = σ / `contentsScale`, j = b − ⌈log2(r) − 1e−6⌉ held within `usableLevels` —
    /// the lowest-resolution level that is not magnified, or the finest one when even that is
    /// too coarse. `nil` when no level is usable or σ is not a number.
    public func level(screenScale sigma: Double, size: CGSize, contentsScale: CGFloat) -> Int? {
        let levels = usableLevels(size: size, contentsScale: contentsScale)
        guard !levels.isEmpty, !sigma.isNaN, contentsScale > 0 else { return nil }
        let r = sigma / Double(contentsScale)
        let j = Double(levelsOfDetailBias) - (log2(r) - 1e-6).rounded(.up)
        return Int(min(max(j, Double(levels.lowerBound)), Double(levels.upperBound - 1)))
    }
}

/// The tiles a `CATiledLayer` has drawn, level by level, and the drawing of missing ones.
///
/// The compositor asks for some tiles of one level (`region(of:tiles:style:contentsScale:)`);
/// those not drawn yet are drawn by the layer's `draw(in:)`, concurrently on the CPU cores,
/// and kept, so a level drawn once is not drawn again until `setNeedsDisplay` invalidates its
/// tiles or the layer's geometry (bounds, `contentsScale`, tile size, levels) changes. Its state
/// is behind a lock: any thread may ask.
public final class TileStore: @unchecked Sendable {
    /// The layer whose `draw(in:)` draws the tiles (the model layer; its presentation copies
    /// share its store).
    weak var layer: CALayer?

    /// What tiles are cut from, for one level.
    public struct Grid: Hashable, Sendable {
        /// The level.
        public var level: Int
        /// The level's pixels per point.
        public var pixelsPerPoint: Double
        /// The layer's bounds (the drawing's coordinate space).
        public var bounds: CGRect
        /// The tile size in pixels.
        public var tileWidth: Int, tileHeight: Int

        /// A grid of `tileWidth` x `tileHeight` pixel tiles over `bounds` at level `level`,
        /// `pixelsPerPoint` pixels per point.
        public init(level: Int, pixelsPerPoint: Double, bounds: CGRect, tileWidth: Int, tileHeight: Int) {
            (self.level, self.pixelsPerPoint, self.bounds, self.tileWidth, self.tileHeight) = (level, pixelsPerPoint, bounds, tileWidth, tileHeight)
        }

        /// Level `j`'s grid for a layer with `bounds` at `contentsScale` and `levelsOfDetailBias`
        /// `bias`, in tiles of `tileWidth` x `tileHeight` pixels, their sides doubled while the
        /// level would have more than `TiledLayerStyle.maximumTilesPerLevel` tiles.
        init(level j: Int, bias: Int, bounds: CGRect, contentsScale: CGFloat, tileWidth: Int, tileHeight: Int) {
            self.init(level: j, pixelsPerPoint: TiledLayerStyle.pixelsPerPoint(level: j, bias: bias, contentsScale: contentsScale),
                      bounds: bounds, tileWidth: tileWidth, tileHeight: tileHeight)
            while columns * rows > TiledLayerStyle.maximumTilesPerLevel {
                self.tileWidth *= 2
                self.tileHeight *= 2
            }
        }

        /// The level's bitmap size in pixels: ⌈bounds × pixelsPerPoint⌉ (held within 0…2^31, for
        /// a level past `usableLevels`, which is never drawn).
        public var pixelWidth: Int { Self.pixels(Double(bounds.width) * pixelsPerPoint) }
        /// See `pixelWidth`.
        public var pixelHeight: Int { Self.pixels(Double(bounds.height) * pixelsPerPoint) }

        private static func pixels(_ v: Double) -> Int { v >= 0 ? Int(min(v.rounded(.up), 0x1p31)) : 0 }
        /// Tiles across.
        public var columns: Int { (pixelWidth + tileWidth - 1) / tileWidth }
        /// Tiles down.
        public var rows: Int { (pixelHeight + tileHeight - 1) / tileHeight }

        /// Tile (column, row)'s pixels in the level's bitmap, cut to the bitmap.
        public func pixelRect(column c: Int, row r: Int) -> (x: Int, y: Int, width: Int, height: Int) {
            let x = c * tileWidth, y = r * tileHeight
            return (x, y, min(tileWidth, pixelWidth - x), min(tileHeight, pixelHeight - y))
        }

        /// Tile (column, row)'s rectangle in the layer's bounds space (points).
        public func rect(column c: Int, row r: Int) -> CGRect {
            let t = pixelRect(column: c, row: r), d = pixelsPerPoint
            return CGRect(x: Double(bounds.minX) + Double(t.x) / d, y: Double(bounds.minY) + Double(t.y) / d,
                          width: Double(t.width) / d, height: Double(t.height) / d)
        }
    }

    /// A range of tiles of one level, assembled into one image.
    public struct Region: Sendable {
        /// The image: the tiles' pixels side by side, those not asked for transparent.
        public let image: CGImage
        /// Where its top-left pixel lies in the level's bitmap.
        public let x: Int, y: Int
        /// How many tiles this request drew (the rest were kept from before).
        public let drawnTiles: Int
    }

    /// What the tiles are cut for, whatever the level: a change drops every tile.
    private struct Geometry: Equatable {
        var bounds: CGRect, scale: CGFloat, tileWidth: Int, tileHeight: Int, bias: Int
    }

    private struct State {
        var geometry: Geometry?
        /// Tiles by level, then by `row · columns + column`.
        var levels: [Int: [Int: CGImage]] = [:]
        /// Bumped whenever tiles are dropped: an assembly or a drawing begun before is stale.
        var generation = 0
        /// The last region assembled, reused while nothing it shows changed.
        var last: (grid: Grid, tiles: [Int], generation: Int, region: Region)?
    }
    private let state = Mutex(State())

    /// An empty store.
    public init() {}

    /// How many tiles are kept now, all levels together.
    public var tileCount: Int { state.withLock { $0.levels.values.reduce(0) { $0 + $1.count } } }

    /// The kept tiles' indices (`row · columns + column`) at `level`.
    public func keptTiles(level: Int) -> Set<Int> { state.withLock { Set($0.levels[level].map { Array($0.keys) } ?? []) } }

    /// Drops the tiles that `rect` (bounds space; `nil`: all of them) touches, at every level:
    /// those holding a pixel of the rectangle rounded outward to whole pixels of their level,
    /// as `setNeedsDisplay(_:)` of a plain layer redraws.
    func invalidate(_ rect: CGRect?) {
        state.withLock { s in
            s.generation += 1
            guard let rect, let g = s.geometry else {
                s.levels = [:]
                return
            }
            for (level, tiles) in s.levels {
                let grid = Grid(level: level, bias: g.bias, bounds: g.bounds, contentsScale: g.scale, tileWidth: g.tileWidth,
                                tileHeight: g.tileHeight)
                let d = grid.pixelsPerPoint
                let x0 = (Double(rect.minX - g.bounds.minX) * d).rounded(.down), x1 = (Double(rect.maxX - g.bounds.minX) * d).rounded(.up)
                let y0 = (Double(rect.minY - g.bounds.minY) * d).rounded(.down), y1 = (Double(rect.maxY - g.bounds.minY) * d).rounded(.up)
                s.levels[level] = tiles.filter { key, _ in
                    let t = grid.pixelRect(column: key % grid.columns, row: key / grid.columns)
                    return !(Double(t.x) < x1 && x0 < Double(t.x + t.width) && Double(t.y) < y1 && y0 < Double(t.y + t.height))
                }
            }
        }
    }

    /// The tiles `tiles` (indices `row · columns + column`, within the grid) of `grid`, drawn
    /// where missing and assembled into one image over their bounding range of tiles; `nil`
    /// when there are none. `style` gives the geometry the tiles are kept for. Missing tiles
    /// are drawn by the layer's `draw(in:)` concurrently (`DispatchQueue.concurrentPerform`),
    /// each into its own context; without a layer (it was freed) they are transparent.
    public func region(of grid: Grid, tiles: [Int], style: TiledLayerStyle, contentsScale: CGFloat) -> Region? {
        guard !tiles.isEmpty else { return nil }
        let (tw, th) = style.tilePixels
        let geometry = Geometry(bounds: grid.bounds, scale: contentsScale, tileWidth: tw, tileHeight: th, bias: style.levelsOfDetailBias)
        let (kept, missing, generation, reused): ([Int: CGImage], [Int], Int, Region?) = state.withLock { s in
            if s.geometry != geometry {
                s.geometry = geometry
                s.levels = [:]
                s.generation += 1
            }
            if let last = s.last, last.grid == grid, last.tiles == tiles, last.generation == s.generation {
                return ([:], [], s.generation, Region(image: last.region.image, x: last.region.x, y: last.region.y, drawnTiles: 0))
            }
            let level = s.levels[grid.level] ?? [:]
            return (level, tiles.filter { level[$0] == nil }, s.generation, nil)
        }
        if let reused { return reused }
        let drawn = draw(missing, of: grid)
        CATiledLayer.tileDrawCount.add(missing.count, ordering: .relaxed)
        var all = kept
        for (key, image) in zip(missing, drawn) { all[key] = image }
        let region = assemble(tiles, of: grid, from: all, drawnTiles: missing.count)
        state.withLock { s in
            guard s.generation == generation else { return }  // invalidated meanwhile: show them this once
            var level = s.levels[grid.level] ?? [:]
            for (key, image) in zip(missing, drawn) { level[key] = image }
            s.levels[grid.level] = level
            s.last = (grid, tiles, generation, region)
        }
        return region
    }

    /// Draws each tile of `keys` with the layer's `draw(in:)`, in parallel.
    private func draw(_ keys: [Int], of grid: Grid) -> [CGImage] {
        guard !keys.isEmpty else { return [] }
        let layer = self.layer
        let results = UnsafeMutableBufferPointer<CGImage?>.allocate(capacity: keys.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize().deallocate() }
        let slots = SendableSlots(results)
        DispatchQueue.concurrentPerform(iterations: keys.count) { i in
            let key = keys[i]
            slots.base[i] = TileStore.drawTile(column: key % grid.columns, row: key / grid.columns, of: grid, with: layer)
        }
        let blank = CGImage(bitmap: Bitmap(width: 1, height: 1))
        return results.map { $0 ?? blank }
    }

    /// One tile: a transparent context of the tile's pixels whose CTM maps the layer's bounds
    /// space onto them (scale D, y down, the tile's top-left pixel at the origin), so that its
    /// clip's bounding box is the tile's rectangle in points.
    private static func drawTile(column c: Int, row r: Int, of grid: Grid, with layer: CALayer?) -> CGImage? {
        let t = grid.pixelRect(column: c, row: r), d = CGFloat(grid.pixelsPerPoint)
        guard let ctx = CGContext(data: nil, width: t.width, height: t.height, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            return nil
        }
        ctx.translateBy(x: 0, y: CGFloat(t.height))
        ctx.scaleBy(x: d, y: -d)
        ctx.translateBy(x: -grid.bounds.minX - CGFloat(t.x) / d, y: -grid.bounds.minY - CGFloat(t.y) / d)
        ctx.baseTransform = CGAffineTransform(scaleX: d, y: -d)
        layer?.draw(in: ctx)
        return ctx.makeImage()
    }

    /// The tiles' pixels copied side by side into one image over their bounding range.
    private func assemble(_ keys: [Int], of grid: Grid, from tiles: [Int: CGImage], drawnTiles: Int) -> Region {
        let cols = keys.map { $0 % grid.columns }, rows = keys.map { $0 / grid.columns }
        let first = grid.pixelRect(column: cols.min()!, row: rows.min()!), last = grid.pixelRect(column: cols.max()!, row: rows.max()!)
        let width = last.x + last.width - first.x, height = last.y + last.height - first.y
        var bitmap = Bitmap(width: width, height: height)
        bitmap.pixels.withUnsafeMutableBytes { out in
            for key in keys {
                guard let tile = tiles[key]?.bitmap else { continue }
                let t = grid.pixelRect(column: key % grid.columns, row: key / grid.columns)
                let rowBytes = min(t.width, tile.width) * 4
                tile.pixels.withUnsafeBytes { src in
                    for y in 0..<min(t.height, tile.height) {
                        let dst = ((t.y - first.y + y) * width + (t.x - first.x)) * 4
                        (out.baseAddress! + dst).copyMemory(from: src.baseAddress! + y * tile.width * 4, byteCount: rowBytes)
                    }
                }
            }
        }
        return Region(image: CGImage(bitmap: bitmap, source: "tiles"), x: first.x, y: first.y, drawnTiles: drawnTiles)
    }

    /// Equal when they are the same store.
    public static func == (a: TileStore, b: TileStore) -> Bool { a === b }
}

extension TiledLayerStyle {
    /// Equal properties and the same store.
    public static func == (a: Self, b: Self) -> Bool {
        a.tileSize == b.tileSize && a.levelsOfDetail == b.levelsOfDetail && a.levelsOfDetailBias == b.levelsOfDetailBias && a.tiles === b.tiles
            && a.revision == b.revision && a.modulation == b.modulation
    }
}

/// The result slots of a parallel loop, each written by one iteration only.
private struct SendableSlots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T>
    init(_ base: UnsafeMutableBufferPointer<T>) { self.base = base }
}

/// A layer that draws its contents tile by tile, at a level of detail chosen from how large it
/// appears: Core Animation's `CATiledLayer`.
///
/// Level j of `levelsOfDetail` draws at `contentsScale · 2^(levelsOfDetailBias − j)` pixels
/// per point; each frame draws the lowest-resolution level that is not magnified on the canvas
/// (the finest one when even that is), as the presentation tree places the layer, so an
/// animated scale switches levels. The level's bitmap is cut into tiles of `tileSize` pixels
/// from its top-left corner, and `draw(in:)` is called once per tile, only for the tiles on the
/// canvas that are not drawn yet: the context's `boundingBoxOfClipPath` is the tile's
/// rectangle in the layer's points and its CTM has the level's scale (y down). Tiles are kept:
/// showing a level again draws nothing, until `setNeedsDisplay()` drops every tile, or
/// `setNeedsDisplay(_:)` the tiles its rectangle touches (at every level), or the bounds,
/// `contentsScale` or tiling change. Setting `contents` makes it draw as a plain layer.
///
/// Threads: as on Apple's platforms, `draw(in:)` (and the delegate's `draw(_:in:)`) of a tiled
/// layer is called on background threads, several tiles at once, while a frame is composited.
/// It must only read state that nothing changes meanwhile (the layer's properties while the
/// frame loop composites, images, values of its own guarded by a lock) and draw only into the
/// context it is given. Each tile has its own context.
///
/// Bounds (documented, not errors): a level whose bitmap would be over 16,384 pixels a side
/// (`TiledLayerStyle.maximumLevelSide`) is not drawn, the finest level within it is shown
/// magnified in its place; levels under a pixel are dropped, so a `levelsOfDetail` of 10^6
/// draws as the levels that have one; tile sides are held within 1…4096 pixels, and doubled for
/// a level they would cut into more than 4,096 tiles (`TiledLayerStyle.maximumTilesPerLevel`),
/// so a frame makes at most that many `draw(in:)` calls for the layer. Every kept
/// tile stays in memory, so a layer holds at most its levels' bitmaps (4/3 of the finest).
/// `fadeDuration()` changes nothing LayerKit draws: every frame shows every tile it needs.
open class CATiledLayer: CALayer {
    /// The layer's properties as one value (the properties below read and write it).
    public var style: TiledLayerStyle { didSet { snapshotChanged() } }
    /// `.tiled` with this layer's properties.
    public override var snapshotKind: LayerSnapshot.Kind { .tiled(style) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .tiled(let s) = kind { style = s } }
    override class var defaultKind: LayerSnapshot.Kind { .tiled(TiledLayerStyle(tiles: TileStore())) }

    /// A tiled layer with Core Animation's defaults.
    public override init() {
        style = TiledLayerStyle(tiles: TileStore())
        super.init()
        style.tiles.layer = self
    }

    /// A copy of `layer`'s state (see `CALayer.init(layer:)`); a copy of a tiled layer shows
    /// that layer's tiles, as a presentation copy does.
    public override init(layer: Any) {
        style = TiledLayerStyle(tiles: TileStore())
        super.init(layer: layer)
        if !(layer is CATiledLayer) { style.tiles.layer = self }
    }

    /// A tiled layer with Core Animation's defaults; nothing is read from `coder`.
    public required init?(coder: NSCoder) {
        style = TiledLayerStyle(tiles: TileStore())
        super.init(coder: coder)
        style.tiles.layer = self
    }

    /// How long a new tile takes to fade in on Apple's platforms: 0.25 seconds. LayerKit shows
    /// every tile a frame needs in that frame, with no fade.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// How many levels of detail the layer has (default 1). Not animatable.
    public var levelsOfDetail: Int {
        get { style.levelsOfDetail }
        set { style.levelsOfDetail = newValue }
    }
    /// How many of the levels magnify (default 0). Not animatable.
    public var levelsOfDetailBias: Int {
        get { style.levelsOfDetailBias }
        set { style.levelsOfDetailBias = newValue }
    }
    /// The tile size in pixels (default 256 x 256); sides are drawn held within 1…4096. Not
    /// animatable; non-finite values are ignored.
    public var tileSize: CGSize {
        get { style.tileSize }
        set { setIfFinite(&style.tileSize, newValue) }
    }

    /// The tiles the layer keeps, for inspection (tests, the demo's caption): not Apple's API.
    package var tileStore: TileStore { style.tiles }

    /// Drops the tiles `rect` touches (`nil`: all), what displaying a tiled layer does.
    func invalidateTiles(_ rect: CGRect?) {
        style.tiles.invalidate(rect)
        style.revision &+= 1
    }
}
