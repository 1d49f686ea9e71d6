import Foundation
import Synchronization

/// An animated property that evaluated to NaN or infinity from finite inputs (a time offset of
/// 1e308, a cumulative scale past `Double`'s range, additive positions that overflow): the
/// presentation layer is hidden at that time, since the value has no place, and the handler
/// set with `CALayer.setNonFiniteAnimationValueHandler(_:)` is told which.
public struct NonFiniteAnimationValue {
    /// The model layer.
    public let layer: CALayer
    /// The key path of the animation whose value is not finite.
    public let keyPath: String
    /// The layer's local time (its animations' parent time) it was evaluated at.
    public let time: CFTimeInterval
}

extension CALayer {
    private static let nonFiniteHandler = Mutex<((NonFiniteAnimationValue) -> Void)?>(nil)

    /// Sets what is called, on the thread taking the snapshot, for each layer and key path an
    /// animation made non-finite in a presentation tree (`nil`: nobody is told; the layer is
    /// hidden either way). The command-line tool prints one warning per layer and key path.
    public static func setNonFiniteAnimationValueHandler(_ handler: ((NonFiniteAnimationValue) -> Void)?) {
        nonFiniteHandler.withLock { $0 = handler }
    }

    /// Hides the presentation `state` (at local time `t`) when an animation made a value of
    /// it non-finite, and reports the key paths whose values are not. At a local time that is
    /// not finite (a `timeOffset` of 1e308 at scene time 1e308) no animation has a value, and
    /// every one is reported.
    ///
    /// Only the animated key paths are checked (the plan lists them): the rest of the state is
    /// the model's, whose setters keep it finite, and a frame should not walk a shape's whole
    /// path to find that out.
    func hideIfNotFinite(_ state: inout AnimatedLayerState, at t: CFTimeInterval) {
        let keys = animationPlan!.animatedKeys
        let timeIsNotFinite = !t.isFinite && !animationList.isEmpty
        guard timeIsNotFinite || keys.contains(where: { !$0.entry.read(state).isFinite }) else { return }
        state.properties.isHidden = true
        guard let handler = Self.nonFiniteHandler.withLock({ $0 }) else { return }
        for k in keys where timeIsNotFinite || !k.entry.read(state).isFinite {
            handler(NonFiniteAnimationValue(layer: self, keyPath: k.name, time: t))
        }
    }
}
