import Foundation

/// Receives an animation's start and stop (`CAAnimationDelegate`).
public protocol CAAnimationDelegate: AnyObject {
    /// The animation started.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation stopped; `flag` is true when it ran to its end rather than being removed.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Does nothing.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation: Core Animation's `CAAnimation`, timed by `CAMediaTiming` in its
/// layer's time. A layer copies an animation when it is added, so later edits to the
/// original do not reach the layer.
open class CAAnimation: CAMediaTiming {
    /// The timing fields as the shared timing evaluation reads them; the public fields are
    /// views of it, so that a frame reads them in one access rather than one each.
    var timing = TimingFields(beginTime: 0, duration: 0, speed: 1, timeOffset: 0, repeatCount: 0, repeatDuration: 0,
                              autoreverses: false, fillMode: .removed, removedOnCompletion: true) { didSet { packedFieldChanged() } }

    /// Start in the layer's time; `add(_:forKey:)` turns 0 into the layer's current time.
    public var beginTime: CFTimeInterval {
        get { timing.beginTime }
        set { timing.beginTime = newValue }
    }
    /// Simple duration of one pass; 0 means 0.25 s.
    public var duration: CFTimeInterval {
        get { timing.duration }
        set { timing.duration = newValue }
    }
    /// How fast the animation's time runs relative to the layer's.
    public var speed: Float {
        get { Float(timing.speed) }
        set { timing.speed = Double(newValue) }
    }
    /// An offset added to the animation's local time.
    public var timeOffset: CFTimeInterval {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }
    /// How many passes play; fractional allowed, `.infinity` forever; 0 means once.
    public var repeatCount: Float {
        get { Float(timing.repeatCount) }
        set { timing.repeatCount = Double(newValue) }
    }
    /// Total active time; overrides `repeatCount` when above 0.
    public var repeatDuration: CFTimeInterval {
        get { timing.repeatDuration }
        set { timing.repeatDuration = newValue }
    }
    /// Whether each pass plays forward then backward.
    public var autoreverses: Bool {
        get { timing.autoreverses }
        set { timing.autoreverses = newValue }
    }
    /// What the animation contributes outside its active duration.
    public var fillMode: CAMediaTimingFillMode {
        get { timing.fillMode }
        set { timing.fillMode = newValue }
    }
    /// The pacing of each pass; `nil` is linear.
    public var timingFunction: CAMediaTimingFunction? { didSet { packedFieldChanged() } }
    /// Whether the animation stops contributing once it ends (then `fillMode` forwards has no
    /// effect).
    public var isRemovedOnCompletion: Bool {
        get { timing.removedOnCompletion }
        set { timing.removedOnCompletion = newValue }
    }
    /// Told when the animation starts and stops (held strongly, as Core Animation does).
    public var delegate: CAAnimationDelegate?

    // The frame clock's record of a layer's copy (see `AnimationClock`); never copied.
    var isTracked = false
    var hasStarted = false
    var hasStopped = false
    var completionGroups: [CompletionGroup] = []
    /// Whether `add(_:forKey:)` gave this copy its `beginTime` (it was 0): Core Animation's
    /// "begins at the commit", which a virtual clock can move to its own commit (see
    /// `CALayer.commitAnimations(atMediaTime:)`).
    package var beginsAtCommit = false

    /// Whether an `AnimationPlan` has packed this animation's fields: an edit to one of them
    /// then outdates every plan (see `AnimationPlan.edits`). No reference to the layer: a weak
    /// one would give the layer a side table, and every retain of it a detour through that.
    var isPacked = false

    func packedFieldChanged() { if isPacked { AnimationPlan.edits.add(1, ordering: .relaxed) } }

    /// An animation with Core Animation's defaults.
    public required init() {}

    /// A new animation (Core Animation's `animation()` class method).
    public class func animation() -> Self { Self() }

    /// A copy with the same fields (child animations of a group are copied too).
    open func copy() -> Any {
        let c = Self()
        c.copyFields(from: self)
        return c
    }

    /// Copies every field of `other` into the receiver; subclasses add theirs.
    func copyFields(from other: CAAnimation) {
        timing = other.timing
        timingFunction = other.timingFunction
        delegate = other.delegate
        customValues = other.customValues
    }

    /// Values stored by key-value coding (see `setValue(_:forKey:)`).
    var customValues: [String: Any] = [:]

    /// The eased fraction of a pass.
    func eased(_ p: Double) -> Double { Self.eased(p, by: timingFunction) }

