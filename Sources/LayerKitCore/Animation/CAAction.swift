import Foundation

/// Something a layer does when an event happens, usually a property change:
/// Core Animation's `CAAction`. The layer finds it with `action(forKey:)`.
public protocol CAAction {
    /// Performs the action for `event` (the property's key) on `anObject` (the layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` is the "no action" answer: returned by a delegate's `action(for:forKey:)` or put
/// in `actions`, it stops the search and nothing runs, as in Core Animation.
extension NSNull: CAAction {
    /// Does nothing.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension CAAnimation: CAAction {
    /// Adds the animation to the layer `anObject` under `event`, so it replaces any animation
    /// of that key, as Core Animation's animations do when run as actions.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// The outcome of the action search: an action, an explicit "none" (`NSNull`), or nothing
/// found, when Core Animation falls back to the implicit animation.
enum ActionSearchResult {
    case action(CAAction)
    case stop
    case notFound
}

extension CALayer {
    /// Apple's search: the delegate's `action(for:forKey:)`, then `actions`, then
    /// `defaultAction(forKey:)` (LayerKit has no `style` dictionary, so that step is absent).
    /// The first non-nil answer ends it; `NSNull` ends it with no action.
    func searchAction(forKey event: String) -> ActionSearchResult {
        for answer in [delegate?.action(for: self, forKey: event), actions?[event]] {
            if let answer { return answer is NSNull ? .stop : .action(answer) }
        }
        if let answer = type(of: self).defaultAction(forKey: event) { return answer is NSNull ? .stop : .action(answer) }
        return .notFound
    }

    /// The property setters' hook: `store` changes the property named `key` and returns
    /// whether its value changed. When implicit animations can run (the layer has been
    /// committed and the transaction does not disable actions: Apple's rule for a standalone
    /// layer, whether or not any display link exists), the change runs
    /// the layer's action for `key`, or, when the search finds none, the implicit animation:
    /// a `CABasicAnimation` from the value on screen (the presentation value at the
    /// transaction's time) to the new model value, with the transaction's duration and timing
    /// function (`.default` when it has none). Otherwise it only stores: a setter costs three
    /// flag checks more than before. A change marks the layer for display when
    /// `needsDisplay(forKey:)` is true for `key`.
    func changeAnimatable(_ key: String, _ store: () -> Bool) {
        guard hasBeenCommitted, !TransactionStack.shared.actionsDisabled,
              let entry = AnimatableKeyPath.named(key) else {
            if store() { markNeedsDisplay(forChangeOf: key) }
            return
        }
        // A transition run here, after the store, still starts from the layer as last drawn
        // (see `CATransition`).
        let found = searchAction(forKey: key)
        var implicit: CABasicAnimation?
        if case .notFound = found {
            let now = AnimationClock.shared.now
            let onScreen = entry.read(presentationState(atLocalTime: localTime(fromMedia: now)))
            let anim = CABasicAnimation(keyPath: key)
            anim.fromValue = entry.kind.object(onScreen)
            anim.duration = CATransaction.animationDuration()
            anim.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
            implicit = anim
        }
        guard store() else { return }
        markNeedsDisplay(forChangeOf: key)
        switch found {
        case .action(let action): action.run(forKey: key, object: self, arguments: nil)
        case .stop: break
        case .notFound: implicit?.run(forKey: key, object: self, arguments: nil)
        }
    }
}

extension CALayer {
    /// Property `key` changed: marks the layer for display when the class's
    /// `needsDisplay(forKey:)` asks for it, as Core Animation does for every key.
    func markNeedsDisplay(forChangeOf key: String) {
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    }
}

/// Stores `value` in `storage` when it differs; returns whether it did.
func assignIfChanged<T: Equatable>(_ storage: inout T, _ value: T) -> Bool {
    guard storage != value else { return false }
    storage = value
    return true
}

extension AnimatedValueKind {
    /// `value` typed as Core Animation types an animation's values of this kind (the inverse of
    /// `convert`).
    func object(_ value: AnimatedValue) -> Any {
        switch value {
        case let .transform(m): return m
        case let .bool(b): return b
        case let .path(p): return p as Any
        case let .image(i): return i as Any
        case let .string(x): return x as Any
        case .number, .vector:
            let x = value.components ?? []
            switch self {
            case .number: return CGFloat(x[0])
            case .point: return CGPoint(x: x[0], y: x[1])
            case .size: return CGSize(width: x[0], height: x[1])
            case .rect: return CGRect(x: x[0], y: x[1], width: x[2], height: x[3])
            case .color: return CGColor.color(value) ?? .clear
            case .colors: return stride(from: 0, to: x.count - 3, by: 4).map { CGColor.color(.vector(Array(x[$0..<$0 + 4]))) ?? .clear }
            case .numbers: return x.map { CGFloat($0) }
            case .transform, .bool, .path, .image, .string: return x
            }
        }
    }
}
