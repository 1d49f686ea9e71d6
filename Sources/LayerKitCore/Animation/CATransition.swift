import Foundation

/// How a transition moves the layer's old rendering to its new one (`CATransitionType`).
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    /// Core Animation's spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The old rendering fades out as the new one fades in (a cross-fade; the default).
    public static let fade = Self(rawValue: "fade")
    /// The new rendering slides in over the old one, which stays.
    public static let moveIn = Self(rawValue: "moveIn")
    /// The new rendering slides in as it pushes the old one out.
    public static let push = Self(rawValue: "push")
    /// The old rendering slides away, revealing the new one beneath, which stays.
    public static let reveal = Self(rawValue: "reveal")
}

/// The side of the layer a moving transition begins at (`CATransitionSubtype`).
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    /// Core Animation's spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Begins at the right side: the motion runs leftwards.
    public static let fromRight = Self(rawValue: "fromRight")
    /// Begins at the left side: the motion runs rightwards.
    public static let fromLeft = Self(rawValue: "fromLeft")
    /// Begins at the top side (the bounds' minimum y): the motion runs down.
    public static let fromTop = Self(rawValue: "fromTop")
    /// Begins at the bottom side (the bounds' maximum y): the motion runs up.
    public static let fromBottom = Self(rawValue: "fromBottom")
}

/// The key Core Animation adds transitions under by convention (`kCATransition`).
public let kCATransition = "transition"

/// An animation of a layer's whole rendering from how it looked to how it looks now: Core
/// Animation's `CATransition`.
///
/// As in Core Animation, the old rendering is the layer's subtree as it was last committed,
/// before the current transaction's changes, whether they are made before or after
/// `add(_:forKey:)` (so a transition run as a property's action works): in LayerKit, a commit is
/// a snapshot of the layer (every frame takes one, and so do `snapshot()` and `presentation()`).
/// A layer never drawn starts from its state at the add. The new rendering is the layer as it is at each frame. While the transition runs,
/// the layer draws both renderings, composed by `type` at the progress
/// `startProgress + (endProgress − startProgress) × f`, where `f` is the eased fraction of the
/// animation's pass; moving types are clipped to the layer's bounds. Once it is removed,
/// nothing keeps the old rendering.
open class CATransition: CAAnimation {
    /// How the renderings are composed (default `.fade`).
    public var type: CATransitionType = .fade
    /// The side a moving transition begins at; `nil` (the default) moves as `.fromLeft`.
    public var subtype: CATransitionSubtype?
    /// The progress at the start of the animation, 0…1 (default 0; out of range is clamped, NaN
    /// read as 0).
    public var startProgress: Float = 0
    /// The progress at the end of the animation, 0…1 (default 1; out of range is clamped, NaN
    /// read as 1).
    public var endProgress: Float = 1

    /// The old rendering: the layer's subtree as last drawn before the transition was added.
    var before: LayerSnapshot?

    override func copyFields(from other: CAAnimation) {
        super.copyFields(from: other)
        guard let o = other as? CATransition else { return }
        type = o.type
        subtype = o.subtype
        startProgress = o.startProgress
        endProgress = o.endProgress
        before = o.before
    }

    /// The transition as drawn at parent time `tp`, or `nil` when it does not contribute then.
    override func transitionState(at tp: Double) -> LayerTransition? {
        guard let before, let phase = timing.phase(at: tp) else { return nil }
        // Out of range clamps to 0…1; NaN is the default (a frame is never drawn with NaN).
        let start = startProgress.isNaN ? 0 : Double(startProgress).clampedToUnitInterval
        let end = endProgress.isNaN ? 1 : Double(endProgress).clampedToUnitInterval
        return LayerTransition(before: before, type: type, subtype: subtype ?? .fromLeft,
                               progress: start + (end - start) * eased(phase.progress))
    }
}

/// A transition as the compositor draws it: the old rendering, how it gives way to the layer's
/// current one, and how far it has.
public struct LayerTransition: Equatable, Sendable {
    /// The layer's subtree as last drawn before the transition was added (the old rendering).
    public let before: LayerSnapshot
    /// How the renderings are composed.
    public let type: CATransitionType
    /// The side a moving transition begins at.
    public let subtype: CATransitionSubtype
    /// How far the transition has run, 0 (the old rendering) to 1 (the new one).
    public let progress: Double

    /// A transition from parts.
    public init(before: LayerSnapshot, type: CATransitionType, subtype: CATransitionSubtype, progress: Double) {
        self.before = before
        self.type = type
        self.subtype = subtype
        self.progress = progress
    }

    /// Where each rendering is moved to, in the layer's bounds space, for bounds `size`: the old
    /// one and the new one, as translations; `nil` for `.fade`, which moves nothing.
    public func offsets(size: CGSize) -> (old: CGPoint, new: CGPoint)? {
        guard type != .fade else { return nil }
        // The unit direction the motion runs in.
        let (dx, dy): (Double, Double)
        switch subtype {
        case .fromRight: (dx, dy) = (-1, 0)
        case .fromTop: (dx, dy) = (0, 1)
        case .fromBottom: (dx, dy) = (0, -1)
        default: (dx, dy) = (1, 0)
        }
        let w = Double(size.width), h = Double(size.height), p = progress
        let gone = CGPoint(x: dx * w * p, y: dy * h * p)
        let coming = CGPoint(x: -dx * w * (1 - p), y: -dy * h * (1 - p))
        switch type {
        case .moveIn: return (.zero, coming)
        case .reveal: return (gone, .zero)
        default: return (gone, coming)
        }
    }
}
