import Foundation

/// The shape particles are born in (`CAEmitterLayerEmitterShape`).
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value; an unknown one emits nothing.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The point `emitterPosition` (the default).
    public static let point = Self(rawValue: "point")
    /// A horizontal line `emitterSize.width` long, centred on `emitterPosition`.
    public static let line = Self(rawValue: "line")
    /// The rectangle `emitterSize`, centred on `emitterPosition`.
    public static let rectangle = Self(rawValue: "rectangle")
    /// A box; not supported by LayerKit's particle model (the emitter draws no particles).
    public static let cuboid = Self(rawValue: "cuboid")
    /// The circle of radius `emitterSize.width` about `emitterPosition`.
    public static let circle = Self(rawValue: "circle")
    /// A sphere; not supported by LayerKit's particle model (the emitter draws no particles).
    public static let sphere = Self(rawValue: "sphere")
    /// Every shape Core Animation defines.
    public static let allCases: [Self] = [.point, .line, .rectangle, .cuboid, .circle, .sphere]
    /// The shapes LayerKit's particle model and scene files support.
    public static let supportedCases: [Self] = [.point, .line, .rectangle, .circle]
}

/// Which part of the shape particles are born on (`CAEmitterLayerEmitterMode`).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value; an unknown one is treated as `volume`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The shape's corner or end points.
    public static let points = Self(rawValue: "points")
    /// The shape's outline.
    public static let outline = Self(rawValue: "outline")
    /// The shape's area.
    public static let surface = Self(rawValue: "surface")
    /// The shape's volume; for the flat shapes, their area (the default).
    public static let volume = Self(rawValue: "volume")
    /// Every mode Core Animation defines.
    public static let allCases: [Self] = [.points, .outline, .surface, .volume]
}

/// The order and compositing of particles (`CAEmitterLayerRenderMode`).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value; an unknown one is treated as `unordered`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Cell by cell, each cell's oldest first (the default).
    public static let unordered = Self(rawValue: "unordered")
    /// All particles by birth, the oldest drawn first.
    public static let oldestFirst = Self(rawValue: "oldestFirst")
    /// All particles by birth, the oldest drawn last.
    public static let oldestLast = Self(rawValue: "oldestLast")
    /// By z, the farthest first.
    public static let backToFront = Self(rawValue: "backToFront")
    /// As `unordered`, with the particles added together rather than composited over.
    public static let additive = Self(rawValue: "additive")
    /// Every render mode Core Animation defines.
    public static let allCases: [Self] = [.unordered, .oldestFirst, .oldestLast, .backToFront, .additive]
}

/// Everything a `CAEmitterLayer` adds to a layer, with Core Animation's defaults, and the time
/// its particles are shown at. The particles are a pure function of it
/// (`particles()`, `EmitterParticles.swift`).
public struct EmitterStyle: Equatable, Sendable {
    /// The cells, in order (a cell's index seeds its particles' generators).
    public var cells: [EmitterCellProperties] = []
    /// Multiplies each cell's `birthRate`.
    public var birthRate: Float = 1
    /// Multiplies each cell's lifetime.
    public var lifetime: Float = 1
    /// Multiplies each cell's speed.
    public var velocity: Float = 1
    /// Multiplies each cell's scale.
    public var scale: Float = 1
    /// Multiplies each cell's rotation speed.
    public var spin: Float = 1
    /// The centre of the emission shape, in the layer's bounds space.
    public var emitterPosition = CGPoint.zero
    /// The z of the emission shape.
    public var emitterZPosition: CGFloat = 0
    /// The size of the emission shape.
    public var emitterSize = CGSize.zero
    /// The depth of the emission shape (no supported shape uses it).
    public var emitterDepth: CGFloat = 0
    /// The emission shape.
    public var emitterShape: CAEmitterLayerEmitterShape = .point
    /// The part of the shape particles are born on.
    public var emitterMode: CAEmitterLayerEmitterMode = .volume
    /// The order and compositing of particles.
    public var renderMode: CAEmitterLayerRenderMode = .unordered
    /// Whether particles live in the superlayer's 3D space; only `false` draws particles.
    public var preservesDepth = false
    /// Seeds every particle's generator.
    public var seed: UInt32 = 0
    /// The emitter layer's own time the particles are shown at: set by
    /// `CALayer.snapshot(atTime:)`; 0 in a model snapshot.
    public var time: CFTimeInterval = 0

    /// An emitter with Core Animation's defaults.
    public init() {}
}

/// A layer that emits particles: Core Animation's `CAEmitterLayer`.
///
/// Its particles follow LayerKit's deterministic particle model (`docs/scene-format.md`,
/// *emitterLayer*): they are a pure function of the layer's state and its own time, so any
/// frame can be drawn on its own, and the same `seed` draws the same particles everywhere.
/// Its numeric setters follow `CALayer`'s rule: non-finite values are ignored. The emitter's
/// `birthRate`, `lifetime`, `velocity`, `scale`, `spin`, `emitterPosition`,
/// `emitterZPosition`, `emitterSize` and `emitterDepth` are animatable, as Apple's are, and
/// so are the cells' numbers, colours and contents through the key paths
/// `emitterCells.NAME.PROPERTY`. Since particles have no history, animating a value changes
/// every living particle at once (a moving `emitterPosition` carries them along). `.cuboid`,
/// `.sphere` and `preservesDepth = true` draw no particles, nor does an emitter whose cells
/// could have more than `maximumLiveParticles` particles alive at once.
open class CAEmitterLayer: CALayer {
    /// The emitter as one value (the properties below read and write it).
    public var style = EmitterStyle() {
        didSet {
            syncCells()
            snapshotChanged()
        }
    }

