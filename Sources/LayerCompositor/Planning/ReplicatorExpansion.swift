// Replicators are drawn by rewriting them before the tree is flattened: copy k of the
// sublayers becomes a transform layer with the replicator's bounds, centred on the bounds'
// centre, whose transform is the instance transform k times over, holding copy k's sublayers
// with their colours multiplied by copy k's modulation colour. The rest of the compositor (3D
// sorting, clipping, passes) then applies to copies as to any sublayers, on every backend,
// with no rule of its own (docs/scene-format.md, "replicatorLayer").
import Foundation
import LayerKitCore

/// Rewrites the replicators of snapshot trees into plain layers and transform layers, keeping
/// what it made for the next frame: a replicator subtree that did not change (the same
/// snapshot object, under the same tint) gives back the very same rewritten subtree, so the
/// compositor's memo reuses its quads, and a tinted image is made once, not once a frame.
final class ReplicatorExpansion {
    /// A straight RGBA colour every colour and pixel of a subtree is multiplied by.
    struct Tint: Hashable {
        var r = 1.0, g = 1.0, b = 1.0, a = 1.0
        var isWhite: Bool { r == 1 && g == 1 && b == 1 && a == 1 }
        static func * (x: Tint, y: Tint) -> Tint { Tint(r: x.r * y.r, g: x.g * y.g, b: x.b * y.b, a: x.a * y.a) }
    }

    private struct Key: Hashable {
        let source: ObjectIdentifier
        let tint: Tint
    }

    /// A rewritten subtree, with its source (kept so that an identifier is not reused while it
    /// is a key), the replicated layers it holds, and whether every copy it asked for is in it.
    private struct Kept {
        let source: LayerSnapshot
        let result: LayerSnapshot
        let cost: Int
        let copies: Int
        let complete: Bool
    }

    private var trees: [Key: Kept] = [:]
    private var images: [Key: (source: CGImage, result: CGImage)] = [:]
    private var previousTrees: [Key: Kept] = [:]
    private var previousImages: [Key: (source: CGImage, result: CGImage)] = [:]
    private var budget = 0
    private var skippedCopies = 0
    /// The copies of replicators' sublayers the last `expand(_:)` drew, nested ones counted
    /// once per copy of each replicator above them: what the demo's HUD shows as `instances`.
    private(set) var copiesMade = 0

    /// An expansion that reuses what `previous` made in the last frame.
    init(previous: ReplicatorExpansion?) {
        previousTrees = previous?.trees ?? [:]
        previousImages = previous?.images ?? [:]
    }

    /// `root` with every replicator rewritten; `root` itself when it has none. At most
    /// `LayerSnapshot.maximumDrawnLayers` replicated layers are made (each copy's layers and its
    /// transform layer counted): the copies past that are left out, so that a huge
    /// `instanceCount` or deep nesting costs bounded time and memory.
    func expand(_ root: LayerSnapshot) -> LayerSnapshot {
        budget = LayerSnapshot.maximumDrawnLayers
        copiesMade = 0
        let result = expand(root, tint: nil)
        previousTrees = [:]
        previousImages = [:]
        return result
    }

