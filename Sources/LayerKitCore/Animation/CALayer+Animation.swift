import CHotLoops
import Foundation

extension CALayer {
    /// Adds a copy of `anim` (later edits to `anim` do not reach the layer), replacing an
    /// animation with the same `key` (the replaced one stops, unfinished); a `nil` key is
    /// allowed and never replaces. As in Core Animation, the copy takes the transaction's
    /// values: a duration of 0 or less becomes `CATransaction.animationDuration()`, and the
    /// transaction's timing function, when set, replaces the animation's. A `beginTime` of 0
    /// becomes the layer's time at the transaction's time: the latest frame's while a
    /// `CADisplayLink` runs, else `CACurrentMediaTime()` (Core Animation takes the commit's
    /// time; the two differ by less than a frame). The animation joins the completion blocks
    /// of the open transactions, and the frame clock reports its start and stop to its
    /// delegate and removes it when it ends (`isRemovedOnCompletion`). A `CATransition` takes
    /// the layer's subtree as last drawn, before this transaction's changes, as its old
    /// rendering (see `CATransition`).
    ///
    /// An animation with a value of a type its key path cannot take (an `NSValue(cgSize:)`
    /// for `"position"`) is refused: the layer is unchanged and `valueTypeErrorHandler` is
    /// told why. A key path that is not a property (a custom key, see `setValue(_:forKey:)`)
    /// animates the value stored under it, with the kind of the animation's values.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        if let error = copy.prepare(for: self) { return valueTypeErrorHandler(error) }
        if copy.duration <= 0 || copy.duration.isNaN { copy.duration = CATransaction.animationDuration() }
        if let f = CATransaction.animationTimingFunction() { copy.timingFunction = f }
        if copy.beginTime == 0 {
            copy.beginTime = convertTime(AnimationClock.shared.now, from: nil)
            copy.beginsAtCommit = true
        }
        if let key { animationList.filter { $0.key == key }.forEach { AnimationClock.shared.removed($0.animation) } }
        addCopied(copy, forKey: key)
        TransactionStack.shared.animationAdded(copy)
        AnimationClock.shared.track(copy, on: self)
    }

    /// Adds `anim` itself with its begin time as given (the scene reader's way: a scene states
    /// times explicitly).
    package func addCopied(_ anim: CAAnimation, forKey key: String?) {
        if let transition = anim as? CATransition, transition.before == nil { transition.before = replacedSnapshot ?? snapshot() }
        if let key { animationList.removeAll { $0.key == key } }
        animationList.append((key, anim))
    }

    /// The animation added for `key`, if any (the layer's copy: do not edit it).
    public func animation(forKey key: String) -> CAAnimation? {
        animationList.first { $0.key == key }?.animation
    }

    /// The keys of the animations added with one, in the order added; `nil` when none.
    public func animationKeys() -> [String]? {
        let keys = animationList.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation added for `key`; its delegate hears `animationDidStop(_:finished:)`
    /// with `false` at the next frame (or `CATransaction.flush()`).
    public func removeAnimation(forKey key: String) { removeAnimations { $0.key == key } }

    /// Removes every animation of this layer (each stops as `removeAnimation(forKey:)` says).
    public func removeAllAnimations() { removeAnimations { _ in true } }

    private func removeAnimations(where match: ((key: String?, animation: CAAnimation)) -> Bool) {
        for entry in animationList where match(entry) { AnimationClock.shared.removed(entry.animation) }
        animationList.removeAll(where: match)
    }

    /// Whether this layer, a sublayer or a mask anywhere below it has animations or layer timing
    /// (`beginTime`, `speed`, `timeOffset`): whether its presentation tree can differ from its
    /// model tree at some time.
    package var containsTimedLayers: Bool { timedLayerCount > 0 }

    /// Layer timing or the animations changed: keeps `timedLayerCount` of this layer and its
    /// ancestors true.
    func timingChanged() {
        let timed = !animationList.isEmpty || beginTime != 0 || speed != 1 || timeOffset != 0 || hasOwnTime
        guard timed != isTimed else { return }
        isTimed = timed
        adjustTimedLayerCount(by: timed ? 1 : -1)
    }

    func adjustTimedLayerCount(by delta: Int) {
        var layer: CALayer? = self
        while let l = layer {
            l.timedLayerCount += delta
            layer = l.superlayer
        }
    }

    /// This layer's time at its superlayer's time `t`.
    package func localTime(fromParent t: CFTimeInterval) -> CFTimeInterval { (t - beginTime) * Double(speed) + timeOffset }

    /// The superlayer's time at this layer's time `t` (a layer with speed 0 has no inverse:
    /// its begin time is returned).
    func parentTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        speed == 0 ? beginTime : (t - timeOffset) / Double(speed) + beginTime
    }

    /// This layer's time at media time `t` (the root's parent time).
    package func localTime(fromMedia t: CFTimeInterval) -> CFTimeInterval {
        localTime(fromParent: superlayer?.localTime(fromMedia: t) ?? t)
    }

    /// Media time at this layer's time `t`.
    func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        let p = parentTime(fromLocal: t)
        return superlayer?.mediaTime(fromLocal: p) ?? p
    }

    /// Time `t` of layer `l`'s time space (media time when `nil`) in the receiver's.
    public func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        localTime(fromMedia: l?.mediaTime(fromLocal: t) ?? t)
    }

    /// Time `t` of the receiver's time space in layer `l`'s (media time when `nil`).
    public func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        let media = mediaTime(fromLocal: t)
        return l?.localTime(fromMedia: media) ?? media
    }

    /// The presentation tree at media time `t`, as a snapshot: every layer's model values with
    /// its animations applied in the order added, in the layer's own time. Subtrees with no
    /// animations and no layer timing are not re-evaluated: they share their kept snapshots
    /// (see `snapshot()`), so the cost follows what is animated.
    public func snapshot(atTime t: CFTimeInterval) -> LayerSnapshot {
        layoutIfNeeded()
        var evaluated = 0
        let tree = presentationTree(parentTime: superlayer?.localTime(fromMedia: t) ?? t, evaluated: &evaluated)
        if evaluated > 0 { AnimationClock.shared.evaluations.add(evaluated, ordering: .relaxed) }
        return tree
    }

    /// The presentation tree at parent time `tp`, adding to `evaluated` the layers whose
    /// animated state it computes (one atomic add per tree, not per layer: a locked
    /// instruction waits for the cache misses of the properties copied before it).
    private func presentationTree(parentTime tp: CFTimeInterval, evaluated: inout Int) -> LayerSnapshot {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { presentationTree(parentTime: tp, evaluated: &evaluated) } }
        if timedLayerCount == 0 { return copyTree() }
        // An animated layer's model is drawn too (kept while it does not change): the state a
        // transition added after the next change starts from.
        // (Asked only when it would do something: fetching the kept one retains it, a cache
        // miss per animated layer.)
        if displayPending || cachedSnapshot == nil { _ = copyTree() }
        let local = localTime(fromParent: tp)
        let sublayers = presentationTrees(of: sublayerListStorage, parentTime: local, evaluated: &evaluated)
        let mask = maskStorage.map { $0.presentationTree(parentTime: local, evaluated: &evaluated) }
        hasBeenCommitted = true
        // Evaluated after the sublayers and moved into the snapshot: at 10,000 animated layers
        // a second copy of the properties (retains and releases of every reference in them) is
        // a cache miss per layer.
        evaluated += 1
        var state = AnimatedLayerState(properties: properties, kind: snapshotKind)
        let traits = applyAnimations(to: &state, atLocalTime: local)
        hideIfNotFinite(&state, at: local, checkingPaths: traits.contains(.paths))
        if case .emitter(var style) = state.kind {
            style.time = local
            state.kind = .emitter(style)
        }
        if traits.contains(.redraws) {
            state.properties.contents = presentationContents(of: state, keys: animationPlan!.redrawnKeys)
        }
        // The last transition added that contributes now is drawn.
        let transition = traits.contains(.transition)
            ? animationList.reversed().lazy.compactMap { $0.animation.transitionState(at: local) }.first : nil
        let instances = shiftedInstances(of: state.kind, copy0: sublayers, time: local, evaluated: &evaluated)
        return LayerSnapshot(state, sublayers: sublayers, mask: mask, transition: transition, instanceSublayers: instances)
    }

    /// A replicator's copies 1, 2, … of its sublayers, each at the replicator's time `t` less
    /// k · `instanceDelay`; `nil` when they would all equal copy 0 (`copy0`): no delay, or no
    /// animated sublayer. Only the copies that fit in `LayerSnapshot.maximumDrawnLayers` are
    /// evaluated, as only those are drawn, and no more once the snapshot has evaluated that
    /// many layers: nested replicators multiply their copies, and a chain of them 10,000 deep
    /// would otherwise ask for 2^10000 evaluations.
    private func shiftedInstances(of kind: LayerSnapshot.Kind, copy0: [LayerSnapshot], time t: CFTimeInterval,
                                  evaluated: inout Int) -> [[LayerSnapshot]]? {
        guard case let .replicator(r) = kind, r.instanceDelay != 0, r.drawnInstanceCount > 1,
              sublayerListStorage.contains(where: { $0.timedLayerCount > 0 }) else { return nil }
        let perCopy = max(1, copy0.reduce(0) { $0 + $1.layerCount })
        let n = min(r.drawnInstanceCount, max(1, LayerSnapshot.maximumDrawnLayers / perCopy))
        var copies: [[LayerSnapshot]] = []
        for k in 1..<max(n, 1) where evaluated < LayerSnapshot.maximumDrawnLayers {
            copies.append(presentationTrees(of: sublayerListStorage, parentTime: t - Double(k) * r.instanceDelay, evaluated: &evaluated))
        }
        return copies
    }

    /// The presentation trees of `layers`, each next layer's object fetched into the cache
    /// while the one before is evaluated: at 10,000 animated layers its first touch was a
    /// cache miss per layer. 16 lines, 1 KB from the object's start, take in the properties
    /// (about 700 bytes, right after the header) and what follows them; 8 gained little.
    private func presentationTrees(of layers: [CALayer], parentTime tp: CFTimeInterval, evaluated: inout Int) -> [LayerSnapshot] {
        var trees = [LayerSnapshot]()
        trees.reserveCapacity(layers.count)
        for i in layers.indices {
            if i + 1 < layers.count { lk_prefetch(Unmanaged.passUnretained(layers[i + 1]).toOpaque(), 16) }
            trees.append(layers[i].presentationTree(parentTime: tp, evaluated: &evaluated))
        }
        return trees
    }

    /// How many animations of this layer and the layers under it are within their active
    /// duration at media time `t` (begun, not yet ended, fill modes aside): what a frame
    /// clock or a HUD reports as running. Subtrees without animations are not visited.
    package func runningAnimationCount(atTime t: CFTimeInterval) -> Int {
        runningAnimationCount(parentTime: superlayer?.localTime(fromMedia: t) ?? t)
    }

    private func runningAnimationCount(parentTime tp: CFTimeInterval) -> Int {
        guard timedLayerCount > 0 else { return 0 }
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { runningAnimationCount(parentTime: tp) } }
        let local = localTime(fromParent: tp)
        return animationList.filter { $0.animation.timing.isActive(at: local) }.count
            + sublayerListStorage.reduce(0) { $0 + $1.runningAnimationCount(parentTime: local) }
            + (maskStorage?.runningAnimationCount(parentTime: local) ?? 0)
    }

    /// The layer's own state with its animations applied at its time `t`.
    package func presentationState(atLocalTime t: CFTimeInterval) -> AnimatedLayerState {
        AnimationClock.shared.evaluations.add(1, ordering: .relaxed)
        var state = AnimatedLayerState(properties: properties, kind: snapshotKind)
        applyAnimations(to: &state, atLocalTime: t)
        return state
    }

    /// `presentationState(atLocalTime:)`, not counted (see `presentationTree`).
    @inline(__always)
    /// (In place: the state is 700 bytes and a dozen references, and returning it with the
    /// traits copied it once more a layer.)
    @discardableResult
    private func applyAnimations(to state: inout AnimatedLayerState, atLocalTime t: CFTimeInterval) -> AnimationPlan.Traits {
        packAnimations()
        // The stored values are read only when animated: they lie past the part of the layer
        // a frame touches.
        return animationPlan!.apply(to: &state, at: t) { customValues }
    }

    /// Packs the animations for evaluation, when a change dropped the packed ones.
    private func packAnimations() {
        if animationPlan?.isCurrent != true {
            animationPlan = AnimationPlan(animationList, redrawing: { type(of: self).needsDisplay(forKey: $0) })
        }
    }

    /// The contents of the presentation copy in `state`, whose animated `keys` ask for display
    /// (`needsDisplay(forKey:)`): drawn by a new presentation copy (`init(presentationOf:)`,
    /// given the animated values) with `display()`, as Core Animation redraws presentation
    /// layers; drawn again only when one of the keys' values, the bounds or the scale
    /// changed, so a frame where nothing the drawing reads moved draws nothing.
    private func presentationContents(of state: AnimatedLayerState, keys: [AnimatableKeyPath]) -> CGImage? {
        let drawn = PresentationDrawing(values: keys.map { $0.read(state) }, bounds: state.properties.bounds,
                                        scale: state.properties.contentsScale, image: nil)
        if let last = presentationDrawing, last.values == drawn.values, last.bounds == drawn.bounds,
           last.scale == drawn.scale { return last.image }
        let copy = presentationCopy(of: state)
        copy.delegate = delegate
        copy.display()
        presentationDrawing = PresentationDrawing(values: drawn.values, bounds: drawn.bounds, scale: drawn.scale, image: copy.contents)
        return copy.contents
    }

    /// A presentation copy of this layer (its class's `init(layer:)`) with the values of
    /// `state`.
    private func presentationCopy(of state: AnimatedLayerState) -> CALayer {
        let copy = type(of: self).init(presentationOf: self)
        copy.properties = state.properties
        copy.adoptStyle(of: state.kind)
        copy.customValues.merge(state.custom) { $1 }
        return copy
    }

    /// A copy of the layer (with its sublayers and mask, as presentation layers) showing the
    /// animated values at the transaction's time (the latest frame's while a `CADisplayLink`
    /// runs, else `CACurrentMediaTime()`), as Core Animation's `presentation()`; `model()` of
    /// the copy and of each layer in it returns the layer it presents. `hitTest(_:)` on it
    /// tests the geometry on screen.
    public func presentation() -> Self? {
        presentation(atTime: AnimationClock.shared.now) as? Self
    }

    /// The presentation layer at media time `t` (see `presentation()`).
    ///
    /// Each layer of the copy is an instance of its model's class, made with that class's
    /// `init(layer:)` (see `init(presentationOf:)`), so a subclass's fields and the values
    /// stored by key-value coding are there, the animated ones at their values at `t`.
    public func presentation(atTime t: CFTimeInterval) -> CALayer {
        CALayer.layer(from: snapshot(atTime: t), model: self, time: t)
    }

    /// The model layer of a presentation layer; a model layer returns itself.
    public func model() -> Self { (modelLayer as? Self) ?? self }

    /// A layer tree of the classes and values a snapshot records; with `model`, the tree the
    /// snapshot was taken of, each layer's `model()` is its counterpart there.
    /// (a presentation copy of it, made by its class, whose animated custom values are taken at
    /// media time `t`).
    static func layer(from s: LayerSnapshot, model: CALayer? = nil, time t: CFTimeInterval = 0) -> CALayer {
        let l: CALayer
        if let model {
            l = type(of: model).init(presentationOf: model)
            if model.isTimed {
                l.customValues.merge(model.presentationState(atLocalTime: model.localTime(fromMedia: t)).custom) { $1 }
            }
        } else {
            switch s.kind {
            case .layer: l = CALayer()
            case .transformLayer: l = CATransformLayer()
            case .shape: l = CAShapeLayer()
            case .gradient: l = CAGradientLayer()
            case .text: l = CATextLayer()
            case .emitter: l = CAEmitterLayer()
            case .replicator: l = CAReplicatorLayer()
            case .scroll: l = CAScrollLayer()
            case .tiled: l = CATiledLayer()
            }
        }
        l.properties = s.properties
        l.adoptStyle(of: s.kind)
        l.modelLayer = model
        let models = model?.sublayerListStorage
        for (i, sub) in s.sublayers.enumerated() {
            l.addSublayer(layer(from: sub, model: models.flatMap { i < $0.count ? $0[i] : nil }, time: t))
        }
        if let m = s.mask { l.mask = layer(from: m, model: model?.maskStorage, time: t) }
        return l
    }
}

/// What a layer's presentation copy last drew for its animated keys that need display, and
/// the values, bounds and scale it drew for (see `CALayer.presentationContents`).
struct PresentationDrawing {
    let values: [AnimatedValue]
    let bounds: CGRect
    let scale: CGFloat
    let image: CGImage?
}
