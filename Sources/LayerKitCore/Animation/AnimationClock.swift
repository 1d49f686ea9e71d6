import Foundation
import Synchronization

/// The frame-by-frame bookkeeping of animations added with `add(_:forKey:)`: at each frame it
/// commits the implicit transaction, tells delegates that animations started and stopped,
/// removes finished animations (`isRemovedOnCompletion`) and runs completion blocks whose
/// animations have all ended.
///
/// Work follows change: it visits only the layers that have such animations still running
/// (held weakly, so a dropped layer is not kept alive), and a frame where none runs costs a
/// check of an empty list. One clock serves the process, for the reason `CATransaction` gives.
package final class AnimationClock {
    /// How many display links run (neither paused nor invalidated): while one does, the
    /// transaction's time is the latest frame's (see `now`).
    var runningLinks = 0

    /// The media time of the latest frame (see `now`).
    private var frameTime: CFTimeInterval?

    /// The layers with tracked animations not yet stopped, in the order they got their first.
    private(set) var layers: [WeakLayer] = []
    /// The list's length at which freed layers are dropped even without a frame.
    private var compactionLength = 64

    /// Callbacks waiting for the next frame or `flush()`: removals' `animationDidStop` and
    /// completion groups that have ended.
    private var removals: [CAAnimation] = []
    private var endedGroups: [CompletionGroup] = []

    /// How many evaluations there have been (a layer's animated state computed for a snapshot,
    /// or an animation checked for its start and end at a frame), for tests of "work follows
    /// change". Atomic, because separate trees may be snapshotted on separate threads.
    package let evaluations = Atomic<Int>(0)

    /// The transaction's time: the latest frame's media time while a display link runs (so that
    /// changes between frames begin where the screen is), otherwise `CACurrentMediaTime()`.
    package var now: CFTimeInterval { runningLinks > 0 ? frameTime ?? CACurrentMediaTime() : CACurrentMediaTime() }

    /// Starts tracking `animation`, just added to `layer`.
    func track(_ animation: CAAnimation, on layer: CALayer) {
        animation.isTracked = true
        guard !layer.isOnAnimationClock else { return }
        layer.isOnAnimationClock = true
        layers.append(WeakLayer(layer: layer))
        if layers.count >= compactionLength {
            layers.removeAll { $0.layer == nil }
            compactionLength = max(64, 2 * layers.count)
        }
    }

    /// `animation` was removed from its layer before it ended (`finished` false).
    func removed(_ animation: CAAnimation) {
        guard animation.isTracked, !animation.hasStopped else { return }
        animation.hasStopped = true
        removals.append(animation)
        animation.endGroups()
    }

    /// A completion group has ended: its block runs at the next delivery.
    func schedule(_ group: CompletionGroup) { endedGroups.append(group) }

    /// The frame at media time `t`: commits the implicit transaction, then tells delegates of
    /// starts and stops, removes finished animations and runs ended completion blocks, all
    /// before the frame is sampled (so a delegate's model change shows in this frame).
    ///
    /// A frame is advanced once: called again at the time of the frame just committed (a
    /// display link's frame, then the frame loop its callback drives), it commits what changed
    /// meanwhile and delivers removals, and leaves the running animations to the next frame.
    package func frame(at t: CFTimeInterval) {
        if t == frameTime {
            TransactionStack.shared.flush()
            deliver()
            return
        }
        frameTime = t
        TransactionStack.shared.flush()
        var events: [() -> Void] = removals.map { a in { a.delegate?.animationDidStop(a, finished: false) } }
        removals = []
        var kept: [WeakLayer] = []
        for entry in layers {
            guard let layer = entry.layer else { continue }
            if advance(layer, to: t, events: &events) { kept.append(entry) } else { layer.isOnAnimationClock = false }
        }
        layers = kept
        run(events)
        // A delegate's changes opened a transaction: it belongs to this frame.
        TransactionStack.shared.flush()
    }

    /// Delivers what removals and commits left waiting, without advancing time (`flush()`).
    func deliver() {
        let events: [() -> Void] = removals.map { a in { a.delegate?.animationDidStop(a, finished: false) } }
        removals = []
        run(events)
    }

    private func run(_ events: [() -> Void]) {
        for event in events { event() }
        while !endedGroups.isEmpty {
            let groups = endedGroups
            endedGroups = []
            for g in groups {
                g.block?()
                g.block = nil
            }
        }
    }

    /// Checks `layer`'s tracked animations at media time `t`, queueing their callbacks; returns
    /// whether any is still running.
    private func advance(_ layer: CALayer, to t: CFTimeInterval, events: inout [() -> Void]) -> Bool {
        let local = layer.localTime(fromMedia: t)
        var running = false
        var finished: [CAAnimation] = []
        for (_, a) in layer.animationList where a.isTracked && !a.hasStopped {
            evaluations.add(1, ordering: .relaxed)
            let elapsed = (local - a.beginTime) * Double(a.speed)
            if !a.hasStarted, elapsed >= 0 {
                a.hasStarted = true
                events.append { a.delegate?.animationDidStart(a) }
            }
            let active = a.timing.activeDuration
            guard elapsed >= active, active.isFinite else {
                running = true
                continue
            }
            a.hasStopped = true
            if a.isRemovedOnCompletion { finished.append(a) }
            events.append { a.delegate?.animationDidStop(a, finished: true) }
            a.endGroups()
        }
        if !finished.isEmpty { layer.animationList.removeAll { entry in finished.contains { $0 === entry.animation } } }
        return running
    }
}

/// A layer held without keeping it alive.
struct WeakLayer {
    weak var layer: CALayer?
}

extension CAAnimation {
    /// Tells the completion groups this animation belongs to that it has ended.
    func endGroups() {
        let groups = completionGroups
        completionGroups = []
        for g in groups { g.animationEnded() }
    }
}
