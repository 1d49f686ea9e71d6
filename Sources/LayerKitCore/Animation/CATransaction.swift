import Foundation

/// `CATransaction`'s key for the duration of implicit animations (a `CFTimeInterval`).
public let kCATransactionAnimationDuration = "animationDuration"
/// `CATransaction`'s key for whether property changes run their actions (a `Bool`).
public let kCATransactionDisableActions = "disableActions"
/// `CATransaction`'s key for the timing function of the animations added in the transaction
/// (a `CAMediaTimingFunction`).
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// `CATransaction`'s key for the block run once the transaction's animations have ended (a
/// `() -> Void`).
public let kCATransactionCompletionBlock = "completionBlock"

/// Groups layer-tree changes into one update: Core Animation's `CATransaction`.
///
/// An explicit transaction runs from `begin()` to `commit()`; transactions nest, and a value
/// read (`animationDuration()`, `disableActions()`, …) comes from the innermost transaction
/// that set it, else its default. The first change outside an explicit transaction that runs
/// an action or adds an animation opens the *implicit* transaction, which the frame clock
/// (`CADisplayLink`, or `PresentationTreeSource` at each frame) or `flush()` commits.
///
/// A transaction's completion block runs once, after every animation added after the block was
/// set, in that transaction or in transactions nested in it, has ended (its active duration
/// passed at a frame) or has been removed; if none was added it runs at the commit.
///
/// Threads: like the layer model, transactions belong to one thread (the main thread in an
/// app). Core Animation keeps one transaction stack per thread; LayerKit keeps one for the
/// process, because a layer tree is edited on one thread at a time anyway and a property
/// setter must check the transaction cheaply (a thread-local lookup on every change would not
/// be). Do not use `CATransaction` from two threads at once.
open class CATransaction {
    /// Opens an explicit transaction, nested in any open one.
    open class func begin() { TransactionStack.shared.begin(implicit: false) }

    /// Commits the innermost explicit transaction; its completion block is bound to the
    /// animations added in it. Without an open explicit transaction it does nothing.
    open class func commit() { TransactionStack.shared.commitExplicit() }

    /// Commits the implicit transaction now, if one is open and no explicit transaction is.
    open class func flush() {
        TransactionStack.shared.flush()
        AnimationClock.shared.deliver()
    }

    /// The duration of implicit animations, and of animations added with a duration of 0
    /// (0.25 s unless set; a negative, NaN or infinite value set reads as 0.25 s, so that no
    /// animation gets a duration it could not end in).
    open class func animationDuration() -> CFTimeInterval {
        guard let d = value(forKey: kCATransactionAnimationDuration) as? CFTimeInterval, d >= 0, d.isFinite else { return 0.25 }
        return d
    }

    /// Sets the duration of this transaction's animations.
    open class func setAnimationDuration(_ dur: CFTimeInterval) { setValue(dur, forKey: kCATransactionAnimationDuration) }

    /// The timing function given to animations added in this transaction; `nil` (the default)
    /// leaves theirs, and implicit animations then use `.default`.
    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    /// Sets the timing function of this transaction's animations.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether property changes skip their actions, so that nothing animates implicitly
    /// (false unless set).
    open class func disableActions() -> Bool { (value(forKey: kCATransactionDisableActions) as? Bool) ?? false }

    /// Sets whether this transaction's property changes skip their actions.
    open class func setDisableActions(_ flag: Bool) { setValue(flag, forKey: kCATransactionDisableActions) }

    /// The block this transaction runs once its animations have ended.
    open class func completionBlock() -> (() -> Void)? { value(forKey: kCATransactionCompletionBlock) as? () -> Void }

    /// Sets the block run once the animations added from now on in this transaction (and in
    /// transactions nested in it) have ended or been removed. Set it before the changes.
    open class func setCompletionBlock(_ block: (() -> Void)?) { setValue(block, forKey: kCATransactionCompletionBlock) }

    /// The value of `key` in the innermost transaction that set it, else `nil`.
    open class func value(forKey key: String) -> Any? { TransactionStack.shared.value(forKey: key) }

    /// Sets `key` in the innermost transaction (opening the implicit one if none is open).
    open class func setValue(_ anObject: Any?, forKey key: String) { TransactionStack.shared.setValue(anObject, forKey: key) }
}

/// The animations a completion block waits for: the block runs when the transaction that set
/// it has committed and `pending` is back at 0.
final class CompletionGroup {
    var block: (() -> Void)?
    var pending = 0
    var isCommitted = false

    /// One of the group's animations ended or was removed.
    func animationEnded() {
        pending -= 1
        if isCommitted, pending == 0 { AnimationClock.shared.schedule(self) }
    }
}

/// One open transaction: the values set in it and the completion group of its block.
final class TransactionScope {
    let isImplicit: Bool
    var values: [String: Any] = [:]
    var group: CompletionGroup?

    init(isImplicit: Bool) { self.isImplicit = isImplicit }
}

/// The open transactions, outermost first (the implicit one, when open, is always first).
final class TransactionStack {
    private(set) var scopes: [TransactionScope] = []

    /// Whether actions are disabled, kept up to date so that a property setter reads one flag.
    private(set) var actionsDisabled = false

    func begin(implicit: Bool) {
        scopes.append(TransactionScope(isImplicit: implicit))
    }

    /// The innermost scope, opening the implicit transaction when none is open.
    var current: TransactionScope {
        if scopes.isEmpty { begin(implicit: true) }
        return scopes[scopes.count - 1]
    }

    func value(forKey key: String) -> Any? {
        for scope in scopes.reversed() { if let v = scope.values[key] { return v } }
        return nil
    }

    func setValue(_ value: Any?, forKey key: String) {
        let scope = current
        scope.values[key] = value
        if key == kCATransactionCompletionBlock {
            let group = scope.group ?? CompletionGroup()
            group.block = value as? () -> Void
            scope.group = group
        }
        refreshActionsDisabled()
    }

    /// Binds `animation` to the completion groups of every open transaction.
    func animationAdded(_ animation: CAAnimation) {
        for scope in scopes { if let g = scope.group {
            g.pending += 1
            animation.completionGroups.append(g)
        } }
    }

    func commitExplicit() {
        guard let last = scopes.last, !last.isImplicit else { return }
        close(scopes.removeLast())
    }

    /// Commits the implicit transaction when it is the only one open (a frame or `flush()`).
    func flush() {
        guard scopes.count == 1, scopes[0].isImplicit else { return }
        close(scopes.removeLast())
    }

    private func close(_ scope: TransactionScope) {
        refreshActionsDisabled()
        guard let group = scope.group else { return }
        group.isCommitted = true
        if group.pending == 0 { AnimationClock.shared.schedule(group) }
    }

    private func refreshActionsDisabled() {
        actionsDisabled = (value(forKey: kCATransactionDisableActions) as? Bool) ?? false
    }

    /// Whether no transaction is open (a test checks that each one leaves none behind).
    var isEmpty: Bool { scopes.isEmpty }
}