    /// The fraction `p` of a pass eased by `function` (`nil`: linear).
    static func eased(_ p: Double, by function: CAMediaTimingFunction?) -> Double { function?.evaluate(p) ?? p }

    /// The fields a frame needs, packed for `AnimationPlan`; `nil` when the animation is
    /// evaluated through the object each frame.
    func packed() -> PackedPropertyAnimation? { nil }

    /// Readies the layer's copy of the animation for `layer` at `add(_:forKey:)`: a key path
    /// that is not a property gets its entry, and a value of a type the key path cannot take
    /// is the error returned (`nil`: none).
    func prepare(for layer: CALayer) -> CAValueTypeError? { nil }

    /// Applies the animation at parent time `tp` to `state` (a plain `CAAnimation` animates
    /// nothing). `timing` is `self.timing` or, in a group, the child's adjusted fields.
    func apply(to state: inout AnimatedLayerState, at tp: Double, timing: TimingFields) {}

    /// The transition drawn at parent time `tp`: only a `CATransition` has one. A method, not a
    /// cast, because the presentation tree asks every animation every frame.
    func transitionState(at tp: Double) -> LayerTransition? { nil }
}

/// An animation of one key path of a layer: Core Animation's `CAPropertyAnimation`.
open class CAPropertyAnimation: CAAnimation {
    /// The animated property, e.g. `"position"` or `"transform.rotation.z"`.
    public var keyPath: String? {
        didSet {
            entryCache = nil
            packedFieldChanged()
        }
    }
    /// Whether the animated value is added to the underlying value instead of replacing it.
    public var isAdditive = false { didSet { packedFieldChanged() } }
    /// Whether each repeat starts where the previous one ended.
    public var isCumulative = false { didSet { packedFieldChanged() } }

    /// An animation of `path` (Core Animation's `animation(withKeyPath:)`).
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    /// The key path's entry, looked up once rather than every frame, and again only when
    /// `keyPath` changes (the outer optional is whether it was looked up).
    var entryCache: AnimatableKeyPath??
    /// The decomposition of the transform beneath a `transform.…` animation, kept between
    /// frames (see `TransformParts.of(_:keeping:)`).
    private var transformParts: TransformParts?

    /// The entry of `keyPath`, or `nil` when it is not animatable.
    var entry: AnimatableKeyPath? {
        if let cached = entryCache { return cached }
        let entry = keyPath.flatMap(AnimatableKeyPath.named)
        entryCache = .some(entry)
        return entry
    }

    /// The animation's values with where they were given (e.g. `"CABasicAnimation.toValue"`),
    /// for `prepare(for:)`; subclasses list theirs.
    var givenValues: [(source: String, value: Any)] { [] }

    override func prepare(for layer: CALayer) -> CAValueTypeError? {
        // A key of another layer type (an emitter's `spin` on a plain layer) is the program's own here.
        let layerKind = layer.snapshotKind
        let foreign = entry.map { !$0.belongs(to: layerKind) } ?? false
        if foreign { entryCache = .some(nil) }
        if entry == nil, let keyPath, AnimatableKeyPath.property(keyPath, of: layerKind) == nil,
           let kind = givenValues.lazy.compactMap({ AnimatedValueKind.of($0.value) }).first
               ?? AnimatedValueKind.of(layer.value(forKey: keyPath)) {
            entryCache = .some(.custom(keyPath, kind: kind, initial: type(of: layer).defaultValue(forKey: keyPath)))
        }
        guard let entry, let keyPath else { return nil }
        guard let bad = givenValues.first(where: { entry.kind.convert($0.value) == nil }) else { return nil }
        return CAValueTypeError(keyPath: keyPath, source: bad.source, valueType: AnimatedValueKind.typeDescription(bad.value),
                                expected: entry.kind.expectedDescription)
    }

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath
        isAdditive = o.isAdditive
        isCumulative = o.isCumulative
    }

    /// The animated value (its start and end, for `isCumulative`) at a phase, given the key
    /// path's kind and the value beneath (read only when asked for); subclasses define it.
    func values(at phase: AnimationPhase, kind: AnimatedValueKind, underlying: () -> AnimatedValue)
        -> (value: AnimatedValue, start: AnimatedValue, end: AnimatedValue)? { nil }

    override func apply(to state: inout AnimatedLayerState, at tp: Double, timing: TimingFields) {
        guard let entry, let phase = timing.phase(at: tp) else { return }
        entry.apply(at: phase, isAdditive: isAdditive, isCumulative: isCumulative, to: &state, keeping: &transformParts) {
            values(at: phase, kind: entry.kind, underlying: $0)
        }
    }
}

