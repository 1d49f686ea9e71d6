import Foundation

/// Everything a `CAEmitterCell` holds that its particles are made from, with Core Animation's
/// defaults (`CAEmitterCell.h`). A plain value: an emitter's snapshot keeps one per cell, so
/// later edits of the cell never reach a snapshot already taken.
public struct EmitterCellProperties: Equatable, Sendable {
    /// Used to build key paths (`emitterCells.NAME.birthRate`).
    public var name: String? = nil
    /// Whether the cell emits; a disabled cell has no particles.
    public var isEnabled = true
    /// Particles per second (multiplied by the layer's `birthRate`).
    public var birthRate: Float = 0
    /// A particle's mean lifetime, in seconds (multiplied by the layer's `lifetime`).
    public var lifetime: Float = 0
    /// The width of the interval lifetimes are drawn from.
    public var lifetimeRange: Float = 0
    /// The angle of the direction out of the xy plane, in radians.
    public var emissionLatitude: CGFloat = 0
    /// The angle of the direction in the xy plane from +x toward +y, in radians.
    public var emissionLongitude: CGFloat = 0
    /// The width of the interval longitudes are drawn from, in radians.
    public var emissionRange: CGFloat = 0
    /// Mean speed, in points per second (multiplied by the layer's `velocity`).
    public var velocity: CGFloat = 0
    /// The width of the interval speeds are drawn from.
    public var velocityRange: CGFloat = 0
    /// Acceleration along x, in points per second².
    public var xAcceleration: CGFloat = 0
    /// Acceleration along y, in points per second².
    public var yAcceleration: CGFloat = 0
    /// Acceleration along z, in points per second².
    public var zAcceleration: CGFloat = 0
    /// Mean scale of the contents (multiplied by the layer's `scale`).
    public var scale: CGFloat = 1
    /// The width of the interval scales are drawn from.
    public var scaleRange: CGFloat = 0
    /// Change of scale per second.
    public var scaleSpeed: CGFloat = 0
    /// Mean rotation speed, in radians per second (multiplied by the layer's `spin`).
    public var spin: CGFloat = 0
    /// The width of the interval rotation speeds are drawn from.
    public var spinRange: CGFloat = 0
    /// The colour the contents are multiplied by; `nil` is opaque white.
    public var color: CGColor? = .white
    /// The width of the interval red components are drawn from.
    public var redRange: Float = 0
    /// The width of the interval green components are drawn from.
    public var greenRange: Float = 0
    /// The width of the interval blue components are drawn from.
    public var blueRange: Float = 0
    /// The width of the interval alpha components are drawn from.
    public var alphaRange: Float = 0
    /// Change of red per second.
    public var redSpeed: Float = 0
    /// Change of green per second.
    public var greenSpeed: Float = 0
    /// Change of blue per second.
    public var blueSpeed: Float = 0
    /// Change of alpha per second.
    public var alphaSpeed: Float = 0
    /// The image a particle draws; `nil` draws nothing (the cell still emits).
    public var contents: CGImage? = nil
    /// The part of `contents` drawn, in unit coordinates of the image.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Pixels of `contents` per point.
    public var contentsScale: CGFloat = 1
    /// How `contents` is sampled when magnified.
    public var magnificationFilter: CALayerContentsFilter = .linear
    /// How `contents` is sampled when minified.
    public var minificationFilter: CALayerContentsFilter = .linear

    /// A cell with Core Animation's defaults.
    public init() {}
}

/// One kind of particle an emitter layer emits: Core Animation's `CAEmitterCell`.
///
/// A cell is shared by reference, as in Core Animation: changing a cell changes every
/// `CAEmitterLayer` it is in. Its numeric setters follow `CALayer`'s rule: non-finite values
/// are ignored. Apple's sub-cells (`emitterCells`) are kept but emit nothing in LayerKit.
open class CAEmitterCell {
    /// All the cell's state as one value; the properties below read and write it.
    public var properties = EmitterCellProperties() {
        didSet { if properties != oldValue { owners.forEach { $0.layer?.cellsChanged() } } }
    }

    /// The emitter layers that hold this cell, told when it changes.
    private var owners: [WeakEmitterLayer] = []

    /// Kept as Apple's property, but LayerKit's particles do not emit (the particle model has
    /// no sub-cells; scene files refuse the field).
    open var emitterCells: [CAEmitterCell]?

    /// A cell with Core Animation's defaults (required, so that `emitterCell()` makes the
    /// dynamic class).
    public required init() {}

    /// A cell holding `properties` (the copies a presentation layer is made of).
    convenience init(properties: EmitterCellProperties) {
        self.init()
        self.properties = properties
    }

    /// A new cell with Core Animation's defaults, as Apple's `+emitterCell`.
    open class func emitterCell() -> Self { self.init() }

    func addOwner(_ layer: CAEmitterLayer) {
        owners.removeAll { $0.layer == nil || $0.layer === layer }
        owners.append(WeakEmitterLayer(layer: layer))
    }

    func removeOwner(_ layer: CAEmitterLayer) { owners.removeAll { $0.layer == nil || $0.layer === layer } }

