import LayerCompositor
import LayerKitCore

/// What a frame draws, decided from the display list alone before any GL call: the batches of
/// each quad pass, in order, and after which pass each offscreen target is done with (its last
/// reader, `DisplayList.lastReaders`). Testable without a context (`FramePlanTests`); the
/// renderer executes it.
///
/// A batch is a run of consecutive quads of one pass drawn by one instanced draw: the quads'
/// records are consecutive in the data texture, and the batch's textures (an image, a pass and
/// its mask, one unit each) agree, since a draw binds one texture per unit. A quad that samples
/// nothing (a colour, or a record that draws nothing) joins any batch. The batch's shader
/// variant is the union of its quads' features, so quads batch regardless of what they need.
struct FramePlan: Equatable {
    /// What a batch samples, by identity: different images are different textures, and passes
    /// sampled by one pass are all alive at once, so different passes are different targets.
    struct Sources: Equatable {
        /// The image of image fills (its texture is bound to the image unit).
        var image: ObjectIdentifier?
        /// The pass of pass fills.
        var pass: Int?
        /// The mask pass of pass fills.
        var mask: Int?

        /// What quad `q` samples, should its record draw anything.
        init(of q: DrawQuad) {
            switch q.fill {
            case .image(let f): image = ObjectIdentifier(f.image)
            case .pass(let f): (pass, mask) = (f.pass, f.mask ?? f.crossfade?.pass)
            case .color: break
            }
        }

        init(image: ObjectIdentifier? = nil, pass: Int? = nil, mask: Int? = nil) {
            (self.image, self.pass, self.mask) = (image, pass, mask)
        }

        /// Whether `other`'s needs can share a draw with these: no unit needs two textures.
        func agree(with other: Sources) -> Bool {
            (image == nil || other.image == nil || image == other.image)
                && (pass == nil || other.pass == nil || pass == other.pass)
                && (mask == nil || other.mask == nil || mask == other.mask)
        }

        /// These with `other`'s needs added.
        func merging(_ other: Sources) -> Sources {
            Sources(image: image ?? other.image, pass: pass ?? other.pass, mask: mask ?? other.mask)
        }
    }

    /// A replicated run drawn from its first copy's records (`CopyRun`, `FrameData.appendCopies`).
    struct Copies: Equatable {
        /// Records (quads) per copy.
        var quadsPerCopy: Int
        /// How many copies.
        var count: Int
        /// The texel of copy 0's copy record.
        var firstCopy: Int
    }

    /// One instanced draw.
    struct Batch: Equatable {
        /// The record index of its first quad.
        var first: Int
        /// How many quads (instances).
        var count: Int
        /// The shader features it needs: the union of its quads'.
        var features: ShaderFeatures
        /// What it samples.
        var sources: Sources
        /// For a replicated run, its copies: the batch draws records `first ..< first +
        /// quadsPerCopy` once per copy (`count` is both), and nothing else.
        var copies: Copies? = nil
        /// Quads before the batch's first that have no record (copies of runs drawn from their
        /// first copy's): its first quad is quad `first + skipped` of the list, counted across
        /// passes, and its quads run on from there (`count` of them).
        var skipped = 0
    }

    /// The batches of each pass, by pass index (none for blur and downsample passes).
    let batches: [[Batch]]
    /// By pass index, the offscreen passes whose targets go back to the pool once that pass has
    /// drawn: each after its last reader (a pass nothing reads, after itself); never the canvas.
    let freedAfter: [[Int]]

    /// The plan of `list`, whose quad records (numbered across passes in order, as
    /// `FrameData` writes them) need `features` (`nil`: the record draws nothing), and whose
    /// replicated runs drawn as such start at the records `runs` names.
    init(_ list: DisplayList, features: [ShaderFeatures?], runs: [Int: Copies] = [:]) {
        var g = 0, skipped = 0
        batches = list.passes.map { pass in
            let quads = pass.quads
            let batches = FramePlan.batches(quads, first: g, features: features, runs: runs, skipped: skipped)
            let records = quads.count - batches.reduce(0) { $0 + ($1.copies.map { $0.quadsPerCopy * ($0.count - 1) } ?? 0) }
            (g, skipped) = (g + records, skipped + quads.count - records)
            return batches
        }
        var freed = [[Int]](repeating: [], count: list.passes.count)
        for (i, reader) in list.lastReaders.enumerated() where i != list.passes.count - 1 {
            freed[reader ?? i].append(i)
        }
        freedAfter = freed
    }

