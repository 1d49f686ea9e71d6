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
    /// Sets what is called, on the thread taking the snapshot, for each layer and key path an
    /// animation made non-finite in a presentation tree (`nil`: nobody is told; the layer is
    /// hidden either way). The command-line tool prints one warning per layer and key path.
    public static func setNonFiniteAnimationValueHandler(_ handler: ((NonFiniteAnimationValue) -> Void)?) {
        nonFiniteHandler.withLock { $0 = handler }
    }

    /// Hides the presentation `state` (at local time `t`) when an animation made a value of
    /// it non-finite, and reports the key paths whose values are not. At a local time that is
    /// not finite (a `timeOffset` of 1e308 at scene time 1e308) no animation has a value, and
    /// every one is reported. Paths are checked only when `checkingPaths` (an animation
    /// changes one).
    ///
    /// The check runs on the state in place, a comparison a number: at 10,000 animated layers,
    /// reading the animated values through their key paths (a copy of the state each) tripled
    /// the cost of evaluating them.
    func hideIfNotFinite(_ state: inout AnimatedLayerState, at t: CFTimeInterval, checkingPaths: Bool) {
        let timeIsNotFinite = !t.isFinite && !animationList.isEmpty
        guard timeIsNotFinite || !AnimatedLayerState.isFinite(&state, checkingPaths: checkingPaths) else { return }
        state.properties.isHidden = true
        guard let handler = Self.nonFiniteHandler.withLock({ $0 }) else { return }
        var keyPaths: [String] = []
        func collect(_ a: CAAnimation) {
            if let p = a as? CAPropertyAnimation, let k = p.keyPath, !keyPaths.contains(k) { keyPaths.append(k) }
            (a as? CAAnimationGroup)?.animations?.forEach(collect)
        }
        animationList.forEach { collect($0.animation) }
        for k in keyPaths where timeIsNotFinite || AnimatableKeyPath.named(k).map({ !$0.read(state).isFinite }) ?? false {
            handler(NonFiniteAnimationValue(layer: self, keyPath: k, time: t))
        }
    }
}

extension AnimatedLayerState {
    /// Whether every number the compositor and the typed layers draw with is finite; a shape's
    /// path only when `checkingPaths`. (`inout`, so that the state is read where it is: as a
    /// method's `self` it was copied first, a third of the check's time.)
    static func isFinite(_ state: inout AnimatedLayerState, checkingPaths: Bool) -> Bool {
        guard state.properties.hasFiniteValues else { return false }
        switch state.kind {
        case .layer, .transformLayer, .scroll, .tiled: return true
        case let .replicator(r): return r.isFiniteValue
        case let .shape(s):
            return s.lineWidth.isFinite && s.miterLimit.isFinite && s.lineDashPhase.isFinite && s.strokeStart.isFinite
                && s.strokeEnd.isFinite && (!checkingPaths || s.path.isFiniteValue)
        case let .gradient(g): return g.startPoint.isFiniteValue && g.endPoint.isFiniteValue && g.locations.isFiniteValue
        case let .text(t): return t.fontSize.isFinite
        case let .emitter(e): return e.hasFiniteValues
        }
    }
}