/// An animation from one value to another: Core Animation's `CABasicAnimation`.
///
/// The values are typed as the key path's values: numbers (`CGFloat`, `Double`, `Float`,
/// `Int`), `CGPoint`, `CGSize`, `CGRect`, `CATransform3D`, `CGColor`, `Bool`.
open class CABasicAnimation: CAPropertyAnimation {
    /// The start value; `nil` takes it from `toValue − byValue` or the layer.
    public var fromValue: Any? { didSet { valueChanged() } }
    /// The end value; `nil` takes it from `fromValue + byValue` or the layer.
    public var toValue: Any? { didSet { valueChanged() } }
    /// The change from start to end.
    public var byValue: Any? { didSet { valueChanged() } }

    private func valueChanged() {
        endpointsCache = nil
        packedFieldChanged()
    }

    /// The start and end of the last key path kind evaluated, converted from `Any` once rather
    /// than every frame, and again only when a value changes.
    private var endpointsCache: (kind: AnimatedValueKind, endpoints: Endpoints?)?

    override var givenValues: [(source: String, value: Any)] {
        [("fromValue", fromValue), ("toValue", toValue), ("byValue", byValue)].compactMap { name, value in
            value.map { ("\(type(of: self)).\(name)", $0) }
        }
    }

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CABasicAnimation else { return }
        fromValue = o.fromValue
        toValue = o.toValue
        byValue = o.byValue
    }

    /// Start and end per the from/to/by rules, as far as they do not depend on the value
    /// beneath.
    enum Endpoints {
        case fixed(AnimatedValue, AnimatedValue)
        /// From a value to the value beneath.
        case from(AnimatedValue)
        /// From the value beneath to a value.
        case to(AnimatedValue)
        /// From the value beneath by a change.
        case by(AnimatedValue)
        case underlying

        /// Converts the values for `kind`, or `nil` when one is not of that kind.
        init?(kind: AnimatedValueKind, from fromValue: Any?, to toValue: Any?, by byValue: Any?) {
            let from = kind.convert(fromValue), to = kind.convert(toValue), by = kind.convert(byValue)
            if (fromValue != nil && from == nil) || (toValue != nil && to == nil) || (byValue != nil && by == nil) { return nil }
            switch (from, to, by) {
            case let (f?, t?, _): self = .fixed(f, t)
            case let (f?, nil, b?): self = .fixed(f, AnimatedValueKind.add(b, f))
            case let (nil, t?, b?): self = .fixed(AnimatedValueKind.subtract(t, b), t)
            case let (f?, nil, nil): self = .from(f)
            case let (nil, t?, nil): self = .to(t)
            case let (nil, nil, b?): self = .by(b)
            case (nil, nil, nil): self = .underlying
            }
        }

        /// The value at fraction `p` of the way, and the start and end.
        func values(at p: Double, underlying: () -> AnimatedValue) -> (value: AnimatedValue, start: AnimatedValue, end: AnimatedValue) {
            let (start, end): (AnimatedValue, AnimatedValue)
            switch self {
            case let .fixed(f, t): (start, end) = (f, t)
            case let .from(f): (start, end) = (f, underlying())
            case let .to(t): (start, end) = (underlying(), t)
            case let .by(b):
                let u = underlying()
                (start, end) = (u, AnimatedValueKind.add(b, u))
            case .underlying:
                let u = underlying()
                (start, end) = (u, u)
            }
            return (AnimatedValueKind.interpolate(start, end, p), start, end)
        }
    }

    /// The endpoints for `kind`, or `nil` when a value is not of that kind.
    private func endpoints(kind: AnimatedValueKind) -> Endpoints? {
        if let cached = endpointsCache, cached.kind == kind { return cached.endpoints }
        let endpoints = Endpoints(kind: kind, from: fromValue, to: toValue, by: byValue)
        endpointsCache = (kind, endpoints)
        return endpoints
    }

    /// The interpolation fraction of a phase (the spring overrides it).
    func fraction(at phase: AnimationPhase) -> Double { eased(phase.progress) }

    override func values(at phase: AnimationPhase, kind: AnimatedValueKind, underlying: () -> AnimatedValue)
        -> (value: AnimatedValue, start: AnimatedValue, end: AnimatedValue)? {
        endpoints(kind: kind)?.values(at: fraction(at: phase), underlying: underlying)
    }

    override func packed() -> PackedPropertyAnimation? {
        guard let entry, let endpoints = endpoints(kind: entry.kind) else { return nil }
        return PackedPropertyAnimation(timing: timing.resolved, entry: entry, endpoints: endpoints, timingFunction: timingFunction,
                                       isAdditive: isAdditive, isCumulative: isCumulative)
    }
}

