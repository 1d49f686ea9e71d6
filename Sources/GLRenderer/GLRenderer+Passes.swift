// Steps 1 to 3 of a frame (see GLRenderer.swift): the contents textures, the records brought up
// to date (GLRenderer+Records.swift), then every pass into its target: a quad pass as instanced
// draws of the frame plan's batches, a blur or downsample pass as one full-viewport triangle.

import CGL
import LayerCompositor
import LayerKitCore

extension GLRenderer {
    /// Everything but the read-back: contents, records, passes; of a one-pass list with
    /// `damage`, only the damaged pixels of the canvas.
    func drawPasses(_ list: DisplayList, canvas: (framebuffer: GLuint, texture: GLuint?, width: Int, height: Int),
                            damage: Damage? = nil) throws {
        guard !list.passes.isEmpty else { return }
        var stats = lastFrameStats
        defer { lastFrameStats = stats }
        let canvasIndex = list.passes.count - 1

        // 1. Contents textures, one lookup per image drawn.
        for pass in list.passes where pass.index != canvasIndex { try checkPassSize(pass.width, pass.height, index: pass.index) }
        let images = imageUses(list)
        var entries: [ObjectIdentifier: TextureCache.Entry] = [:]
        for (key, use) in images {
            entries[key] = textures.texture(for: use.image, mipmaps: use.trilinear > 0, frame: frame, state: &state, stats: &stats)
        }
        try state.check("upload contents textures")

        // 2. Records: reused as they are when the frame draws exactly what the last one did
        //    (same passes, canvas size and texture scales), so a static scene neither rebuilds
        //    nor re-uploads them; patched where only some quads changed; built otherwise.
        let scales = entries.mapValues { [$0.scale.0, $0.scale.1] }
        if let r = records, r.canvas == (canvas.width, canvas.height), r.scales == scales,
           list.canvasChanges(since: r.list)?.isEmpty ?? (r.list == list) {
            stats.recordsReused = true
        } else if let (written, compared) = try patchRecords(list, canvas: (canvas.width, canvas.height), entries: entries,
                                                              scales: scales) {
            (stats.recordsWritten, stats.recordsCompared) = (written, compared)
        } else {
            records = try buildRecords(list, canvas: (canvas.width, canvas.height), entries: entries, scales: scales)
            stats.recordsWritten = records!.written
        }
        records!.images = images
        let (plan, weightStart) = (records!.plan, records!.weightStart)

        // 3. Passes. Each target goes back to the pool as soon as its last reader has drawn
        //    (`plan.freedAfter`; GL orders that reader's sampling before a later pass's writes
        //    into it).
        var targets = [PassTarget?](repeating: nil, count: list.passes.count)
        defer { for t in targets.compactMap({ $0 }) { pool.release(t, frame: frame) } }
        state.bindTexture(dataTexture, unit: Unit.data)
        for pass in list.passes {
            let isCanvas = pass.index == canvasIndex
            let fb: GLuint, w: Int, h: Int
            if isCanvas {
                (fb, w, h) = (canvas.framebuffer, canvas.width, canvas.height)
                if let t = canvas.texture { state.unbindEverywhere(t) }
            } else {
                let t = try pool.acquire(width: pass.width, height: pass.height, state: &state)
                targets[pass.index] = t
                state.unbindEverywhere(t.texture)
                (fb, w, h) = (t.framebuffer, pass.width, pass.height)
            }
            state.bindFramebuffer(fb)
            state.setViewport(0, 0, GLsizei(w), GLsizei(h))
            switch pass.content {
            case .quads:
                state.setAdditiveBlending(pass.purpose == .additive)
                let bg = isCanvas ? list.background : .clear
                state.setClearColor((bg.r, bg.g, bg.b, bg.a))
                guard isCanvas, let damage, let bounds = lastCanvas?.bounds else {
                    state.clear()
                    try drawQuads(plan.batches[pass.index], entries: entries, targets: targets, width: w, height: h)
                    break
                }
                let reaching = FramePlan.batches(plan.batches[pass.index], reaching: damage.rects.count, reach: damage.reach(bounds))
                for (r, batches) in zip(damage.rects, reaching) {
                    state.setScissor((Int32(r.x0), Int32(h - r.y1), Int32(r.x1 - r.x0), Int32(r.y1 - r.y0)))
                    state.clear()
                    try drawQuads(batches, entries: entries, targets: targets, width: w, height: h)
                }
                state.setScissor(nil)
            case let .blur(source, horizontal, weights):
                try drawFullscreen(blurProgram, source: source, targets: targets, pass: pass.index) {
                    state.setUniform(blurProgram["u_weightStart"], int: Int32(weightStart[pass.index]))
                    state.setUniform(blurProgram["u_taps"], int: Int32(weights.count - 1))
                    state.setUniform(blurProgram["u_direction"], int2: horizontal ? (1, 0) : (0, 1))
                }
            case let .downsample(source, factor):
                try drawFullscreen(downsampleProgram, source: source, targets: targets, pass: pass.index) {
                    state.setUniform(downsampleProgram["u_factor"], int: Int32(factor))
                    state.setUniform(downsampleProgram["u_height"], int: Int32(h))
                }
            }
            try state.check("pass \(pass.index) (\(pass.purpose.rawValue) \"\(pass.label)\", \(pass.width)x\(pass.height))")
            for j in plan.freedAfter[pass.index] {
                if let t = targets[j] {
                    pool.release(t, frame: frame)
                    targets[j] = nil
                }
            }
        }
    }

