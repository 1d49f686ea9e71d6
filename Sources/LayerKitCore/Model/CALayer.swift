import Foundation

/// Receives layout and drawing callbacks for a layer it does not own (`CALayerDelegate`).
/// Every method has a default, so a delegate implements only what it needs, as with the
/// optional methods of Core Animation's protocol.
public protocol CALayerDelegate: AnyObject {
    /// Lays out `layer`'s sublayers; called by `layoutSublayers()` when the layer needs layout.
    func layoutSublayers(of layer: CALayer)

    /// Gives `layer` its contents; called by `display()`. Implement it to set `contents`
    /// directly; the default draws through `draw(_:in:)` as a layer without a delegate does.
    func display(_ layer: CALayer)

    /// Draws `layer`'s contents into `ctx` (y down, origin at the bounds' top left, in points);
    /// called by the layer's default `draw(in:)`.
    func draw(_ layer: CALayer, in ctx: CGContext)

    /// The first answer of `layer`'s action search for `event` (see `CALayer.action(forKey:)`):
    /// an action ends the search; `NSNull()` ends it with no action; `nil` lets it go on.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

extension CALayerDelegate {
    /// Does nothing, as Core Animation's default.
    public func layoutSublayers(of layer: CALayer) {}

    /// Draws the layer's contents into a new backing image (the layer's own display).
    public func display(_ layer: CALayer) { layer.displayByDrawing() }

    /// Draws nothing.
    public func draw(_ layer: CALayer, in ctx: CGContext) {}

    /// `nil`: the search goes on.
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// Why a change to a layer tree was refused.
public enum LayerTreeError: Error, Equatable, CustomStringConvertible {
    /// The layer would become a sublayer of itself or of one of its descendants.
    case cycle(layer: String, into: String)
    /// A layer that already has a superlayer cannot be used as a mask.
    case maskHasSuperlayer(String)
    /// A layer that is some layer's mask cannot also be a sublayer.
    case sublayerIsMask(String)
    /// `replaceSublayer` was given a layer that is not a sublayer of the receiver.
    case notASublayer(String)

    /// A one-line explanation naming the layers.
    public var description: String {
        switch self {
        case let .cycle(l, into): return "cannot add \(l) to \(into): it would become its own ancestor"
        case let .maskHasSuperlayer(l): return "cannot use \(l) as a mask: a mask must have no superlayer"
        case let .sublayerIsMask(l): return "cannot add \(l) as a sublayer: it is another layer's mask"
        case let .notASublayer(l): return "\(l) is not a sublayer of this layer"
        }
    }
}

/// A rectangle of content in a tree of layers: Core Animation's `CALayer`.
///
/// A layer has a `bounds` (its own coordinate space), sits at `position` in its superlayer with
/// its `anchorPoint` there, and is turned by `transform` about that anchor. It draws, in order,
/// its shadow, background, contents, its sublayers (sorted back to front in 3D) and its border on
/// top. All properties have Core Animation's defaults (see `LayerProperties`).
///
/// Numbers: a numeric property given a value with any NaN or infinite component (a coordinate,
/// a size, one of a transform's 16 entries) ignores it and keeps its previous value, so a tree
/// always stays drawable; `opacity` and `shadowOpacity` keep finite values out of 0…1 as given
/// and are drawn clamped, as in Core Animation. The typed layers' setters follow the same rule. Writing `properties` directly bypasses
/// it (the renderers then skip what they cannot place, without crashing).
///
/// Threads: a layer tree is not thread-safe. Create, edit, lay out and hit-test a tree on one
/// thread at a time (or under one lock held for each of those calls), and call `snapshot()`
/// there too, since it reads the whole tree. The `LayerSnapshot` it returns is immutable and
/// `Sendable`: hand it to a compositor and renderer on any thread, while the tree goes on
/// changing; later edits never reach a snapshot already taken. Contents images (`CGImage`) are
/// immutable and may be shared by trees and snapshots on any thread.
open class CALayer: CAMediaTiming {
    /// All drawable state of the layer as one value; the properties below read and write it.
    public var properties = LayerProperties() { didSet { snapshotChanged() } }

