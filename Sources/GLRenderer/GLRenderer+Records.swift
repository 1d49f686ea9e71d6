// Step 2 of a frame (see GLRenderer.swift): the quad records in the data texture, reused as they
// are, patched where some quads changed, or built and uploaded; and the images a list draws.

import CGL
import LayerCompositor
import LayerKitCore

extension GLRenderer {
    /// The last frame's records: what they were built from, the texels uploaded, and where each
    /// pass's quads start.
    struct Records {
        var list: DisplayList
        var canvas: (Int, Int)
        var scales: [ObjectIdentifier: [Double]]
        var data: FrameData
        var features: [ShaderFeatures?]
        var firstQuad: [Int]
        var weightStart: [Int]
        /// The replicated runs drawn from their first copy's records, by first record.
        var runs: [Int: FramePlan.Copies]
        /// Records written when they were built: a run's first copy's, not every copy's.
        var written: Int
        /// The plan of `list`, kept while no quad's features or textures change.
        var plan: FramePlan
        /// The images `list` draws (`imageUses`).
        var images: [ObjectIdentifier: ImageUse] = [:]
    }

    /// An image a list draws: by how many quads, and by how many of them minified trilinearly
    /// (so that its texture needs the mip chain).
    struct ImageUse {
        let image: CGImage
        var quads = 0
        var trilinear = 0
    }

    /// The images `list` draws. Counted again from the last frame's records' where the list's
    /// lineage names the quads that changed since (`DisplayList.canvasChanges`), so that a
    /// frame where 10 of 10,000 quads changed looks at 10; from every quad otherwise, and
    /// where most changed (counting them costs less than comparing them).
    func imageUses(_ list: DisplayList) -> [ObjectIdentifier: ImageUse] {
        var uses: [ObjectIdentifier: ImageUse] = [:]
        func count(_ q: DrawQuad, _ n: Int) {
            guard case .image(let f) = q.fill else { return }
            let key = ObjectIdentifier(f.image)
            var u = uses[key] ?? ImageUse(image: f.image)
            u.quads += n
            if f.minification == .trilinear { u.trilinear += n }
            uses[key] = u.quads > 0 ? u : nil
        }
        if let r = records, let ranges = list.canvasChanges(since: r.list), ranges.reduce(0, { $0 + $1.count }) * 2 <= list.quadCount {
            uses = r.images
            let (a, b) = (r.list.canvas.quads, list.canvas.quads)
            for k in ranges.joined() where a[k] != b[k] {
                count(a[k], -1)
                count(b[k], 1)
            }
        } else {
            for pass in list.passes {
                for q in pass.quads { count(q, 1) }
            }
        }
        return uses
    }
    /// Builds every quad's record (and clip records and blur weights) and uploads them.
    func buildRecords(_ list: DisplayList, canvas: (width: Int, height: Int), entries: [ObjectIdentifier: TextureCache.Entry],
                              scales: [ObjectIdentifier: [Double]]) throws -> Records {
        let built = GLRenderer.frameData(list, canvas: canvas, es: isES) { entries[ObjectIdentifier($0)]?.scale ?? (1, 1) }
        try uploadData(built.data)
        return Records(list: list, canvas: (canvas.width, canvas.height), scales: scales, data: built.data,
                       features: built.features, firstQuad: built.firstQuad, weightStart: built.weightStart, runs: built.runs, written: built.written,
                       plan: FramePlan(list, features: built.features, runs: built.runs))
    }

