import Foundation

extension CALayer {
    /// The sublayers, back to front before zPosition sorting; `nil` when there are none, as in
    /// Core Animation. Setting replaces them all (refused entries are skipped and reported).
    public var sublayers: [CALayer]? {
        get { sublayerListStorage.isEmpty ? nil : sublayerListStorage }
        set {
            for l in sublayerListStorage { l.superlayer = nil }
            sublayerListStorage = []
            markNeedsLayoutImplicitly()
            for l in newValue ?? [] { addSublayer(l) }
        }
    }

    /// A layer whose alpha masks this layer's rendering, positioned in this layer's bounds space.
    /// A layer that already has a superlayer is refused (reported to `layerTreeErrorHandler`).
    public var mask: CALayer? {
        get { maskStorage }
        set {
            if let m = newValue, m !== maskStorage {
                if m.superlayer != nil {
                    layerTreeErrorHandler(.maskHasSuperlayer(m.debugName))
                    return
                }
                if wouldCycle(adopting: m) {
                    layerTreeErrorHandler(.cycle(layer: m.debugName, into: debugName))
                    return
                }
            }
            if let old = maskStorage {
                old.superlayer = nil
                old.isMask = false
            }
            maskStorage = newValue
            if let m = newValue {
                m.superlayer = self
                m.isMask = true
            }
        }
    }

    /// The layer's name, or a description of its type when it has none, for messages.
    public var debugName: String { name.map { "layer '\($0)'" } ?? "unnamed \(type(of: self))" }

    /// Whether `ancestor` is this layer or one of its superlayers (masks included).
    public func isDescendant(of ancestor: CALayer) -> Bool {
        var l: CALayer? = self
        while let c = l {
            if c === ancestor { return true }
            l = c.superlayer
        }
        return false
    }

    /// Whether making `layer` a sublayer or the mask of this one would close a cycle: it is this
    /// layer or above it. Only a layer with sublayers or a mask can be above another, so a leaf
    /// (what trees are mostly built from) is answered without the walk up, which made building
    /// a chain n levels deep from the top O(n²).
    func wouldCycle(adopting layer: CALayer) -> Bool {
        layer === self || ((!layer.sublayerListStorage.isEmpty || layer.maskStorage != nil) && isDescendant(of: layer))
    }

    /// Checks that `layer` may become a sublayer of this one.
    func validateAdoption(of layer: CALayer) throws {
        if wouldCycle(adopting: layer) { throw LayerTreeError.cycle(layer: layer.debugName, into: debugName) }
        if layer.isMask { throw LayerTreeError.sublayerIsMask(layer.debugName) }
    }

    /// Inserts `layer` at `index` (clamped to the valid range), removing it from its old
    /// superlayer first. Refused, with the tree unchanged, when it would create a cycle.
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        do { try validateAdoption(of: layer) } catch let e as LayerTreeError {
            layerTreeErrorHandler(e)
            return
        } catch {}
        layer.removeFromSuperlayer()
        let i = min(Int(index), sublayerListStorage.count)
        sublayerListStorage.insert(layer, at: i)
        layer.superlayer = self
        adoptedLayoutMarks(of: layer)
        markNeedsLayoutImplicitly()
    }

    /// Appends `layer` as the frontmost sublayer (before zPosition sorting).
    public func addSublayer(_ layer: CALayer) {
        // The layer's own mask has this layer as superlayer but is not in the list: only a
        // sublayer moving to the front leaves one place fewer.
        let isSublayer = layer.superlayer === self && !layer.isMask
        insertSublayer(layer, at: UInt32(sublayerListStorage.count - (isSublayer ? 1 : 0)))
    }

    /// Inserts `layer` just below `sibling` (at the end when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        insertSublayer(layer, relativeTo: sibling, offset: 0)
    }

    /// Inserts `layer` just above `sibling` (at the end when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        insertSublayer(layer, relativeTo: sibling, offset: 1)
    }

    private func insertSublayer(_ layer: CALayer, relativeTo sibling: CALayer?, offset: Int) {
        guard let sibling, sibling !== layer, sublayerListStorage.contains(where: { $0 === sibling }) else {
            addSublayer(layer)
            return
        }
        do { try validateAdoption(of: layer) } catch let e as LayerTreeError {
            layerTreeErrorHandler(e)
            return
        } catch {}
        layer.removeFromSuperlayer()
        let i = sublayerListStorage.firstIndex { $0 === sibling }! + offset
        insertSublayer(layer, at: UInt32(i))
    }

    /// Keeps `layoutIfNeeded()` reaching the layers marked for layout in a subtree just adopted.
    private func adoptedLayoutMarks(of layer: CALayer) {
        if layer.layoutPending || layer.layoutPendingBelow { noteLayoutPendingBelow() }
    }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        if isMask {
            parent.mask = nil
        } else {
            parent.sublayerListStorage.removeAll { $0 === self }
            superlayer = nil
            parent.markNeedsLayoutImplicitly()
        }
    }

    /// Puts `newLayer` where `oldLayer` is. Refused when `oldLayer` is not a sublayer or
    /// `newLayer` would create a cycle.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let i = sublayerListStorage.firstIndex(where: { $0 === oldLayer }) else {
            layerTreeErrorHandler(.notASublayer(oldLayer.debugName))
            return
        }
        if oldLayer === newLayer { return }
        do { try validateAdoption(of: newLayer) } catch let e as LayerTreeError {
            layerTreeErrorHandler(e)
            return
        } catch {}
        // Taking newLayer from an earlier place in this list moves oldLayer's place down by one.
        let j = sublayerListStorage[..<i].contains { $0 === newLayer } ? i - 1 : i
        oldLayer.removeFromSuperlayer()
        newLayer.removeFromSuperlayer()
        sublayerListStorage.insert(newLayer, at: j)
        newLayer.superlayer = self
        adoptedLayoutMarks(of: newLayer)
        markNeedsLayoutImplicitly()
    }
}