    /// The layer this one is a sublayer (or the mask) of.
    public internal(set) weak var superlayer: CALayer? {
        didSet {
            guard timedLayerCount > 0, oldValue !== superlayer else { return }
            oldValue?.adjustTimedLayerCount(by: -timedLayerCount)
            superlayer?.adjustTimedLayerCount(by: timedLayerCount)
        }
    }

    /// The animations added, in order, with their keys (see `add(_:forKey:)`).
    package var animationList: [(key: String?, animation: CAAnimation)] = [] {
        didSet {
            animationPlan = nil
            timingChanged()
        }
    }

    /// `animationList` packed for evaluation, made at the first frame after a change.
    var animationPlan: AnimationPlan?

    /// How many layers of this subtree (this one included) have animations or layer timing:
    /// a presentation snapshot re-evaluates only subtrees where it is above 0.
    var timedLayerCount = 0

    /// Whether this layer itself has animations or non-default layer timing.
    var isTimed = false

    /// For a presentation layer, the layer it presents (`model()`).
    var modelLayer: CALayer?

    /// Start of the layer's time in its superlayer's time (`CAMediaTiming`).
    public var beginTime: CFTimeInterval = 0 { didSet { timingChanged() } }
    /// How fast the layer's time (and its sublayers' and animations') runs relative to its
    /// superlayer's.
    public var speed: Float = 1 { didSet { timingChanged() } }
    /// An offset added to the layer's time.
    public var timeOffset: CFTimeInterval = 0 { didSet { timingChanged() } }
    /// Kept for `CAMediaTiming`; a layer's own duration does not limit its time in LayerKit.
    public var duration: CFTimeInterval = 0
    /// Kept for `CAMediaTiming`; not used for layers in LayerKit.
    public var repeatCount: Float = 0
    /// Kept for `CAMediaTiming`; not used for layers in LayerKit.
    public var repeatDuration: CFTimeInterval = 0
    /// Kept for `CAMediaTiming`; not used for layers in LayerKit.
    public var autoreverses = false
    /// Kept for `CAMediaTiming`; not used for layers in LayerKit.
    public var fillMode: CAMediaTimingFillMode = .removed

    /// Whether this layer is some layer's `mask` rather than a sublayer.
    package var isMask = false

    /// Backing store of `sublayers` (which reads `nil` when empty, as Core Animation's does).
    package var sublayerListStorage: [CALayer] = [] { didSet { snapshotChanged() } }

    /// Backing store of `mask`.
    package var maskStorage: CALayer? { didSet { snapshotChanged() } }

    /// This subtree's last snapshot, kept while nothing in the subtree changes, so that a
    /// snapshot of a tree where little moved copies only what did (and a compositor comparing
    /// it with the last frame's stops at identity).
    var cachedSnapshot: LayerSnapshot?

    /// The kept snapshot a change dropped: the subtree as last drawn, kept until the next
    /// snapshot, so that a `CATransition` added after the change still starts from the state
    /// before the transaction's changes (Core Animation's last commit).
    var replacedSnapshot: LayerSnapshot?

    /// Whether `layoutIfNeeded()` will call `layoutSublayers()`.
    var layoutPending = false {
        didSet { if layoutPending { superlayer?.noteLayoutPendingBelow() } }
    }

    /// Whether a layer below this one may be marked for layout: `layoutIfNeeded()` descends
    /// only where this is set, so laying out a tree where nothing is marked costs one check,
    /// not a walk of every layer (a frame lays its tree out whether or not anything changed).
    /// Kept true on every ancestor of a marked layer.
    var layoutPendingBelow = false

    /// Whether `layoutSublayers()` is running, when implicit layout marks are skipped.
    private var isLayingOut = false

    /// Whether `displayIfNeeded()` will call `display()` (`setNeedsDisplay()`).
    var displayPending = false

    /// While `displayPending`, the union of the rectangles marked by `setNeedsDisplay(_:)`
    /// (bounds space); `nil` when the whole layer is to be redrawn.
    var dirtyRect: CGRect?

    /// The part of the bounds the running `display()` redraws (`nil`: all of it), handed from
    /// `displayIfNeeded()` to the drawing.
    var redrawRect: CGRect?