    /// A pass that computes every pixel from pass `source` (blur, downsample): one triangle over
    /// the viewport with `program`, unblended, after `setUniforms`.
    private func drawFullscreen(_ program: ShaderProgram, source: Int, targets: [PassTarget?], pass: Int,
                                setUniforms: () -> Void) throws {
        guard let src = targets[source] else { throw GLRendererError.badPassReference(pass: pass, source: source) }
        state.setBlend(false)
        if !isES { state.setClipDistances(false, count: FrameData.maxRecordHalfPlanes) }
        state.useProgram(program.name)
        state.bindVertexArray(vertexArray)
        state.bindTexture(src.texture, unit: Unit.pass)
        setUniforms()
        state.drawTriangles(count: 3)
    }

    /// One quad pass: each of the plan's batches (`FramePlan`) as one instanced draw.
    private func drawQuads(_ batches: [FramePlan.Batch], entries: [ObjectIdentifier: TextureCache.Entry], targets: [PassTarget?],
                           width: Int, height: Int) throws {
        guard !batches.isEmpty else { return }
        state.setBlend(true)
        state.bindVertexArray(vertexArray)
        for batch in batches {
            let program = try quadProgram(drawsFillFloor ? batch.features.fillFloorVariant : batch.features)
            state.useProgram(program.name)
            // Half-plane clips in the vertex stage only where the batch has them (quad.vert.glsl).
            if !isES { state.setClipDistances(batch.features.contains(.halfPlanes), count: FrameData.maxRecordHalfPlanes) }
            state.setUniform(program["u_passSize"], float2: (Float(width), Float(height)))
            state.setUniform(program["u_passHeight"], float: Float(height))
            if let image = batch.sources.image.flatMap({ entries[$0] }) {
                state.bindTexture(image.texture, unit: Unit.image)
                state.setUniform(program["u_imageSize"], float2: (Float(image.width), Float(image.height)))
            }
            if let source = batch.sources.pass.flatMap({ targets[$0] }) {
                state.bindTexture(source.texture, unit: Unit.pass)
                state.setUniform(program["u_sourceSize"], int2: (Int32(source.width), Int32(source.height)))
            }
            if let mask = batch.sources.mask.flatMap({ targets[$0] }) { state.bindTexture(mask.texture, unit: Unit.mask) }
            state.setUniform(program["u_firstQuad"], int: Int32(batch.first))
            state.setUniform(program["u_copies"], int2: batch.copies.map { (Int32($0.quadsPerCopy), Int32($0.firstCopy)) } ?? (0, 0))
            state.drawQuadInstances(batch.count, vertices: batch.features.contains(.hole) ? GLDevice.ringVertices : 4)
        }
    }
}