    private func set<T: FiniteCheckable & Equatable>(_ kp: WritableKeyPath<EmitterCellProperties, T>, _ v: T) {
        guard v.isFiniteValue else { return }
        properties[keyPath: kp] = v
    }

    /// Used to build key paths (`emitterCells.NAME.birthRate`).
    open var name: String? { get { properties.name } set { properties.name = newValue } }
    /// Whether the cell emits.
    open var isEnabled: Bool { get { properties.isEnabled } set { properties.isEnabled = newValue } }
    /// Particles per second.
    open var birthRate: Float { get { properties.birthRate } set { set(\.birthRate, newValue) } }
    /// Mean lifetime in seconds.
    open var lifetime: Float { get { properties.lifetime } set { set(\.lifetime, newValue) } }
    /// Width of the lifetime interval.
    open var lifetimeRange: Float { get { properties.lifetimeRange } set { set(\.lifetimeRange, newValue) } }
    /// Angle out of the xy plane, radians.
    open var emissionLatitude: CGFloat { get { properties.emissionLatitude } set { set(\.emissionLatitude, newValue) } }
    /// Angle in the xy plane from +x toward +y, radians.
    open var emissionLongitude: CGFloat { get { properties.emissionLongitude } set { set(\.emissionLongitude, newValue) } }
    /// Width of the longitude interval, radians.
    open var emissionRange: CGFloat { get { properties.emissionRange } set { set(\.emissionRange, newValue) } }
    /// Mean speed, points per second.
    open var velocity: CGFloat { get { properties.velocity } set { set(\.velocity, newValue) } }
    /// Width of the speed interval.
    open var velocityRange: CGFloat { get { properties.velocityRange } set { set(\.velocityRange, newValue) } }
    /// Acceleration along x, points per second².
    open var xAcceleration: CGFloat { get { properties.xAcceleration } set { set(\.xAcceleration, newValue) } }
    /// Acceleration along y, points per second².
    open var yAcceleration: CGFloat { get { properties.yAcceleration } set { set(\.yAcceleration, newValue) } }
    /// Acceleration along z, points per second².
    open var zAcceleration: CGFloat { get { properties.zAcceleration } set { set(\.zAcceleration, newValue) } }
    /// Mean scale.
    open var scale: CGFloat { get { properties.scale } set { set(\.scale, newValue) } }
    /// Width of the scale interval.
    open var scaleRange: CGFloat { get { properties.scaleRange } set { set(\.scaleRange, newValue) } }
    /// Change of scale per second.
    open var scaleSpeed: CGFloat { get { properties.scaleSpeed } set { set(\.scaleSpeed, newValue) } }
    /// Mean rotation speed, radians per second.
    open var spin: CGFloat { get { properties.spin } set { set(\.spin, newValue) } }
    /// Width of the rotation speed interval.
    open var spinRange: CGFloat { get { properties.spinRange } set { set(\.spinRange, newValue) } }
    /// The colour the contents are multiplied by; `nil` is opaque white.
    open var color: CGColor? { get { properties.color } set { properties.color = newValue } }
    /// Width of the red interval.
    open var redRange: Float { get { properties.redRange } set { set(\.redRange, newValue) } }
    /// Width of the green interval.
    open var greenRange: Float { get { properties.greenRange } set { set(\.greenRange, newValue) } }
    /// Width of the blue interval.
    open var blueRange: Float { get { properties.blueRange } set { set(\.blueRange, newValue) } }
    /// Width of the alpha interval.
    open var alphaRange: Float { get { properties.alphaRange } set { set(\.alphaRange, newValue) } }
    /// Change of red per second.
    open var redSpeed: Float { get { properties.redSpeed } set { set(\.redSpeed, newValue) } }
    /// Change of green per second.
    open var greenSpeed: Float { get { properties.greenSpeed } set { set(\.greenSpeed, newValue) } }
    /// Change of blue per second.
    open var blueSpeed: Float { get { properties.blueSpeed } set { set(\.blueSpeed, newValue) } }
    /// Change of alpha per second.
    open var alphaSpeed: Float { get { properties.alphaSpeed } set { set(\.alphaSpeed, newValue) } }
    /// The image a particle draws. Apple types it `Any?`; LayerKit takes a `CGImage`.
    open var contents: CGImage? { get { properties.contents } set { properties.contents = newValue } }
    /// The part of `contents` drawn, in unit coordinates.
    open var contentsRect: CGRect { get { properties.contentsRect } set { set(\.contentsRect, newValue) } }
    /// Pixels of `contents` per point.
    open var contentsScale: CGFloat { get { properties.contentsScale } set { set(\.contentsScale, newValue) } }
    /// Sampling when magnified.
    open var magnificationFilter: CALayerContentsFilter {
        get { properties.magnificationFilter } set { properties.magnificationFilter = newValue }
    }
    /// Sampling when minified.
    open var minificationFilter: CALayerContentsFilter {
        get { properties.minificationFilter } set { properties.minificationFilter = newValue }
    }
}

/// A weak reference to an emitter layer, so that a cell does not keep its layers alive.
private struct WeakEmitterLayer {
    weak var layer: CAEmitterLayer?
}