    /// The contents the last drawing made and what they were drawn for: a redraw of part of
    /// the layer starts from them while they are still the contents, at the same bounds and scale.
    var drawnBacking: (image: CGImage, bounds: CGRect, scale: CGFloat, flipped: Bool)?

    /// Whether changing the bounds' size marks the layer as needing display.
    public var needsDisplayOnBoundsChange = false

    /// Apple's hint that the layer's drawing fills its bounds opaquely, so that its backing
    /// store may drop alpha. LayerKit keeps the hint and nothing else: a drawing's alpha is
    /// composited as drawn whatever this says, as `contents` images are on Apple's platforms.
    public var isOpaque = false

    /// Apple's request to queue `draw(in:)`'s commands for a background thread. LayerKit draws
    /// synchronously whatever this says: `draw(in:)` runs at the commit that displays the layer.
    public var drawsAsynchronously = false

    /// The layer's preferred size in its superlayer's coordinate space. Without a layout
    /// manager (which iOS has none of) Apple returns the bounds' size mapped into the
    /// superlayer, as `frame` maps it: that is the default here.
    open func preferredFrameSize() -> CGSize { frame.size }

    /// What draws the contents in place of a delegate, for the package's own layers (a scene
    /// file's `drawing`): one hook for every layer class, where a subclass per class would
    /// repeat the initializers. Presentation copies share it.
    package var ownDrawing: (any LayerContentDrawing)?

    /// Receives `layoutSublayers(of:)`, `display(_:)`, `draw(_:in:)` and
    /// `action(for:forKey:)`.
    public weak var delegate: CALayerDelegate?

    /// Actions by key, searched after the delegate (see `action(forKey:)`); `NSNull()` for a
    /// key disables its action.
    public var actions: [String: CAAction]?

    /// Whether the layer has been committed, i.e. drawn in a snapshot: only then do its
    /// property changes animate implicitly, as Core Animation does not animate a layer it has
    /// never committed (whose `presentation()` would be `nil`).
    var hasBeenCommitted = false

    /// Whether the frame clock lists this layer (see `AnimationClock`). A flag on the layer, not
    /// a set of identifiers, since a freed layer's address may be reused by a new layer.
    var isOnAnimationClock = false

    /// Values stored by key-value coding under keys that are not properties of the layer
    /// (see `setValue(_:forKey:)`), as given; copied by `init(layer:)`.
    var customValues: [String: Any] = [:]

    /// For a layer whose animations change a key that `needsDisplay(forKey:)` names: its
    /// presentation copy and what it last drew (see `PresentationDrawing`).
    var presentationDrawing: PresentationDrawing?

    /// A layer with Core Animation's defaults.
    public init() {}

    /// A copy of `layer`'s state (its properties, a typed layer's style and the values stored
    /// by key-value coding; not its sublayers, mask, superlayer, delegate or animations), as
    /// Core Animation's `init(layer:)`, which makes presentation copies (see
    /// `init(presentationOf:)`). A subclass that overrides it copies its own fields after
    /// calling it. `layer` not being a `CALayer` copies nothing.
    public init(layer: Any) {
        guard let layer = layer as? CALayer else { return }
        properties = layer.properties
        customValues = layer.customValues
        ownDrawing = layer.ownDrawing
        needsDisplayOnBoundsChange = layer.needsDisplayOnBoundsChange
        adoptStyle(of: layer.snapshotKind)
    }

    /// A layer with Core Animation's defaults: LayerKit does not archive layers, so nothing is
    /// read from `coder`. Declared because Apple's is `required` (a subclass that declares a
    /// designated initializer writes `required init?(coder:)`, as on iOS).
    public required init?(coder: NSCoder) {}

