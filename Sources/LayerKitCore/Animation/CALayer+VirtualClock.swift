extension CALayer {
    /// Commits the tree on a clock of the caller's: every animation in it (sublayers and masks
    /// included) whose `beginTime` was 0 when added begins at media time `t`, in its layer's
    /// time, as Core Animation begins such animations at the commit of their transaction. A
    /// test's virtual clock starts at 0 this way whatever the wall clock said when the
    /// animations were added (LayerKitTesting's `atTimes:`). Calling it again moves them again.
    package func commitAnimations(atMediaTime t: CFTimeInterval) {
        commitAnimations(parentTime: superlayer?.localTime(fromMedia: t) ?? t)
    }

    private func commitAnimations(parentTime tp: CFTimeInterval) {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { commitAnimations(parentTime: tp) } }
        let local = localTime(fromParent: tp)
        // Setting a begin time outdates the packed plans that hold it (`packedFieldChanged`).
        for (_, animation) in animationList where animation.beginsAtCommit && animation.beginTime != local {
            animation.beginTime = local
        }
        for layer in sublayers ?? [] { layer.commitAnimations(parentTime: local) }
        mask?.commitAnimations(parentTime: local)
    }
}