/// How a keyframe animation fills in between its keyframes (`CAAnimationCalculationMode`).
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Straight interpolation between neighbouring keyframes (the default).
    public static let linear = Self(rawValue: "linear")
    /// Each keyframe held until the next key time.
    public static let discrete = Self(rawValue: "discrete")
    /// Constant speed; `keyTimes` and `timingFunctions` are ignored.
    public static let paced = Self(rawValue: "paced")
    /// A Kochanek–Bartels spline through the keyframes.
    public static let cubic = Self(rawValue: "cubic")
    /// The cubic spline at constant speed.
    public static let cubicPaced = Self(rawValue: "cubicPaced")
}

/// How a keyframe animation along a path turns the layer (`CAAnimationRotationMode`).
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The layer turns to the path's tangent.
    public static let rotateAuto = Self(rawValue: "auto")
    /// The layer turns to the path's tangent plus half a turn.
    public static let rotateAutoReverse = Self(rawValue: "autoReverse")
}

/// An animation through a list of values or along a path: Core Animation's
/// `CAKeyframeAnimation`.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframes, typed as the key path's values.
    public var values: [Any]? { didSet { curveCache = nil } }
    /// A path for a point property to follow; when set it replaces `values`: each of its
    /// elements but a move-to is a segment, and each segment's end point a keyframe.
    public var path: CGPath? { didSet { curveCache = nil } }
    /// Each keyframe's time as a fraction 0…1 of a pass; `nil` spaces them evenly.
    public var keyTimes: [NSNumber]? { didSet { keyTimesCache = nil } }
    /// One timing function per segment.
    public var timingFunctions: [CAMediaTimingFunction]?
    /// How values between keyframes are computed.
    public var calculationMode: CAAnimationCalculationMode = .linear { didSet { curveCache = nil } }
    /// Whether the layer turns to follow `path`'s tangent (`nil`: it does not turn).
    public var rotationMode: CAAnimationRotationMode?
    /// Per keyframe, how sharply the `cubic` curve bends there (1 tight, −1 round; 0 default).
    public var tensionValues: [NSNumber]? { didSet { curveCache = nil } }
    /// Per keyframe, how sharp the `cubic` curve's corner is (0 smooth).
    public var continuityValues: [NSNumber]? { didSet { curveCache = nil } }
    /// Per keyframe, where the `cubic` curve overshoots (−1 before, 1 after the keyframe).
    public var biasValues: [NSNumber]? { didSet { curveCache = nil } }

    /// The curve of the last key path kind evaluated; built once, not every frame, and dropped
    /// when the fields it comes from change.
    private var curveCache: (kind: AnimatedValueKind, curve: KeyframeCurve?)?
    /// `keyTimes` as numbers, converted once rather than every frame.
    private var keyTimesCache: KeyTimes??

    /// The keyframes (none when a point key path follows `path`, which replaces them).
    override var givenValues: [(source: String, value: Any)] {
        if path != nil, entry?.kind == .point { return [] }
        return (values ?? []).enumerated().map { ("CAKeyframeAnimation.values[\($0.offset)]", $0.element) }
    }

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CAKeyframeAnimation else { return }
        values = o.values
        path = o.path
        keyTimes = o.keyTimes
        timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode
        rotationMode = o.rotationMode
        tensionValues = o.tensionValues
        continuityValues = o.continuityValues
        biasValues = o.biasValues
    }

    /// The keyframes as a curve for values of `kind`: the path for point key paths that have
    /// one, else the values (`nil` when a value is not of the kind).
    private func curve(for kind: AnimatedValueKind) -> KeyframeCurve? {
        if let cached = curveCache, cached.kind == kind { return cached.curve }
        let curve: KeyframeCurve?
        if kind == .point, let path {
            curve = KeyframeCurve(path: path)
        } else {
            let converted = (values ?? []).compactMap { kind.convert($0) }
            let cubic = calculationMode == .cubic || calculationMode == .cubicPaced
            curve = converted.isEmpty || converted.count != values?.count ? nil
                : KeyframeCurve(values: converted, spline: cubic ? (tensionValues, continuityValues, biasValues) : nil)
        }
        curveCache = (kind, curve)
        return curve
    }

    /// Where on `curve` the animation is at `phase`: the keyframe index for `discrete`, else
    /// the segment and its parameter.
    private func position(on curve: KeyframeCurve, at phase: AnimationPhase) -> (segment: Int, u: Double, keyframe: Int?)? {
        let p = eased(phase.progress), n = curve.keyframes.count
        if keyTimesCache == nil { keyTimesCache = .some(keyTimes.map { KeyTimes($0.map(\.doubleValue)) }) }
        let times = keyTimesCache!
        if calculationMode == .discrete {
            let i = min((times?.count == n + 1 ? times! : KeyTimes(evenly: n)).lastIndex(atOrBefore: p, counting: curve.scratch) ?? 0, n - 1)
            return (max(min(i, curve.segmentCount - 1), 0), i < curve.segmentCount ? 0 : 1, i)
        }
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
        guard let (i, u) = curve.locate(p, paced: paced, keyTimes: times, easing: timingFunctions) else { return nil }
        return (i, u, nil)
    }

    override func values(at phase: AnimationPhase, kind: AnimatedValueKind, underlying: () -> AnimatedValue)
        -> (value: AnimatedValue, start: AnimatedValue, end: AnimatedValue)? {
        guard let curve = curve(for: kind), let first = curve.keyframes.first, let last = curve.keyframes.last else { return nil }
        guard let at = position(on: curve, at: phase) else { return (first, first, last) }
        let value = at.keyframe.map { curve.keyframes[$0] } ?? curve.segment(at.segment).value(at: at.u)
        return (value, first, last)
    }

    /// Applies the value, then with `rotationMode` and a path turns the layer to the path's
    /// tangent: `transform` becomes `CATransform3DRotate(transform, angle, 0, 0, 1)`.
    override func apply(to state: inout AnimatedLayerState, at tp: Double, timing: TimingFields) {
        super.apply(to: &state, at: tp, timing: timing)
        guard let rotationMode, path != nil, entry?.kind == .point,
              let phase = timing.phase(at: tp), let curve = curve(for: .point),
              let at = position(on: curve, at: phase), let d = curve.segment(at.segment).tangent(at: at.u) else { return }
        let angle = atan2(d[1], d[0]) + (rotationMode == .rotateAutoReverse ? .pi : 0)
        state.properties.transform = CATransform3DRotate(state.properties.transform, CGFloat(angle), 0, 0, 1)
    }
}