    /// A presentation copy of `layer`, made with the dynamic class's own `init(layer:)`: what
    /// `presentation()` and the animated drawing of custom properties make, as Core Animation
    /// makes them. LayerKit's name (Apple's runtime calls `init(layer:)` directly; Swift can
    /// only call an initializer of a dynamic class that is `required`, and making
    /// `init(layer:)` required would reject iOS code that writes `override init(layer:)`).
    /// A subclass inherits it when it declares no designated initializer, or overrides all
    /// three (`init()`, `init(layer:)`, `init?(coder:)`); one that declares others, e.g.
    /// `init(color:)` without `override init()`, must write
    /// `required convenience init(presentationOf layer: CALayer) { self.init(layer: layer) }`.
    public required convenience init(presentationOf layer: CALayer) { self.init(layer: layer) }

    /// Whether a change of `key` (a property, or a key stored by key-value coding) marks the
    /// layer for display: `false` here; a subclass returns `true` for the keys its
    /// `draw(in:)` reads, and then an animation of such a key redraws the presentation copy
    /// each frame the value changes.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// The value `value(forKey:)` returns for a key never set: a property's default for the
    /// layer's properties, `nil` for other keys. A subclass gives its custom keys defaults.
    open class func defaultValue(forKey key: String) -> Any? { defaultPropertyValue(forKey: key) }

    /// Takes the typed style of `kind` (a typed layer of the same kind overrides it).
    func adoptStyle(of kind: LayerSnapshot.Kind) {}

    /// Whether the layer's drawing changes with its own time even with no animations (an
    /// emitter's particles): such a layer counts as timed, so its presentation is computed at
    /// every time.
    var hasOwnTime: Bool { false }

    /// The snapshot kind of a new layer of this class (the typed layers override it).
    class var defaultKind: LayerSnapshot.Kind { .layer }

    /// The layer's kind and typed properties, as a snapshot records them; the typed layers
    /// override it (within LayerKit only: snapshots are kept until the layer's own state
    /// changes, which an override outside could not report).
    public var snapshotKind: LayerSnapshot.Kind { .layer }

    /// Something this layer's snapshot records changed: drops the kept snapshots of this layer
    /// and of every layer whose snapshot contains it (each becomes `replacedSnapshot`). An
    /// ancestor with none kept has none kept above it either (a snapshot is kept only together
    /// with its subtree's), so the walk stops there.
    func snapshotChanged() {
        var layer: CALayer? = self
        while let l = layer, let kept = l.cachedSnapshot {
            l.replacedSnapshot = kept
            l.cachedSnapshot = nil
            layer = l.superlayer
        }
    }

    // MARK: Layout

    /// Marks the layer as needing `layoutSublayers()` at the next `layoutIfNeeded()`.
    ///
    /// As `CALayer.h` says, Core Animation also marks a layer implicitly when its sublayers
    /// change, and a layer and its superlayer when its `bounds` or `transform` change; implicit
    /// marks are skipped while the layer runs its own `layoutSublayers()`.
    public func setNeedsLayout() { layoutPending = true }

    /// The implicit mark: skipped while this layer is laying out its sublayers.
    func markNeedsLayoutImplicitly() { if !isLayingOut { layoutPending = true } }

    /// Bounds or transform changed (`resized`: the bounds' size did): the layer and its
    /// superlayer need layout, and a resized layer with `needsDisplayOnBoundsChange` display.
    func geometryChanged(resized: Bool) {
        markNeedsLayoutImplicitly()
        superlayer?.markNeedsLayoutImplicitly()
        if resized && needsDisplayOnBoundsChange { setNeedsDisplay() }
    }

    /// Whether the layer is marked as needing layout.
    public func needsLayout() -> Bool { layoutPending }

    /// Walks up while the superlayer needs layout, then lays out the whole tree beneath that
    /// ancestor, top down (`layoutIfNeeded`, as `CALayer.h` describes it).
    public func layoutIfNeeded() {
        var top = self
        while let s = top.superlayer, s.layoutPending { top = s }
        top.layoutSubtree()
    }

    private func layoutSubtree() {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { layoutSubtree() } }
        if layoutPending {
            layoutPending = false
            isLayingOut = true
            layoutSublayers()
            isLayingOut = false
        }
        // Cleared before the walk: a mark made below while it runs sets it again.
        guard layoutPendingBelow else { return }
        layoutPendingBelow = false
        for l in sublayerListStorage { l.layoutSubtree() }
    }