    private func expand(_ s: LayerSnapshot, tint: Tint?) -> LayerSnapshot {
        // A hidden layer draws nothing, copies included: the compositor skips it as it is.
        if tint == nil && !s.containsReplicator || s.properties.isHidden { return s }
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { expand(s, tint: tint) } }
        let key = Key(source: ObjectIdentifier(s), tint: tint ?? Tint())
        if let kept = trees[key] ?? previousTrees[key], kept.source === s, kept.complete, kept.cost <= budget {
            budget -= kept.cost
            copiesMade += kept.copies
            trees[key] = kept
            return kept.result
        }
        let before = (budget, skippedCopies, copiesMade)
        let mask = s.mask.map { expand($0, tint: nil) }
        let transition = s.transition.map {
            LayerTransition(before: expand($0.before, tint: tint), type: $0.type, subtype: $0.subtype, progress: $0.progress)
        }
        let result: LayerSnapshot
        if case let .replicator(r) = s.kind {
            result = LayerSnapshot(properties: tinted(s.properties, tint), kind: r.preservesDepth ? .transformLayer : .layer,
                                   sublayers: copies(of: s, r, tint: tint), mask: mask, transition: transition)
        } else {
            result = LayerSnapshot(properties: tinted(s.properties, tint), kind: tinted(s.kind, tint),
                                   sublayers: s.sublayers.map { expand($0, tint: tint) }, mask: mask, transition: transition)
        }
        trees[key] = Kept(source: s, result: result, cost: before.0 - budget, copies: copiesMade - before.2,
                          complete: skippedCopies == before.1)
        return result
    }

    /// The transform layers of a replicator's copies, each holding its copy of the sublayers.
    private func copies(of s: LayerSnapshot, _ r: ReplicatorStyle, tint: Tint?) -> [LayerSnapshot] {
        guard !s.sublayers.isEmpty else { return [] }
        let b = s.properties.bounds
        let perCopy = 1 + s.sublayers.reduce(0) { $0 + $1.layerCount }
        var wrappers: [LayerSnapshot] = []
        var step = CATransform3D.identity
        for k in 0..<r.drawnInstanceCount {
            guard budget >= perCopy else {
                skippedCopies += 1
                break
            }
            budget -= perCopy
            copiesMade += 1
            let m = r.modulation(ofInstance: k)
            let copyTint = Tint(r: m.r, g: m.g, b: m.b, a: m.a) * (tint ?? Tint())
            let sublayers = k == 0 ? s.sublayers : s.instanceSublayers.flatMap { k - 1 < $0.count ? $0[k - 1] : nil } ?? s.sublayers
            var p = LayerProperties()
            p.bounds = b
            p.position = CGPoint(x: b.midX, y: b.midY)
            p.transform = step
            wrappers.append(LayerSnapshot(properties: p, kind: .transformLayer,
                                          sublayers: sublayers.map { expand($0, tint: copyTint.isWhite ? nil : copyTint) }))
            step = step.concatenating(r.instanceTransform)
        }
        return wrappers
    }

    // MARK: Tinting

    private func tinted(_ p: LayerProperties, _ tint: Tint?) -> LayerProperties {
        guard let t = tint else { return p }
        var p = p
        p.backgroundColor = p.backgroundColor.map { tinted($0, t) }
        p.borderColor = p.borderColor.map { tinted($0, t) }
        // The shadow's alpha comes from the layer's drawn alpha, already multiplied by the
        // tint's; a shadow path's does not.
        p.shadowColor = p.shadowColor.map { tinted($0, p.shadowPath == nil ? Tint(r: t.r, g: t.g, b: t.b, a: 1) : t) }
        p.contents = p.contents.map { tinted($0, t) }
        return p
    }

    private func tinted(_ kind: LayerSnapshot.Kind, _ tint: Tint?) -> LayerSnapshot.Kind {
        guard let t = tint else { return kind }
        switch kind {
        case .layer, .transformLayer, .replicator, .scroll: return kind
        case var .tiled(x):
            // Tinted where the tiles are sampled, as the tiles are drawn when composited.
            let m = x.modulation
            x.modulation = PremultipliedColor(r: m.r * Float(t.r * t.a), g: m.g * Float(t.g * t.a), b: m.b * Float(t.b * t.a),
                                              a: m.a * Float(t.a))
            return .tiled(x)
        case var .shape(s):
            s.fillColor = s.fillColor.map { tinted($0, t) }
            s.strokeColor = s.strokeColor.map { tinted($0, t) }
            return .shape(s)
        case var .gradient(g):
            g.colors = g.colors?.map { tinted($0, t) }
            return .gradient(g)
        case var .text(x):
            x.foregroundColor = x.foregroundColor.map { tinted($0, t) }
            return .text(x)
        case var .emitter(e):
            // A particle's pixels are its image's times its colour: tinting the image tints them.
            for i in e.cells.indices { e.cells[i].contents = e.cells[i].contents.map { tinted($0, t) } }
            return .emitter(e)
        }
    }

    private func tinted(_ c: CGColor, _ t: Tint) -> CGColor {
        let x = c.components
        return CGColor(red: x[0] * t.r, green: x[1] * t.g, blue: x[2] * t.b, alpha: x[3] * t.a)
    }

    /// `image` with each premultiplied pixel (R, G, B, A) made (R·r·a, G·g·a, B·b·a, A·a),
    /// rounded to the nearest level.
    private func tinted(_ image: CGImage, _ t: Tint) -> CGImage {
        let key = Key(source: ObjectIdentifier(image), tint: t)
        if let kept = images[key] ?? previousImages[key], kept.source === image {
            images[key] = kept
            return kept.result
        }
        let f = [t.r * t.a, t.g * t.a, t.b * t.a, t.a].map(Float.init)
        var pixels = image.bitmap.pixels
        pixels.withUnsafeMutableBufferPointer { px in
            for i in px.indices { px[i] = UInt8(Float(px[i]) * f[i & 3] + 0.5) }
        }
        // The source names the tint, so that display-list dumps tell the copies apart.
        let tint = [t.r, t.g, t.b, t.a].map { String(format: "%g", $0) }.joined(separator: ", ")
        let result = CGImage(bitmap: Bitmap(width: image.width, height: image.height, pixels: pixels),
                             source: "\(image.source) tinted (\(tint))")
        images[key] = (image, result)
        return result
    }
}
