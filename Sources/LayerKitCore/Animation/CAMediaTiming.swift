import Foundation

#if !canImport(Darwin)
/// Seconds, as Core Foundation's `CFTimeInterval` (Foundation on Linux lacks it).
public typealias CFTimeInterval = Double
#endif

/// What an animation contributes outside its active duration (`CAMediaTimingFillMode`).
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    /// The scene-file and Core Animation spelling, e.g. `"forwards"`.
    public let rawValue: String
    /// Wraps a raw value; unknown values behave as `removed`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Nothing outside the active duration (the default).
    public static let removed = Self(rawValue: "removed")
    /// Holds the final value after the end (unless removed on completion).
    public static let forwards = Self(rawValue: "forwards")
    /// Shows the initial value before the start.
    public static let backwards = Self(rawValue: "backwards")
    /// Both `forwards` and `backwards`.
    public static let both = Self(rawValue: "both")

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// A hierarchical timing space: Core Animation's `CAMediaTiming`, adopted by layers and
/// animations. An object maps its parent's time `tp` to its own, `(tp − beginTime) · speed +
/// timeOffset`.
public protocol CAMediaTiming: AnyObject {
    /// Start of the object in its parent's time.
    var beginTime: CFTimeInterval { get set }
    /// Simple duration of one pass; 0 means Core Animation's default (0.25 s for animations).
    var duration: CFTimeInterval { get set }
    /// How fast local time runs relative to the parent's.
    var speed: Float { get set }
    /// An offset added to local time.
    var timeOffset: CFTimeInterval { get set }
    /// How many passes play; fractional allowed, `.infinity` forever; 0 means once.
    var repeatCount: Float { get set }
    /// Total active time; overrides `repeatCount` when above 0.
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each pass plays forward then backward.
    var autoreverses: Bool { get set }
    /// What the object contributes outside its active duration.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// Seconds of a monotonic clock (`CACurrentMediaTime`), the time base of layer trees whose
/// root has default timing.
public func CACurrentMediaTime() -> CFTimeInterval {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return CFTimeInterval(ts.tv_sec) + CFTimeInterval(ts.tv_nsec) * 1e-9
}

/// Where an animation stands at one parent time: the outcome of Core Animation's timing model
/// (scene format, "Timing", steps 1–4), shared by every animation type.
struct AnimationPhase: Equatable {
    /// Fraction of the simple duration, 0…1, before easing.
    var progress: Double
    /// The index of the current iteration (for `isCumulative`).
    var iteration: Double
    /// Seconds into the current pass, after autoreversing (the spring's local time).
    var localTime: Double
}

/// The timing fields of one object, evaluated by `phase(at:)`.
struct TimingFields {
    var beginTime: Double, duration: Double, speed: Double, timeOffset: Double
    var repeatCount: Double, repeatDuration: Double, autoreverses: Bool
    var fillMode: CAMediaTimingFillMode, removedOnCompletion: Bool

    /// The simple duration, 0 read as 0.25 s.
    var simpleDuration: Double { duration > 0 ? duration : 0.25 }
    /// One iteration: the simple duration, twice with `autoreverses`.
    var iterationLength: Double { autoreverses ? 2 * simpleDuration : simpleDuration }
    /// `repeatDuration` if set, else `repeatCount` iterations, else one.
    var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * iterationLength }
        return iterationLength
    }

    /// Whether parent time `tp` lies within the active duration (from the start up to, not
    /// including, the end).
    func isActive(at tp: Double) -> Bool {
        let a = (tp - beginTime) * speed
        return a >= 0 && a < activeDuration
    }

    /// The phase at parent time `tp`, or `nil` when the object contributes nothing then.
    func phase(at tp: Double) -> AnimationPhase? { resolved.phase(at: tp) }

    /// The fields as `phase(at:)` reads them.
    var resolved: ResolvedTiming {
        ResolvedTiming(beginTime: beginTime, speed: speed, timeOffset: timeOffset, activeDuration: activeDuration,
                       simpleDuration: simpleDuration, iterationLength: iterationLength, autoreverses: autoreverses,
                       fillsBackwards: fillMode.fillsBackwards, fillsForwards: !removedOnCompletion && fillMode.fillsForwards)
    }
}

/// Timing fields with the durations derived and the fill mode decided once: what a layer's
/// packed animations keep (see `AnimationPlan`), so that a frame neither derives them again
/// nor copies the fill mode's string.
struct ResolvedTiming {
    var beginTime: Double, speed: Double, timeOffset: Double
    var activeDuration: Double, simpleDuration: Double, iterationLength: Double
    var autoreverses: Bool
    /// Whether the object contributes before its start, and after its end.
    var fillsBackwards: Bool, fillsForwards: Bool

    /// The phase at parent time `tp`, or `nil` when the object contributes nothing then.
    func phase(at tp: Double) -> AnimationPhase? {
        var a = (tp - beginTime) * speed
        let active = activeDuration
        if a < 0 {
            guard fillsBackwards else { return nil }
            a = 0
        } else if a >= active {
            guard fillsForwards else { return nil }
            a = active
        }
        let d = simpleDuration, l = iterationLength
        let t = a + timeOffset
        // The iteration comes from the remainder (exact), not from a second division: t / l
        // rounds to a whole number where t is an ulp short of one (2.0 / 0.4 is 5 while
        // fmod(2.0, 0.4) is 0.4 less an ulp), which would count a pass twice. (t − u) / l is a
        // whole number but for rounding: + ½ and floor round it with an instruction, where
        // rounded() is a call into libm, a sixth of a basic animation's evaluation.
        var u = t.truncatingRemainder(dividingBy: l)
        if u < 0 { u += l }
        var iteration = ((t - u) / l + 0.5).rounded(.down)
        if a == active, u == 0, t > 0 {
            u = l
            iteration -= 1
        }
        if autoreverses, u > d { u = 2 * d - u }
        return AnimationPhase(progress: u / d, iteration: iteration, localTime: u)
    }
}