    /// A layer below this one was marked for layout (or a subtree holding one was adopted).
    func noteLayoutPendingBelow() {
        var layer: CALayer? = self
        while let l = layer, !l.layoutPendingBelow {
            l.layoutPendingBelow = true
            layer = l.superlayer
        }
    }

    /// Positions the sublayers. The default asks the `delegate`
    /// (`layoutSublayers(of:)`); subclasses override it, as in the book.
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }

    // MARK: Drawing (see CALayer+Display.swift)

    /// Gives the layer its contents now: if there is a delegate, its `display(_:)` (whose
    /// default draws as below); otherwise draws into a new image of the bounds' size at
    /// `contentsScale` pixels per point (through `draw(in:)`) and sets `contents` to it.
    /// Subclasses override it to set `contents` themselves.
    open func display() {
        if let delegate { delegate.display(self) } else { displayByDrawing() }
    }

    /// Draws the layer's contents into `ctx`, whose user space is the layer's bounds with y
    /// down (flipped when `contentsAreFlipped()`). The default asks the `delegate` (`draw(_:in:)`), and draws nothing without one;
    /// subclasses override it. A `CATiledLayer` calls it once per tile, on background threads,
    /// several at once (see `CATiledLayer`).
    open func draw(in ctx: CGContext) {
        if let ownDrawing { ownDrawing.draw(in: ctx) } else { delegate?.draw(self, in: ctx) }
    }

    // MARK: Actions (see CAAction.swift)

    /// The action for `event` (usually a property's key), searched in Core Animation's order:
    /// the delegate's `action(for:forKey:)`, the `actions` dictionary, then the class's
    /// `defaultAction(forKey:)`. The first non-nil answer wins; `NSNull` ends the search with
    /// `nil`. A `nil` result for an animatable property means the implicit animation runs when
    /// the property changes. LayerKit has no `style` dictionary, so Apple's third step is absent.
    open func action(forKey event: String) -> CAAction? {
        if case .action(let a) = searchAction(forKey: event) { return a }
        return nil
    }

    /// The class's action for `event`, asked last by `action(forKey:)`; `nil` here. Subclasses
    /// override it to give every layer of the class an action.
    open class func defaultAction(forKey event: String) -> CAAction? { nil }

    /// A name for probes, errors and profiles.
    public var name: String? {
        get { properties.name }
        set { properties.name = newValue }
    }

    /// The layer's own coordinate space: origin shifts the sublayers, size is what it draws.
    public var bounds: CGRect {
        get { properties.bounds }
        set {
            changeAnimatable("bounds") {
                let oldSize = properties.bounds.size
                guard setIfFinite(&properties.bounds, newValue) else { return false }
                geometryChanged(resized: properties.bounds.size != oldSize)
                return true
            }
        }
    }

    /// Where the anchor point sits in the superlayer's bounds space.
    public var position: CGPoint {
        get { properties.position }
        set { changeAnimatable("position") { setIfFinite(&properties.position, newValue) } }
    }

    /// The pivot of `transform` and the point placed at `position`, in unit coordinates.
    public var anchorPoint: CGPoint {
        get { properties.anchorPoint }
        set { changeAnimatable("anchorPoint") { setIfFinite(&properties.anchorPoint, newValue) } }
    }

    /// The anchor point's z.
    public var anchorPointZ: CGFloat {
        get { properties.anchorPointZ }
        set { changeAnimatable("anchorPointZ") { setIfFinite(&properties.anchorPointZ, newValue) } }
    }

    /// A z translation applied after `transform`.
    public var zPosition: CGFloat {
        get { properties.zPosition }
        set { changeAnimatable("zPosition") { setIfFinite(&properties.zPosition, newValue) } }
    }

    /// The transform about the anchor point.
    public var transform: CATransform3D {
        get { properties.transform }
        set {
            changeAnimatable("transform") {
                guard setIfFinite(&properties.transform, newValue) else { return false }
                geometryChanged(resized: false)
                return true
            }
        }
    }

    /// The transform applied to the sublayers, about this layer's anchor point.
    public var sublayerTransform: CATransform3D {
        get { properties.sublayerTransform }
        set { changeAnimatable("sublayerTransform") { setIfFinite(&properties.sublayerTransform, newValue) } }
    }

