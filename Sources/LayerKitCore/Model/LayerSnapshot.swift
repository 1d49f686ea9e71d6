import Foundation

/// An immutable copy of a layer tree, for rendering on any thread while the tree is edited.
///
/// `CALayer.snapshot()` lays the tree out (`layoutIfNeeded`) and copies every property by
/// value (sharing the snapshots of subtrees that have not changed since the last one); images
/// are shared (they are immutable). The compositor reads only snapshots.
public final class LayerSnapshot: Sendable {
    /// What kind of layer this is, with the typed layers' extra properties.
    public enum Kind: Equatable, Sendable {
        /// A plain `CALayer`.
        case layer
        /// A `CATransformLayer`: no flattening, draws nothing itself.
        case transformLayer
        /// A `CAShapeLayer`.
        case shape(ShapeStyle)
        /// A `CAGradientLayer`.
        case gradient(GradientStyle)
        /// A `CATextLayer`.
        case text(TextStyle)
        /// A `CAEmitterLayer`, with the time its particles are shown at.
        case emitter(EmitterStyle)
        /// A `CAReplicatorLayer`: its sublayers are drawn once per copy.
        case replicator(ReplicatorStyle)
        /// A `CAScrollLayer`: draws as a plain layer.
        case scroll(CAScrollLayerScrollMode)
        /// A `CATiledLayer`: without `contents`, draws its tiles at a level chosen on the canvas.
        case tiled(TiledLayerStyle)
    }

    /// The most layers the compositor draws from one tree, each replicated copy counted: the
    /// scene format's limit. A tree whose replicators ask for more draws the copies that fit.
    public static let maximumDrawnLayers = 1_000_000

    /// The layer's properties.
    public let properties: LayerProperties
    /// The layer's kind.
    public let kind: Kind
    /// The sublayers, back to front before zPosition sorting.
    public let sublayers: [LayerSnapshot]
    /// The mask layer, in this layer's bounds space.
    public let mask: LayerSnapshot?
    /// A `CATransition` running on the layer: its old rendering and how far it has given way
    /// to this one (only in presentation snapshots).
    public let transition: LayerTransition?
    /// A replicator's copies 1, 2, … of its sublayers when they differ from `sublayers` (copy
    /// 0): in presentation snapshots of a replicator with an `instanceDelay` whose sublayers
    /// animate, each copy's taken at its own time. `nil` when every copy shows `sublayers`.
    public let instanceSublayers: [[LayerSnapshot]]?
    /// Whether this subtree holds a replicator (masks and a transition's old rendering
    /// included): the compositor rewrites only such subtrees.
    public let containsReplicator: Bool

    /// A snapshot from parts (the tree is immutable from here on).
    public init(properties: LayerProperties, kind: Kind = .layer, sublayers: [LayerSnapshot] = [], mask: LayerSnapshot? = nil,
                transition: LayerTransition? = nil, instanceSublayers: [[LayerSnapshot]]? = nil) {
        self.properties = properties
        self.kind = kind
        self.sublayers = sublayers
        self.mask = mask
        self.transition = transition
        self.instanceSublayers = instanceSublayers
        containsReplicator = Self.containsReplicator(kind, sublayers, mask, transition)
        layerCount = 1 + sublayers.reduce(0) { $0 + $1.layerCount } + (mask?.layerCount ?? 0)
    }

    /// A presentation snapshot of a layer's animated state, which is moved in, not copied.
    init(_ state: consuming AnimatedLayerState, sublayers: [LayerSnapshot], mask: LayerSnapshot?, transition: LayerTransition?,
         instanceSublayers: [[LayerSnapshot]]?) {
        self.properties = state.properties
        self.kind = state.kind
        self.sublayers = sublayers
        self.mask = mask
        self.transition = transition
        self.instanceSublayers = instanceSublayers
        containsReplicator = Self.containsReplicator(kind, sublayers, mask, transition)
        layerCount = 1 + sublayers.reduce(0) { $0 + $1.layerCount } + (mask?.layerCount ?? 0)
    }

    private static func containsReplicator(_ kind: Kind, _ sublayers: [LayerSnapshot], _ mask: LayerSnapshot?,
                                           _ transition: LayerTransition?) -> Bool {
        if case .replicator = kind { return true }
        return sublayers.contains { $0.containsReplicator } || mask?.containsReplicator == true
            || transition?.before.containsReplicator == true
    }

    /// Whether this is a `CATransformLayer`.
    public var isTransformLayer: Bool {
        // Matched, not compared with `==`: asked of every layer each frame, and `==` copies the kind.
        if case .transformLayer = kind { return true }
        return false
    }

    /// The number of layers in this subtree (masks included); kept, not walked, since a
    /// replicator's copies are budgeted by it (see `maximumDrawnLayers`).
    public let layerCount: Int

    /// The depth of this subtree: 1 for a leaf.
    public var depth: Int { 1 + max(sublayers.map(\.depth).max() ?? 0, mask?.depth ?? 0) }
}

extension CALayer {
    /// Lays the tree out, displays the layers marked by `setNeedsDisplay()` (only those: a mark
    /// is what lets the copy reach a layer), then copies it into an immutable `LayerSnapshot`. Subtrees that have
    /// not changed since the last snapshot are not copied again: the new snapshot shares their
    /// snapshots with the last one (the same objects), so an unchanged tree gives back the very
    /// same snapshot.
    public func snapshot() -> LayerSnapshot {
        layoutIfNeeded()
        return copyTree()
    }

    func copyTree() -> LayerSnapshot {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { copyTree() } }
        // Marked layers draw here, as Core Animation displays them at commit: a mark drops the
        // kept snapshots above the layer, so only marked layers are reached and redrawn.
        if displayPending { displayIfNeeded() }
        if let kept = cachedSnapshot { return kept }
        // A layer marked again by its own display() (an asynchronous CAOpenGLLayer marks itself
        // every frame) must be reached by the next commit, so neither it nor any ancestor keeps
        // this snapshot: a kept one would end the next walk above the mark. Noted as the
        // sublayers are copied, in the one pass over them.
        var reachesMark = displayPending
        func copy(_ l: CALayer) -> LayerSnapshot {
            let c = l.copyTree()
            if l.cachedSnapshot == nil { reachesMark = true }
            return c
        }
        let s = LayerSnapshot(properties: properties, kind: snapshotKind,
                              sublayers: sublayerListStorage.map(copy), mask: maskStorage.map(copy))
        cachedSnapshot = reachesMark ? nil : s
        replacedSnapshot = reachesMark ? s : nil
        hasBeenCommitted = true
        return s
    }
}

extension LayerSnapshot: Equatable {
    /// Snapshots are equal when they describe the same tree: the same kind and properties, and
    /// equal masks and sublayers in the same order (images compare by identity). Comparing costs
    /// a walk of the tree that stops at the first difference.
    public static func == (a: LayerSnapshot, b: LayerSnapshot) -> Bool {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { a == b } }
        return a === b || (a.properties == b.properties && a.kind == b.kind && a.mask == b.mask && a.sublayers == b.sublayers
                                && a.transition == b.transition && a.instanceSublayers == b.instanceSublayers)
    }
}

extension LayerSnapshot.Kind {
    /// What a typed layer of this kind draws in place of `contents` (rasterized by
    /// `TypedContent`); `nil` for plain and transform layers.
    package var drawing: TypedContent.Drawing? {
        switch self {
        case .layer, .transformLayer, .emitter, .replicator, .scroll, .tiled: return nil
        case .shape(let s): return .shape(s)
        case .gradient(let g): return .gradient(g)
        case .text(let t): return .text(t)
        }
    }
}