    /// The batches of one pass's quads, whose records start at `first`, after `skipped` quads
    /// without a record (see `Batch.skipped`).
    static func batches(_ quads: [DrawQuad], first: Int, features: [ShaderFeatures?], runs: [Int: Copies] = [:],
                        skipped: Int = 0) -> [Batch] {
        var out: [Batch] = []
        var k = 0, g = first, skipped = skipped
        // Through a buffer pointer, which hands a quad to `Sources(of:)` in place: the array's
        // subscript copied each (retaining its clips, fill and label) in a frame that plans
        // 10,000 moving quads again.
        quads.withUnsafeBufferPointer { quads in
        while k < quads.count {
            defer { (k, g) = (k + 1, g + 1) }
            // A run is a draw of its own: its instances are copies, not consecutive records.
            if let run = runs[g] {
                var batch = Batch(first: g, count: run.quadsPerCopy * run.count, features: [], sources: Sources(), copies: run,
                                  skipped: skipped)
                for j in 0..<run.quadsPerCopy {
                    batch.features.formUnion(features[g + j] ?? [])
                    if features[g + j] != nil { batch.sources = batch.sources.merging(Sources(of: quads[k + j])) }
                }
                out.append(batch)
                k += batch.count - 1
                g += run.quadsPerCopy - 1
                skipped += batch.count - run.quadsPerCopy
                continue
            }
            let needs = features[g] == nil ? Sources() : Sources(of: quads[k])
            if var last = out.last, last.copies == nil, last.sources.agree(with: needs) {
                last.count += 1
                last.features.formUnion(features[g] ?? [])
                last.sources = last.sources.merging(needs)
                out[out.count - 1] = last
            } else {
                out.append(Batch(first: g, count: 1, features: features[g] ?? [], sources: needs, skipped: skipped))
            }
        }
        }
        // A ring costs every instance of its draw ten vertices instead of four, and a quad
        // without a hole two triangles of no area: a draw leaves holes out only where at least
        // one of its quads in `instancesPerHole` has one; otherwise it draws every quad whole.
        for i in out.indices where out[i].features.contains(.hole) {
            let b = out[i]
            let holes = (b.first..<(b.first + b.count)).filter { features[$0]?.contains(.hole) ?? false }.count
            if holes * instancesPerHole < b.count { out[i].features.remove(.hole) }
        }
        return out
    }

    /// Instances a draw may have for each quad whose hole it leaves out (see `batches`): with
    /// every hole left out, cube-grid-166 (a hole of about 30 pixels in every other quad) took
    /// 15 % more instructions a frame, 80 x 64 cards (a hole each) 32 % fewer (BENCHMARKS.md).
    static let instancesPerHole = 4

    /// For each damage rectangle, the parts of `batches` whose quads reach it (`reach`, by
    /// quad index: `Damage.reach`), each with its batch's features and sources, so that
    /// every quad is drawn by the program that draws it in the full pass: the redraw of each
    /// rectangle alone, found in one pass over the quads.
    static func batches(_ batches: [Batch], reaching rects: Int, reach: [UInt16]) -> [[Batch]] {
        var out = [[Batch]](repeating: [], count: rects)
        for b in batches {
            // A run is drawn whole for each rectangle one of its quads reaches.
            if b.copies != nil {
                let quads = (b.first + b.skipped)..<(b.first + b.skipped + b.count)
                var m = reach[quads].reduce(0, |)
                while m != 0 {
                    out[m.trailingZeroBitCount].append(b)
                    m &= m - 1
                }
                continue
            }
            for g in b.first..<(b.first + b.count) {
                var m = reach[g + b.skipped]
                while m != 0 {
                    let i = m.trailingZeroBitCount
                    m &= m - 1
                    // A run extends within its batch only: the next batch needs another draw.
                    if let last = out[i].last, last.first >= b.first, last.first + last.count == g {
                        out[i][out[i].count - 1].count += 1
                    } else {
                        out[i].append(Batch(first: g, count: 1, features: b.features, sources: b.sources, skipped: b.skipped))
                    }
                }
            }
        }
        return out
    }
}
