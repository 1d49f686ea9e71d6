import Foundation

/// A replicator's own properties as one value (`CAReplicatorLayer` reads and writes it; a
/// snapshot records it in `LayerSnapshot.Kind.replicator`).
public struct ReplicatorStyle: Equatable, Sendable {
    /// The number of copies of the sublayers, the original included; below 0 draws as 0.
    public var instanceCount = 1
    /// Whether the replicator keeps its copies in its parent's 3D space, as a `CATransformLayer`.
    public var preservesDepth = false
    /// The time shift between copies, in seconds: copy k lives at `t − k · instanceDelay`.
    public var instanceDelay: CFTimeInterval = 0
    /// The transform from copy k − 1 to copy k, about the centre of the bounds.
    public var instanceTransform: CATransform3D = .identity
    /// The colour every copy's colours are multiplied by; `nil` is opaque white.
    public var instanceColor: CGColor? = .white
    /// Added to the modulation colour's red from each copy to the next.
    public var instanceRedOffset: Float = 0
    /// Added to the modulation colour's green from each copy to the next.
    public var instanceGreenOffset: Float = 0
    /// Added to the modulation colour's blue from each copy to the next.
    public var instanceBlueOffset: Float = 0
    /// Added to the modulation colour's alpha from each copy to the next.
    public var instanceAlphaOffset: Float = 0

    /// Core Animation's defaults.
    public init() {}

    /// The number of copies drawn: `instanceCount`, 0 when negative.
    public var drawnInstanceCount: Int { max(instanceCount, 0) }

    /// Copy k's modulation colour, straight RGBA: `instanceColor + k · offsets`, each component
    /// clamped to 0…1 (the same as clamping at each step, since the offset's sign is fixed).
    public func modulation(ofInstance k: Int) -> (r: Double, g: Double, b: Double, a: Double) {
        let c = (instanceColor ?? .white).components.map(Double.init)
        func f(_ base: Double, _ offset: Float) -> Double { min(max(base + Double(k) * Double(offset), 0), 1) }
        return (f(c[0], instanceRedOffset), f(c[1], instanceGreenOffset), f(c[2], instanceBlueOffset), f(c[3], instanceAlphaOffset))
    }

    /// Copy k's transform in the replicator's bounds space, whose centre is `center`:
    /// T(−c) · Tᵏ · T(c) in row-vector order (a point is moved to the centre's frame, turned by
    /// the instance transform k times, and moved back).
    public func transform(ofInstance k: Int, center c: CGPoint) -> CATransform3D {
        var m = CATransform3D.identity
        var step = instanceTransform, n = k
        while n > 0 { // Tᵏ by squaring: a thousand copies cost ten products each, not a thousand
            if n & 1 == 1 { m = m.concatenating(step) }
            step = step.concatenating(step)
            n >>= 1
        }
        return CATransform3DMakeTranslation(-c.x, -c.y, 0).concatenating(m).concatenating(CATransform3DMakeTranslation(c.x, c.y, 0))
    }

    /// Whether the numbers the compositor draws with are finite.
    var isFiniteValue: Bool {
        instanceDelay.isFinite && instanceTransform.isFiniteValue && instanceRedOffset.isFinite && instanceGreenOffset.isFinite
            && instanceBlueOffset.isFinite && instanceAlphaOffset.isFinite
    }
}

/// A layer that draws its sublayers many times: Core Animation's `CAReplicatorLayer`.
///
/// Copy k of the sublayers is moved by `instanceTransform` applied k times about the centre of
/// the bounds, has its colours multiplied by `instanceColor` plus k times the offsets (each
/// component clamped to 0…1), and lives `k · instanceDelay` seconds behind the replicator's
/// time. The replicator draws its own background, contents and border once. Hit testing sees
/// the first copy only (the sublayers as they are), as Core Animation's does. The compositor
/// draws at most `LayerSnapshot.maximumDrawnLayers` layers, copies counted: copies past that
/// bound are not drawn (a scene file asking for more is refused).
///
/// Its numeric setters follow `CALayer`'s rule: non-finite values are ignored.
open class CAReplicatorLayer: CALayer {
    /// The replicator's properties as one value (the properties below read and write it).
    public var style = ReplicatorStyle() { didSet { snapshotChanged() } }
    /// `.replicator` with this layer's properties.
    public override var snapshotKind: LayerSnapshot.Kind { .replicator(style) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .replicator(let s) = kind { style = s } }
    override class var defaultKind: LayerSnapshot.Kind { .replicator(ReplicatorStyle()) }