    /// Whether the layer and its subtree are skipped when drawing and hit testing.
    public var isHidden: Bool {
        get { properties.isHidden }
        set { changeAnimatable("hidden") { assignIfChanged(&properties.isHidden, newValue) } }
    }

    /// Opacity, 0 (transparent) to 1 (opaque). A finite value outside is kept as given and
    /// drawn clamped, as in Core Animation; NaN and the infinities are ignored.
    public var opacity: Float {
        get { properties.opacity }
        set { changeAnimatable("opacity") { setIfFinite(&properties.opacity, newValue) } }
    }

    /// Whether opacity fades the composited subtree as one group (true) or each layer alone.
    public var allowsGroupOpacity: Bool {
        get { properties.allowsGroupOpacity }
        set { properties.allowsGroupOpacity = newValue }
    }

    /// The fill behind the contents.
    public var backgroundColor: CGColor? {
        get { properties.backgroundColor }
        set { changeAnimatable("backgroundColor") { assignIfChanged(&properties.backgroundColor, newValue) } }
    }

    /// Radius of the rounded corners of background and border (and of the clip with
    /// `masksToBounds`).
    public var cornerRadius: CGFloat {
        get { properties.cornerRadius }
        set { changeAnimatable("cornerRadius") { setIfFinite(&properties.cornerRadius, newValue) } }
    }

    /// Which corners `cornerRadius` rounds (all four by default); the others stay square, in
    /// the background, the border and the `masksToBounds` clip alike.
    public var maskedCorners: CACornerMask {
        get { properties.maskedCorners }
        set { properties.maskedCorners = newValue }
    }

    /// The curve of the rounded corners: `.circular` (the default) or Apple's `.continuous`.
    public var cornerCurve: CALayerCornerCurve {
        get { properties.cornerCurve }
        set { properties.cornerCurve = newValue }
    }

