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
    /// Whether a `CATransition` is among the animations: only then is one asked for its
    /// drawing.
    let hasTransition: Bool
    /// `edits` when packed.
    private let packedAtEdit: Int

    /// How many times a packed field of a packed animation has been edited. Such an edit
    /// (changing an animation after adding it, which Core Animation does not allow) outdates
    /// every plan, and each is packed again at its next frame: a counter rather than a
    /// reference from each animation to its layer costs a frame nothing. Atomic, because
    /// separate trees may be snapshotted on separate threads.
    static let edits = Atomic<Int>(0)

    /// The entries of the animated key paths for which the layer's class asks for display
    /// (`needsDisplay(forKey:)`): their changes redraw the presentation copy.
    let redrawnKeys: [AnimatableKeyPath]
    /// Whether an animation changes a key that is not a property (stored by key-value coding):
    /// only then does evaluation read the layer's stored values.
    let animatesCustomKeys: Bool
    /// The animated key paths (groups' included), with their entries: the values a frame must
    /// check for overflow, rather than every property of the layer (a shape's whole path).
    let animatedKeys: [(name: String, entry: AnimatableKeyPath)]

    init(_ animations: [(key: String?, animation: CAAnimation)], redrawing needsDisplay: (String) -> Bool) {
        packedAtEdit = Self.edits.load(ordering: .relaxed)
        var redrawn: [AnimatableKeyPath] = [], custom = false, animated: [(name: String, entry: AnimatableKeyPath)] = []
        var pending = animations.map(\.animation)
        while let a = pending.popLast() {
            if let group = a as? CAAnimationGroup { pending += group.animations ?? [] }
            guard let p = a as? CAPropertyAnimation, let keyPath = p.keyPath, let entry = p.entry else { continue }
            if needsDisplay(keyPath) { redrawn.append(entry) }
            if AnimatableKeyPath.named(keyPath) == nil { custom = true }
            if !animated.contains(where: { $0.name == keyPath }) { animated.insert((keyPath, entry), at: 0) }
        }
        redrawnKeys = redrawn
        animatesCustomKeys = custom
        animatedKeys = animated
        let steps = animations.map { Step(animation: $0.animation, packed: $0.animation.packed()) }
        first = steps.first
        second = steps.dropFirst().first
        rest = Array(steps.dropFirst(2))
        hasTransition = animations.contains { $0.animation is CATransition }
        for step in steps where step.packed != nil { step.animation.isPacked = true }
    }

    /// Whether no packed field was edited since packing.
    var isCurrent: Bool { packedAtEdit == Self.edits.load(ordering: .relaxed) }

    /// Applies the animations at layer time `t` to `state`, in the order added.
    mutating func apply(to state: inout AnimatedLayerState, at t: Double) {
        first?.apply(to: &state, at: t)
        second?.apply(to: &state, at: t)
        for i in rest.indices { rest[i].apply(to: &state, at: t) }
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