    /// The number of copies, the original included (default 1; below 0 draws none). Not
    /// animatable in LayerKit.
    public var instanceCount: Int { get { style.instanceCount } set { style.instanceCount = newValue } }
    /// Whether the copies stay in the parent's 3D space: the replicator then behaves as a
    /// `CATransformLayer` (draws nothing itself, ignores masks, clipping and shadows, passes its
    /// opacity to each sublayer).
    public var preservesDepth: Bool { get { style.preservesDepth } set { style.preservesDepth = newValue } }
    /// The delay in seconds between copies: copy k's animations run `k · instanceDelay` later.
    public var instanceDelay: CFTimeInterval {
        get { style.instanceDelay }
        set { changeAnimatable("instanceDelay") { setIfFinite(&style.instanceDelay, newValue) } }
    }
    /// The transform from copy k − 1 to copy k, applied about the centre of the bounds.
    public var instanceTransform: CATransform3D {
        get { style.instanceTransform }
        set { changeAnimatable("instanceTransform") { setIfFinite(&style.instanceTransform, newValue) } }
    }
    /// The colour the first copy's colours are multiplied by; `nil` is opaque white.
    public var instanceColor: CGColor? {
        get { style.instanceColor }
        set { changeAnimatable("instanceColor") { assignIfChanged(&style.instanceColor, newValue) } }
    }
    /// Added to red from each copy's modulation colour to the next's.
    public var instanceRedOffset: Float {
        get { style.instanceRedOffset }
        set { changeAnimatable("instanceRedOffset") { setIfFinite(&style.instanceRedOffset, newValue) } }
    }
    /// Added to green from each copy's modulation colour to the next's.
    public var instanceGreenOffset: Float {
        get { style.instanceGreenOffset }
        set { changeAnimatable("instanceGreenOffset") { setIfFinite(&style.instanceGreenOffset, newValue) } }
    }
    /// Added to blue from each copy's modulation colour to the next's.
    public var instanceBlueOffset: Float {
        get { style.instanceBlueOffset }
        set { changeAnimatable("instanceBlueOffset") { setIfFinite(&style.instanceBlueOffset, newValue) } }
    }
    /// Added to alpha from each copy's modulation colour to the next's.
    public var instanceAlphaOffset: Float {
        get { style.instanceAlphaOffset }
        set { changeAnimatable("instanceAlphaOffset") { setIfFinite(&style.instanceAlphaOffset, newValue) } }
    }
}

/// Which axes a `CAScrollLayer` scrolls (`CAScrollLayerScrollMode`).
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value; an unknown value scrolls no axis.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Scrolls neither axis.
    public static let none = Self(rawValue: "none")
    /// Scrolls y only.
    public static let vertically = Self(rawValue: "vertically")
    /// Scrolls x only.
    public static let horizontally = Self(rawValue: "horizontally")
    /// Scrolls both axes (the default).
    public static let both = Self(rawValue: "both")
    /// Every mode Core Animation defines.
    public static let allCases: [Self] = [.none, .vertically, .horizontally, .both]

    var scrollsX: Bool { self == .both || self == .horizontally }
    var scrollsY: Bool { self == .both || self == .vertically }
}

/// A layer that shows part of its sublayers by moving the origin of its bounds: Core
/// Animation's `CAScrollLayer`.
///
/// It draws like a plain layer, clips to its bounds (`masksToBounds` starts `true`), handles no
/// input and checks no content size: scrolling only sets `bounds.origin`, so the sublayers
/// move the other way while the background and border stay.
open class CAScrollLayer: CALayer {
    /// `.scroll` with this layer's mode.
    public override var snapshotKind: LayerSnapshot.Kind { .scroll(scrollMode) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .scroll(let m) = kind { scrollMode = m } }
    override class var defaultKind: LayerSnapshot.Kind { .scroll(.both) }

    /// Which axes `scroll(to:)` moves (default `.both`).
    public var scrollMode: CAScrollLayerScrollMode = .both { didSet { if scrollMode != oldValue { snapshotChanged() } } }

    /// A scroll layer that clips to its bounds.
    public override init() {
        super.init()
        properties.masksToBounds = true
    }

    /// A copy of `layer`'s state (see `CALayer.init(layer:)`).
    public override init(layer: Any) { super.init(layer: layer) }

    /// A scroll layer that clips to its bounds; nothing is read from `coder`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        properties.masksToBounds = true
    }

    /// `true` for `masksToBounds`, which a scroll layer starts with; the others as for `CALayer`.
    open override class func defaultValue(forKey key: String) -> Any? {
        key == "masksToBounds" ? true : super.defaultValue(forKey: key)
    }

    /// Moves the origin of the bounds to `p` on the axes `scrollMode` allows.
    open func scroll(to p: CGPoint) {
        var origin = bounds.origin
        if scrollMode.scrollsX { origin.x = p.x }
        if scrollMode.scrollsY { origin.y = p.y }
        bounds.origin = origin
    }

    /// Moves the bounds as little as it takes to show `r`, on the axes `scrollMode` allows. On
    /// each axis: a rectangle larger than the bounds is scrolled to its own start; one that
    /// starts before the bounds to its start; one that ends after them to its end; one in view
    /// moves nothing.
    open func scroll(to r: CGRect) {
        let b = bounds, r = r.standardized
        func axis(_ o: CGFloat, _ s: CGFloat, _ lo: CGFloat, _ size: CGFloat) -> CGFloat {
            if size > s || lo < o { return lo }
            if lo + size > o + s { return lo + size - s }
            return o
        }
        scroll(to: CGPoint(x: axis(b.minX, b.width, r.minX, r.width), y: axis(b.minY, b.height, r.minY, r.height)))
    }
}

extension CALayer {
    /// The nearest `CAScrollLayer` among this layer and its ancestors.
    private var enclosingScrollLayer: CAScrollLayer? {
        var l: CALayer? = self
        while let layer = l {
            if let s = layer as? CAScrollLayer { return s }
            l = layer.superlayer
        }
        return nil
    }

    /// Scrolls the nearest `CAScrollLayer` at or above this layer so that `p` (in this layer's
    /// space) is its bounds' origin; does nothing without one.
    public func scroll(_ p: CGPoint) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(p, from: self))
    }

    /// Scrolls the nearest `CAScrollLayer` at or above this layer as little as it takes to show
    /// `r` (in this layer's space); does nothing without one.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(r, from: self))
    }

    /// The part of the bounds that the nearest `CAScrollLayer` at or above this layer does not
    /// clip: the bounds intersected with that layer's bounds in this layer's space (the
    /// bounding box of its converted corners); the bounds without one; `.zero` when nothing is
    /// visible.
    public var visibleRect: CGRect {
        guard let s = enclosingScrollLayer else { return bounds }
        let r = bounds.intersection(convert(s.bounds, from: s))
        return r.isNull ? .zero : r
    }
}