    /// Rewrites, in the last frame's records, only the quads that changed, and uploads only the
    /// rows holding them: a scene where one layer of 10,000 moves writes one record. Only the
    /// canvas quads the list's lineage names are compared (`DisplayList.canvasChanges`), and
    /// the frame plan is kept unless a changed quad's features or textures differ, so such a
    /// frame does work for its changed quads alone. Returns how many were written and how many
    /// compared, or nil when
    /// the frame is not the last one with some quads changed (another canvas, texture scales
    /// or pass structure, half the quads or more changed, or a changed quad whose clips do not
    /// fit in its record and so need room in the clip area).
    func patchRecords(_ list: DisplayList, canvas: (width: Int, height: Int), entries: [ObjectIdentifier: TextureCache.Entry],
                              scales: [ObjectIdentifier: [Double]]) throws -> (written: Int, compared: Int)? {
        // A replicated run's records are its first copy's: a changed quad in one is built again.
        guard var r = records, r.canvas == canvas, r.scales == scales, r.list.passes.count == list.passes.count, r.runs.isEmpty else { return nil }
        let canvasIndex = list.passes.count - 1
        let candidates = list.canvasChanges(since: r.list)
        var changed: [(record: Int, pass: Int, quad: Int, width: Int, height: Int)] = []
        var compared = 0
        // Past half the quads, writing them in place saves nothing over a build: stop comparing.
        let most = list.quadCount / 2
        for (old, new) in zip(r.list.passes, list.passes) {
            guard old.width == new.width, old.height == new.height else { return nil }
            switch (old.content, new.content) {
            case let (.quads(a), .quads(b)) where a.count == b.count:
                let (w, h) = new.index == canvasIndex ? canvas : (new.width, new.height)
                let indices = new.index == canvasIndex ? candidates ?? [a.indices] : [a.indices]
                compared += indices.reduce(0) { $0 + $1.count }
                for k in indices.joined() where a[k] != b[k] {
                    let g = r.firstQuad[new.index] + k
                    guard r.features[g].map({ !$0.contains(.clips) }) ?? true, r.data.fitsInRecord(b[k]), changed.count < most,
                          b[k].copyRun == nil else { return nil }
                    // By index: a frame that moves most quads gives up here after half of them,
                    // and copying each pair of quads out cost more than comparing them.
                    changed.append((g, new.index, k, w, h))
                }
            case (.blur, .blur) where old.content == new.content, (.downsample, .downsample) where old.content == new.content:
                break
            default:
                return nil
            }
        }
        records = nil  // so that `r` holds the only reference to the texels, which change in place
        // The data texture's rows holding changed records, in runs: 10 records spread over
        // 10,000 upload a few rows each, not every row between the first and the last.
        var rows: [Range<Int>] = []
        var replan = false
        for (g, p, k, w, h) in changed {
            let (old, q) = (r.list.passes[p].quads[k], list.passes[p].quads[k])
            var scale = (1.0, 1.0)
            if case .image(let f) = q.fill, let e = entries[ObjectIdentifier(f.image)] { scale = e.scale }
            r.data.clearQuad(g)
            let features = r.data.writeQuad(g, q, width: w, height: h, imageScale: scale)
            // A pass fill also decides when targets are freed (`lastReaders`): planned again.
            let (was, now) = (FramePlan.Sources(of: old), FramePlan.Sources(of: q))
            replan = replan || features != r.features[g] || was != now || was.pass != nil || now.pass != nil
            r.features[g] = features
            let first = g * FrameData.quadStride / FrameData.width
            let end = ((g + 1) * FrameData.quadStride + FrameData.width - 1) / FrameData.width
            if let last = rows.last, last.upperBound >= first {
                rows[rows.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                rows.append(first..<end)
            }
        }
        for run in rows { try uploadData(r.data, rows: run) }
        // The plan is a function of the records' features, the quads' textures and the passes
        // sampled, which are as they were unless a changed quad's features or textures moved.
        if replan { r.plan = FramePlan(list, features: r.features, runs: r.runs) }
        r.list = list
        records = r
        return (changed.count, compared)
    }

    /// The CPU side of turning a display list into GL work: every quad's record (in doubles,
    /// rebased, rounded to float), the shader features that decide its batch's program, and
    /// where each pass's records and blur weights start. `imageScale` gives uploaded texels per
    /// image pixel (below 1 only for images downscaled to the texture size limit).
    ///
    /// A replicated run (`CopyRun`) whose first copy samples at most one image is written as
    /// its first copy's records and one copy record per copy (`runs`, by first record): the
    /// other copies have no record, and one instanced draw makes them all. Records are then
    /// fewer than quads, numbered in quad order; `firstQuad` is each pass's first record and
    /// `written` counts them.
    static func frameData(_ list: DisplayList, canvas: (width: Int, height: Int), es: Bool, imageScale: (CGImage) -> (Double, Double))
        -> (data: FrameData, features: [ShaderFeatures?], firstQuad: [Int], weightStart: [Int], runs: [Int: FramePlan.Copies], written: Int) {
        let canvasIndex = list.passes.count - 1
        // The runs drawn as such, by pass and quad index, and the records there will be.
        var drawn = [[Int: CopyRun]](repeating: [:], count: list.passes.count)
        var recordCount = 0
        for pass in list.passes {
            let quads = pass.quads
            var k = 0
            while k < quads.count {
                guard let run = drawnRun(quads, at: k) else {
                    (recordCount, k) = (recordCount + 1, k + 1)
                    continue
                }
                drawn[pass.index][k] = run
                (recordCount, k) = (recordCount + run.quadsPerCopy, k + run.quadCount)
            }
        }
        var data = FrameData(quadCount: recordCount, recordHalfPlanes: es ? 4 : FrameData.maxRecordHalfPlanes)
        var features = [ShaderFeatures?](repeating: nil, count: recordCount)
        var firstQuad = [Int](repeating: 0, count: list.passes.count)
        var weightStart = [Int](repeating: 0, count: list.passes.count)
        var runs: [Int: FramePlan.Copies] = [:]
        var g = 0
        for pass in list.passes {
            firstQuad[pass.index] = g
            let isCanvas = pass.index == canvasIndex
            let (w, h) = isCanvas ? (canvas.width, canvas.height) : (pass.width, pass.height)
            switch pass.content {
            case .quads(let quads):
                func write(_ q: DrawQuad, _ g: Int, copies: [DrawQuad] = []) {
                    var scale = (1.0, 1.0)
                    if case .image(let f) = q.fill { scale = imageScale(f.image) }
                    features[g] = data.writeQuad(g, q, width: w, height: h, imageScale: scale, copies: copies)
                }
                var k = 0
                while k < quads.count {
                    guard let run = drawn[pass.index][k] else {
                        write(quads[k], g)
                        (g, k) = (g + 1, k + 1)
                        continue
                    }
                    let n = run.quadsPerCopy
                    for j in 0..<n { write(quads[k + j], g + j, copies: (1..<run.copies.count).map { quads[k + $0 * n + j] }) }
                    runs[g] = FramePlan.Copies(quadsPerCopy: n, count: run.copies.count, firstCopy: data.appendCopies(run))
                    (g, k) = (g + n, k + run.quadCount)
                }
            case .blur(_, _, let weights):
                weightStart[pass.index] = data.appendWeights(weights)
            case .downsample:
                break
            }
        }
        return (data, features, firstQuad, weightStart, runs, recordCount)
    }

    /// The run starting at `quads[k]` when GL draws it from its first copy's records: when one
    /// draw can (the first copy samples at most one image).
    private static func drawnRun(_ quads: [DrawQuad], at k: Int) -> CopyRun? {
        guard let run = quads[k].copyRun, k + run.quadCount <= quads.count else { return nil }
        var sources = FramePlan.Sources()
        for q in quads[k..<(k + run.quadsPerCopy)] {
            let needs = FramePlan.Sources(of: q)
            guard needs.pass == nil, sources.agree(with: needs) else { return nil }
            sources = sources.merging(needs)
        }
        return run
    }

    /// Builds the records a frame of `list` uploads, as `render` does, without a context, and
    /// returns how many texels they take: for benchmarks of the CPU work of a changed frame.
    public static func recordTexels(for list: DisplayList) -> Int {
        frameData(list, canvas: (list.width, list.height), es: false) { _ in (1, 1) }.data.texelCount
    }

    /// Uploads the frame's records into the data texture, growing it when needed; with
    /// `rows`, only those rows (the texture already holds the rest).
    private func uploadData(_ data: FrameData, rows only: Range<Int>? = nil) throws {
        if let only {
            state.bindForEditing(dataTexture, unit: Unit.data)
            replaceRows(only, of: data)
            try state.check("upload changed quad records (rows \(only.lowerBound)..<\(only.upperBound) of the data texture)")
            return
        }
        let rows = data.rows
        guard rows <= maxTextureSize else { throw GLRendererError.tooManyQuads(texels: data.texelCount, limit: maxTextureSize * FrameData.width) }
        state.bindForEditing(dataTexture, unit: Unit.data)
        if rows > dataRows {
            var newRows = 1
            while newRows < rows { newRows *= 2 }
            newRows = min(newRows, maxTextureSize)
            state.defineTexels(level: 0, format: GL_RGBA32F, width: FrameData.width, height: newRows, nil)
            dataRows = newRows
        }
        replaceRows(0..<rows, of: data)
        try state.check("upload quad records (\(rows) rows of the data texture)")
    }

    /// Uploads `rows` of the data texture (bound for editing) from `data`: the whole rows
    /// straight from its floats, and only the last row, which the data may fill in part, padded
    /// from a copy (a copy of all the records was megabytes a frame at 10^4 quads).
    private func replaceRows(_ rows: Range<Int>, of data: FrameData) {
        let rowFloats = FrameData.width * 4
        let whole = min(rows.upperBound, data.floats.count / rowFloats)
        if whole > rows.lowerBound {
            data.floats.withUnsafeBytes {
                state.replaceFloatRows(rows.lowerBound, whole - rows.lowerBound, width: FrameData.width,
                                       $0.baseAddress! + rows.lowerBound * rowFloats * MemoryLayout<Float>.stride)
            }
        }
        let first = max(whole, rows.lowerBound)
        guard first < rows.upperBound else { return }
        var padded = [Float](repeating: 0, count: (rows.upperBound - first) * rowFloats)
        let rest = data.floats[min(first * rowFloats, data.floats.count)...]
        padded.replaceSubrange(0..<rest.count, with: rest)
        padded.withUnsafeBytes { state.replaceFloatRows(first, rows.upperBound - first, width: FrameData.width, $0.baseAddress) }
    }
}