/// A spring from one value to another: Core Animation's `CASpringAnimation`. The fraction is
/// that of a damped harmonic oscillator at the animation's local time; the timing function is
/// not used.
open class CASpringAnimation: CABasicAnimation {
    /// Mass of the object on the spring.
    public var mass: CGFloat = 1
    /// Spring stiffness.
    public var stiffness: CGFloat = 100
    /// Damping coefficient.
    public var damping: CGFloat = 10
    /// Initial velocity, in fractions of the distance per second.
    public var initialVelocity: CGFloat = 0
    /// Whether a damping ratio above 1 overdamps; otherwise it counts as 1 (critical).
    public var allowsOverdamping = false

    /// A spring of mass 1 described as SwiftUI describes one: `perceptualDuration` is the
    /// period of the undamped oscillation (stiffness (2π / perceptualDuration)²), and `bounce`
    /// sets the damping ratio ζ: 1 − bounce for a bounce of 0 or more (0 is critically damped,
    /// 1 undamped), 1 / (1 + bounce) below 0 (overdamped; `allowsOverdamping` is turned on so
    /// that it shows). Apple does not publish its conversion; this one meets the ends SwiftUI's
    /// `Spring(duration:bounce:)` documents. The animation's `duration` is left as it is.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let w0 = 2 * Double.pi / perceptualDuration
        let zeta = bounce >= 0 ? 1 - Double(bounce) : 1 / (1 + Double(bounce))
        mass = 1
        stiffness = CGFloat(w0 * w0)
        damping = CGFloat(2 * zeta * w0)
        allowsOverdamping = bounce < 0
    }

    /// The period of the spring's undamped oscillation, 2π·√(mass / stiffness) (see
    /// `init(perceptualDuration:bounce:)`).
    public var perceptualDuration: CFTimeInterval {
        2 * Double.pi * (Double(mass) / Double(stiffness)).squareRoot()
    }

    /// How bouncy the spring is, from its damping ratio ζ = damping / (2·√(stiffness·mass)):
    /// 1 − ζ up to critical damping, 1 / ζ − 1 beyond (see `init(perceptualDuration:bounce:)`).
    public var bounce: CGFloat {
        let zeta = Double(damping) / (2 * (Double(stiffness) * Double(mass)).squareRoot())
        return CGFloat(zeta <= 1 ? 1 - zeta : 1 / zeta - 1)
    }

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CASpringAnimation else { return }
        mass = o.mass
        stiffness = o.stiffness
        damping = o.damping
        initialVelocity = o.initialVelocity
        allowsOverdamping = o.allowsOverdamping
    }

    /// The fraction `x(t)` of the spring's way at `t` seconds.
    ///
    /// Written so that finite parameters give a finite fraction: the square roots are taken
    /// apart (k·m and k/m overflow or underflow at a stiffness of 1e308 or a mass of 5e-324),
    /// a spring whose natural frequency is past `Double`'s range is there at once, a decay
    /// that has run out (e^−a for a > 745 is 0) is 0 whatever it multiplies, and the
    /// overdamped case is the sum of its two decaying modes (cosh and sinh overflow where
    /// their difference does not).
    func springFraction(_ t: Double) -> Double {
        let m = Double(mass), k = Double(stiffness), c = Double(damping), v0 = Double(initialVelocity)
        guard m > 0, k > 0 else { return 1 }
        let w0 = k.squareRoot() / m.squareRoot()
        guard w0.isFinite else { return t > 0 ? 1 : 0 }
        var zeta = c / 2 / k.squareRoot() / m.squareRoot()
        if zeta > 1, !allowsOverdamping { zeta = 1 }
        if zeta <= 1, zeta * w0 * t > 745 { return 1 }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
        }
        if zeta == 1 { return 1 - exp(-w0 * t) * (1 + (w0 - v0) * t) }
        // x = 1 − A·e^(r1·t) − B·e^(r2·t), A + B = 1 (x(0) = 0), A·r1 + B·r2 = −v0 (x'(0) = v0);
        // r1 = −w0 / (ζ + √(ζ² − 1)), the slow root, without the cancellation of −w0·(ζ − √…).
        let root = zeta < 1e150 ? (zeta * zeta - 1).squareRoot() : zeta
        let r1 = -w0 / (zeta + root), r2 = -w0 * (zeta + root)
        // A fast root past `Double`'s range leaves the slow mode alone (A → 1).
        let a = r2.isFinite ? (-v0 - r2) / (r1 - r2) : 1, b = 1 - a
        func term(_ coefficient: Double, _ r: Double) -> Double { r * t < -745 ? 0 : coefficient * exp(r * t) }
        return 1 - term(a, r1) - term(b, r2)
    }

    /// LayerKit's estimate of the time the spring takes to settle: the first time, in
    /// milliseconds steps up to 60 s, after which |1 − x| stays below 0.001.
    public var settlingDuration: CFTimeInterval {
        var last = 0.0
        for ms in 0...60_000 where abs(1 - springFraction(Double(ms) / 1000)) >= 0.001 { last = Double(ms + 1) / 1000 }
        return last
    }

    override func fraction(at phase: AnimationPhase) -> Double { springFraction(phase.localTime) }

    /// The spring's fraction is not a timing function's: evaluated through the object.
    override func packed() -> PackedPropertyAnimation? { nil }
}

/// Animations run together: Core Animation's `CAAnimationGroup`. The children are timed in
/// the group's local time, contribute only while the group does, and are clipped to its
/// duration; a child's duration of 0 means the group's; a child's `isRemovedOnCompletion` is
/// ignored.
open class CAAnimationGroup: CAAnimation {
    /// The child animations, each with its own key path.
    public var animations: [CAAnimation]?

    override func prepare(for layer: CALayer) -> CAValueTypeError? {
        for child in animations ?? [] { if let error = child.prepare(for: layer) { return error } }
        return nil
    }

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CAAnimationGroup else { return }
        animations = o.animations?.map { $0.copy() as! CAAnimation }
    }

    override func apply(to state: inout AnimatedLayerState, at tp: Double, timing: TimingFields) {
        guard let phase = timing.phase(at: tp) else { return }
        let local = eased(phase.progress) * timing.simpleDuration
        for child in animations ?? [] {
            var t = child.timing
            if t.duration <= 0 { t.duration = timing.simpleDuration }
            t.removedOnCompletion = false
            child.apply(to: &state, at: local, timing: t)
        }
    }
}