    /// The most particles an emitter's cells may have alive at once (counted as
    /// `EmitterStyle.liveParticleBound` counts them); above it the emitter draws none.
    public static let maximumLiveParticles = 100_000

    private var cellObjects: [CAEmitterCell]?

    /// A layer with Core Animation's defaults.
    public override init() {
        super.init()
        timingChanged()
    }

    /// A copy of `layer`'s state (see `CALayer.init(layer:)`); the cells are copies.
    public override init(layer: Any) {
        super.init(layer: layer)
        timingChanged()
    }

    /// A layer with Core Animation's defaults (nothing is read from `coder`).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        timingChanged()
    }

    /// An emitter's particles move with its time: its presentation is computed at every time.
    override var hasOwnTime: Bool { true }

    /// `.emitter` with this layer's style.
    public override var snapshotKind: LayerSnapshot.Kind { .emitter(style) }
    override class var defaultKind: LayerSnapshot.Kind { .emitter(EmitterStyle()) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .emitter(let s) = kind { style = s } }

    /// Gives the cell objects the style's cells (new objects when their number changed).
    private func syncCells() {
        let cells = style.cells
        if let objects = cellObjects, objects.count == cells.count {
            for (cell, p) in zip(objects, cells) where cell.properties != p { cell.properties = p }
        } else if cellObjects != nil || !cells.isEmpty {
            setCells(cells.isEmpty ? nil : cells.map { CAEmitterCell(properties: $0) })
        }
    }

    /// The cells, in order. The layer keeps the cell objects: changing one changes the layer.
    open var emitterCells: [CAEmitterCell]? {
        get { cellObjects }
        set { setCells(newValue) }
    }

    private func setCells(_ cells: [CAEmitterCell]?) {
        cellObjects?.forEach { $0.removeOwner(self) }
        cellObjects = cells
        cells?.forEach { $0.addOwner(self) }
        cellsChanged()
    }

    /// A cell changed: the style takes the cells' properties.
    func cellsChanged() {
        let cells = cellObjects?.map(\.properties) ?? []
        if cells != style.cells { style.cells = cells }
    }

    private func setFloat(_ key: String, _ kp: WritableKeyPath<EmitterStyle, Float>, _ v: Float) {
        changeAnimatable(key) { setIfFinite(&style[keyPath: kp], v) }
    }

    private func setCGFloat(_ key: String, _ kp: WritableKeyPath<EmitterStyle, CGFloat>, _ v: CGFloat) {
        changeAnimatable(key) { setIfFinite(&style[keyPath: kp], v) }
    }

    /// Multiplies each cell's `birthRate`.
    open var birthRate: Float { get { style.birthRate } set { setFloat("birthRate", \.birthRate, newValue) } }
    /// Multiplies each cell's lifetime.
    open var lifetime: Float { get { style.lifetime } set { setFloat("lifetime", \.lifetime, newValue) } }
    /// Multiplies each cell's speed.
    open var velocity: Float { get { style.velocity } set { setFloat("velocity", \.velocity, newValue) } }
    /// Multiplies each cell's scale.
    open var scale: Float { get { style.scale } set { setFloat("scale", \.scale, newValue) } }
    /// Multiplies each cell's rotation speed.
    open var spin: Float { get { style.spin } set { setFloat("spin", \.spin, newValue) } }
    /// The centre of the emission shape, in the layer's bounds space.
    open var emitterPosition: CGPoint {
        get { style.emitterPosition }
        set { changeAnimatable("emitterPosition") { setIfFinite(&style.emitterPosition, newValue) } }
    }
    /// The z of the emission shape.
    open var emitterZPosition: CGFloat { get { style.emitterZPosition } set { setCGFloat("emitterZPosition", \.emitterZPosition, newValue) } }
    /// The size of the emission shape.
    open var emitterSize: CGSize {
        get { style.emitterSize }
        set { changeAnimatable("emitterSize") { setIfFinite(&style.emitterSize, newValue) } }
    }
    /// The depth of the emission shape.
    open var emitterDepth: CGFloat { get { style.emitterDepth } set { setCGFloat("emitterDepth", \.emitterDepth, newValue) } }
    /// The emission shape.
    open var emitterShape: CAEmitterLayerEmitterShape { get { style.emitterShape } set { style.emitterShape = newValue } }
    /// The part of the shape particles are born on.
    open var emitterMode: CAEmitterLayerEmitterMode { get { style.emitterMode } set { style.emitterMode = newValue } }
    /// The order and compositing of particles.
    open var renderMode: CAEmitterLayerRenderMode { get { style.renderMode } set { style.renderMode = newValue } }
    /// Whether particles live in the superlayer's 3D space; `true` draws no particles in LayerKit.
    open var preservesDepth: Bool { get { style.preservesDepth } set { style.preservesDepth = newValue } }
    /// Seeds every particle's generator.
    open var seed: UInt32 { get { style.seed } set { style.seed = newValue } }
}
