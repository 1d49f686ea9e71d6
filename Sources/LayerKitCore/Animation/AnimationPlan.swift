import Synchronization

/// A layer's animations as a frame evaluates them: in the order added, each animation's
/// per-frame fields, packed at the first frame after the layer's animations change, so a
/// frame reads them from one place instead of from each animation object. At 10,000 animated
/// layers the objects are cache misses: the first touch of each (its class, then its timing
/// fields, then its caches) was most of what evaluating an animation cost. The first two are
/// kept in the plan itself, i.e. inside the layer, next to the properties a frame copies
/// anyway; an array of them was one more cache miss per layer.
///
/// Basic animations, the common case, are evaluated from the packed fields alone; the others
/// (keyframes, springs, groups, transitions) through their objects, as before. Packing hides
/// no change from a frame: the layer holds its own copy of each animation (`add(_:forKey:)`
/// copies), and an edit to a packed field of that copy outdates the plans.
struct AnimationPlan {
    private var first: Step?, second: Step?
    /// The third and later.
    private var rest: [Step]
    /// What else a frame must do with the state the plan makes; `apply` returns them, from
    /// the same in-place access of the plan (each field read apart, through the layer's
    /// optional, copied the whole plan: 40 % more time per animated layer).
    private let traits: Traits
    /// `edits` when packed.
    private let packedAtEdit: Int

    /// The entries of the animated key paths for which the layer's class asks for display
    /// (`needsDisplay(forKey:)`): their changes redraw the presentation copy.
    let redrawnKeys: [AnimatableKeyPath]

    struct Traits: OptionSet {
        let rawValue: UInt8
        /// A `CATransition` is among the animations: only then is one asked for its drawing.
        static let transition = Traits(rawValue: 1)
        /// Some animated key asks for display (`redrawnKeys` is not empty).
        static let redraws = Traits(rawValue: 2)
        /// An animation changes a key that is not a property (stored by key-value coding):
        /// only then does evaluation read the layer's stored values.
        static let customKeys = Traits(rawValue: 4)
        /// An animation changes a path: only then does a frame check a path for values that
        /// overflowed (walking a big one is a frame's work, and the model's are kept finite).
        static let paths = Traits(rawValue: 8)
    }

    init(_ animations: [(key: String?, animation: CAAnimation)], redrawing needsDisplay: (String) -> Bool) {
        packedAtEdit = Self.edits.load(ordering: .relaxed)
        var redrawn: [AnimatableKeyPath] = [], traits: Traits = []
        var pending = animations.map(\.animation)
        while let a = pending.popLast() {
            if let group = a as? CAAnimationGroup { pending += group.animations ?? [] }
            guard let p = a as? CAPropertyAnimation, let keyPath = p.keyPath, let entry = p.entry else { continue }
            if needsDisplay(keyPath) { redrawn.append(entry) }
            if entry.isCustom { traits.insert(.customKeys) }
            if entry.kind == .path { traits.insert(.paths) }
        }
        redrawnKeys = redrawn
        if !redrawn.isEmpty { traits.insert(.redraws) }
        if animations.contains(where: { $0.animation is CATransition }) { traits.insert(.transition) }
        self.traits = traits
        let steps = animations.map { Step(animation: $0.animation, packed: $0.animation.packed()) }
        first = steps.first
        second = steps.dropFirst().first
        rest = Array(steps.dropFirst(2))
        for step in steps where step.packed != nil { step.animation.isPacked = true }
    }

    /// Whether no packed field was edited since packing.
    var isCurrent: Bool { packedAtEdit == Self.edits.load(ordering: .relaxed) }

    /// Applies the animations at layer time `t` to `state`, in the order added, starting the
    /// keys stored by key-value coding from `customValues` when animations change them; returns
    /// what else the frame must do.
    mutating func apply(to state: inout AnimatedLayerState, at t: Double, customValues: () -> [String: Any]) -> Traits {
        if traits.contains(.customKeys) { state.custom = customValues() }
        first?.apply(to: &state, at: t)
        second?.apply(to: &state, at: t)
        for i in rest.indices { rest[i].apply(to: &state, at: t) }
        return traits
    }

    private struct Step {
        let animation: CAAnimation
        var packed: PackedPropertyAnimation?

        mutating func apply(to state: inout AnimatedLayerState, at t: Double) {
            if packed != nil {
                packed!.apply(to: &state, at: t)
            } else {
                animation.apply(to: &state, at: t, timing: animation.timing)
            }
        }
    }
}

/// A basic animation's per-frame fields: its timing resolved, its key path's entry, its
/// endpoints converted to the key path's kind, and the decomposition of the transform beneath
/// it that a `transform.…` component keeps between frames.
struct PackedPropertyAnimation {
    let timing: ResolvedTiming
    let entry: AnimatableKeyPath
    let endpoints: CABasicAnimation.Endpoints
    let timingFunction: CAMediaTimingFunction?
    let isAdditive: Bool, isCumulative: Bool
    var transformParts: TransformParts? = nil

    /// `CABasicAnimation.apply(to:at:timing:)` from the packed fields.
    mutating func apply(to state: inout AnimatedLayerState, at t: Double) {
        guard let phase = timing.phase(at: t) else { return }
        let p = CAAnimation.eased(phase.progress, by: timingFunction), endpoints = endpoints
        entry.apply(at: phase, isAdditive: isAdditive, isCumulative: isCumulative, to: &state, keeping: &transformParts) {
            endpoints.values(at: p, underlying: $0)
        }
    }
}