    /// How much of each edge a corner curve of `cornerRadius` takes: 1 for `.circular`, about
    /// 1.528 for `.continuous` (the same factor LayerKit draws with).
    public class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve == .continuous ? CGFloat(ContinuousCorner.extent) : 1
    }

    /// Width of the border, drawn inside the bounds above the sublayers.
    public var borderWidth: CGFloat {
        get { properties.borderWidth }
        set { changeAnimatable("borderWidth") { setIfFinite(&properties.borderWidth, newValue) } }
    }

    /// Colour of the border.
    public var borderColor: CGColor? {
        get { properties.borderColor }
        set { changeAnimatable("borderColor") { assignIfChanged(&properties.borderColor, newValue) } }
    }

    /// Whether contents and sublayers are clipped to the (rounded) bounds.
    public var masksToBounds: Bool {
        get { properties.masksToBounds }
        set { changeAnimatable("masksToBounds") { assignIfChanged(&properties.masksToBounds, newValue) } }
    }

    /// Whether the layer is drawn when it faces away from the viewer.
    public var isDoubleSided: Bool {
        get { properties.isDoubleSided }
        set { changeAnimatable("doubleSided") { assignIfChanged(&properties.isDoubleSided, newValue) } }
    }

    /// Whether the geometry of the layer and its sublayers is flipped vertically: the
    /// sublayers are placed mirrored about the bounds' mid-line, and drawn content follows
    /// (see `contentsAreFlipped()`).
    public var isGeometryFlipped: Bool {
        get { properties.isGeometryFlipped }
        set { properties.isGeometryFlipped = newValue }
    }

    /// Whether the layer's content is implicitly flipped when rendered: an odd number of layers
    /// from this one up to its root have `isGeometryFlipped` (CALayer.h). Then `display()`
    /// hands `draw(in:)` a context flipped in y, so that the drawing lands in the flipped
    /// geometry (y up on screen), as a shape layer's path and a gradient's points do; an image
    /// in `contents`, and a text layer's text, display the same either way.
    open func contentsAreFlipped() -> Bool {
        var flipped = false
        var layer: CALayer? = self
        while let l = layer {
            if l.isGeometryFlipped { flipped.toggle() }
            layer = l.superlayer
        }
        return flipped
    }

    /// The image drawn in the bounds.
    public var contents: CGImage? {
        get { properties.contents }
        set { changeAnimatable("contents") { assignIfChanged(&properties.contents, newValue) } }
    }

    /// How the contents are fitted into the bounds.
    public var contentsGravity: CALayerContentsGravity {
        get { properties.contentsGravity }
        set { properties.contentsGravity = newValue }
    }

    /// Image pixels per point of the contents.
    public var contentsScale: CGFloat {
        get { properties.contentsScale }
        set { if setIfFinite(&properties.contentsScale, newValue) { markNeedsDisplay(forChangeOf: "contentsScale") } }
    }

    /// The part of the image shown, in unit coordinates; outside 0…1 extends the edge pixels.
    public var contentsRect: CGRect {
        get { properties.contentsRect }
        set { changeAnimatable("contentsRect") { setIfFinite(&properties.contentsRect, newValue) } }
    }

    /// The stretchable centre of a nine-slice image, in unit coordinates.
    public var contentsCenter: CGRect {
        get { properties.contentsCenter }
        set { changeAnimatable("contentsCenter") { setIfFinite(&properties.contentsCenter, newValue) } }
    }

    /// Filter used when the contents are drawn smaller than their pixels.
    public var minificationFilter: CALayerContentsFilter {
        get { properties.minificationFilter }
        set { properties.minificationFilter = newValue }
    }

    /// Filter used when the contents are drawn larger than their pixels.
    public var magnificationFilter: CALayerContentsFilter {
        get { properties.magnificationFilter }
        set { properties.magnificationFilter = newValue }
    }

    /// Whether straight edges are antialiased.
    public var allowsEdgeAntialiasing: Bool {
        get { properties.allowsEdgeAntialiasing }
        set { properties.allowsEdgeAntialiasing = newValue }
    }

    /// Colour of the shadow.
    public var shadowColor: CGColor? {
        get { properties.shadowColor }
        set { changeAnimatable("shadowColor") { assignIfChanged(&properties.shadowColor, newValue) } }
    }

    /// Opacity of the shadow, 0…1 (kept as given, drawn clamped; non-finite values are
    /// ignored); 0 draws none.
    public var shadowOpacity: Float {
        get { properties.shadowOpacity }
        set { changeAnimatable("shadowOpacity") { setIfFinite(&properties.shadowOpacity, newValue) } }
    }

    /// Offset of the shadow in the layer's space (y down, so the default moves it up).
    public var shadowOffset: CGSize {
        get { properties.shadowOffset }
        set { changeAnimatable("shadowOffset") { setIfFinite(&properties.shadowOffset, newValue) } }
    }

    /// Gaussian sigma of the shadow blur, in points.
    public var shadowRadius: CGFloat {
        get { properties.shadowRadius }
        set { changeAnimatable("shadowRadius") { setIfFinite(&properties.shadowRadius, newValue) } }
    }

    /// The shape of the shadow, instead of the composited alpha.
    public var shadowPath: CGPath? {
        get { properties.shadowPath }
        set { changeAnimatable("shadowPath") { setIfFinite(&properties.shadowPath, newValue) } }
    }

    /// Whether the subtree is rendered to a bitmap and reused.
    public var shouldRasterize: Bool {
        get { properties.shouldRasterize }
        set { properties.shouldRasterize = newValue }
    }

    /// Pixels per point of that bitmap, in the layer's own space, whatever the canvas's scale:
    /// set it to the screen's scale for a sharp bitmap (left at 1 on a 2x canvas, the bitmap is
    /// magnified and blurry, as in Core Animation).
    public var rasterizationScale: CGFloat {
        get { properties.rasterizationScale }
        set { setIfFinite(&properties.rasterizationScale, newValue) }
    }

}

/// Draws a layer's contents for the package's own layers (`CALayer.ownDrawing`). Called from
/// `draw(in:)`, so on tile-drawing threads too, several at once: a value that only reads.
package protocol LayerContentDrawing: Sendable {
    /// Draws into `ctx`, as `draw(in:)` would.
    func draw(in ctx: CGContext)
}
