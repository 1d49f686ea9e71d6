import Foundation
import LayerCompositor
import LayerKitCore

/// The per-frame data texture: every quad's record, then the clip records, then blur weights,
/// as RGBA32F texels that the shaders read with `texelFetch`. A quad record's fields are
/// `QuadRecordField`s, which the shaders read by name.
///
/// Everything is computed here in doubles and rounded to float only at the end. To keep the
/// shaders' 32-bit arithmetic accurate, every plane map is rebased: pixels are taken relative
/// to a reference pixel near the quad (an integer, so the subtraction in the shader is exact)
/// and local coordinates relative to the local point under that pixel (rounded to integers),
/// which keeps the numbers the shader multiplies small wherever it draws, even for layers whose
/// coordinates are in the billions.
struct FrameData {
    /// Texels per row of the data texture (`DATA_WIDTH` in the shaders' prelude).
    static let width = 1024
    /// Texels per quad record (`QUAD_STRIDE`): room for every `QuadRecordField`.
    static let quadStride = 26
    /// Half-plane clips a record has room for (desktop GL: the vertex shader's eight clip
    /// distances, the least GL 3.3 guarantees). A piece of a split layer rarely needs more, so
    /// draws rarely need the clip loop, which costs a software rasteriser dearly even when it
    /// runs no iteration.
    static let maxRecordHalfPlanes = 8
    /// Half-plane clips this frame's records carry themselves: `maxRecordHalfPlanes` on desktop
    /// GL, 4 on GLSL ES (there they are flat varyings, and ES 3.0 guarantees only 15 varying
    /// vectors); more go to the clip loop.
    let recordHalfPlanes: Int
    /// Texels per clip record (`CLIP_STRIDE` in the shaders' prelude).
    static let clipStride = 4
    /// The data texture's sizes, and the continuous corner's constants (`ContinuousCorner`), as
    /// every shader's prelude defines them.
    /// Texels per copy record of a replicated run (`COPY_STRIDE`; `appendCopies`).
    static let copyStride = 4
    static let glslConstants = "#define DATA_WIDTH \(width)\n#define CLIP_STRIDE \(clipStride)\n#define COPY_STRIDE \(copyStride)\n"
        + "#define CONTINUOUS_EXTENT \(ContinuousCorner.extent)\n#define CONTINUOUS_DIAGONAL_INSET \(ContinuousCorner.diagonalInset)\n"
    /// How far, in pixels, quad geometry reaches beyond the rectangle's projected edges, so that
    /// antialiased fringes (at most half a pixel) and pixel centres on an edge get fragments.
    static let geometryMargin = 1.0
    /// The margin where coverage is 0 or 1 (aliased straight edges, square corners): only pixel
    /// centres inside the rectangle can be covered, so the geometry needs to reach just past it,
    /// by more than the rasteriser's snapping of vertices to its subpixel grid (1/256 pixel in
    /// llvmpipe, coarser nowhere in practice), for the shader to decide edge pixels.
    static let aliasedGeometryMargin = 1.0 / 16
    /// The shortest side, in pixels, of a hole left out of a border's geometry (`hole`). The
    /// ring around a hole costs llvmpipe six more vertices and triangles than the quad, which
    /// a small hole does not save: with every hole left out, cube-grid-166 (holes of about 30
    /// pixels in every other quad) took 15 % more instructions a frame, cards of 48 x 38 pixels
    /// about the same, cards of 80 x 64 32 % fewer, of 128 x 102 55 % fewer (BENCHMARKS.md).
    static let minimumHoleSide = 48.0

    /// The texels, four floats each.
    private(set) var floats: [Float]
    /// Where the clip and weight area begins (texel index); it grows from there.
    private var next: Int

    /// Room for `quadCount` quad records at the start.
    init(quadCount: Int, recordHalfPlanes: Int = FrameData.maxRecordHalfPlanes) {
        self.recordHalfPlanes = min(recordHalfPlanes, FrameData.maxRecordHalfPlanes)
        next = quadCount * FrameData.quadStride
        floats = [Float](repeating: 0, count: next * 4)
    }

    /// The record `writeQuad` fills, kept from quad to quad.
    private var record = QuadRecord()

    /// Texels in use.
    var texelCount: Int { floats.count / 4 }

    /// Rows of the data texture needed.
    var rows: Int { max((texelCount + FrameData.width - 1) / FrameData.width, 1) }

    /// Appends `values` (padded to whole texels) after everything appended so far; returns the
    /// texel index where they start.
    mutating func append(_ values: [Float]) -> Int {
        let start = next
        floats.append(contentsOf: values)
        let pad = (4 - values.count % 4) % 4
        if pad > 0 { floats.append(contentsOf: repeatElement(0, count: pad)) }
        next += (values.count + pad) / 4
        return start
    }

    /// Whether all of a quad's clips ride in its record (half-planes, as many as
    /// `recordHalfPlanes`), so that writing it appends nothing to the clip area.
    func fitsInRecord(_ q: DrawQuad) -> Bool {
        var halfPlanes = 0
        for c in q.clips {
            guard case .halfPlane = c.shape else { return false }
            halfPlanes += 1
        }
        return halfPlanes <= recordHalfPlanes
    }

    /// Zeroes record `index` (an empty record draws nothing), before it is written again.
    mutating func clearQuad(_ index: Int) {
        let base = index * FrameData.quadStride * 4
        for i in base..<(base + FrameData.quadStride * 4) { floats[i] = 0 }
    }

    /// Writes record `index` for quad `q` in a `width` x `height` pass. `imageScale` is how many
    /// uploaded texels there are per image pixel on each axis (below 1 only where an image was
    /// downscaled to fit the texture size limit). Returns the shader features the quad needs,
    /// or nil, writing an empty record that draws nothing, when it lies entirely behind the eye.
    @discardableResult
    ///
    /// `copies` are the quads drawn from this record as copies of it (a replicated run's, this
    /// quad's own copies): its geometry reaches as far as the widest of them needs.
    mutating func writeQuad(_ index: Int, _ q: DrawQuad, width: Int, height: Int,
                            imageScale: (Double, Double), copies: [DrawQuad] = []) -> ShaderFeatures? {
        let r = q.rect.standardized
        let view = Viewport(width: Double(width), height: Double(height))

        // Reference pixel: the centre of the visible part's bounding box, in the pass.
        func project(_ x: CGFloat, _ y: CGFloat) -> SIMD4<Double> {
            let p = q.transform.apply(x: x, y: y, z: 0)
            return SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w))
        }
        let corners = [project(r.minX, r.minY), project(r.maxX, r.minY), project(r.maxX, r.maxY), project(r.minX, r.maxY)]
        guard let box = FrameData.visibleBox(corners) else { return nil }
        var features: ShaderFeatures = []
        let refX = min(max(((box.lo.x + box.hi.x) / 2).rounded(), 0), view.width)
        let refY = min(max(((box.lo.y + box.hi.y) / 2).rounded(), 0), view.height)
        // Local origin: the point under the reference pixel (rounded, so that exact edge
        // positions stay exact), or the rectangle's origin when that pixel sees the plane from
        // behind. What the shader sees is then small wherever it draws, even for layers whose
        // coordinates are in the billions.
        let (ox, oy) = FrameData.localOrigin(q.inverse, ref: (refX, refY), fallback: (Double(r.minX), Double(r.minY)))
        let x0 = Double(r.minX) - ox, y0 = Double(r.minY) - oy, x1 = Double(r.maxX) - ox, y1 = Double(r.maxY) - oy
        let w = Double(r.width), h = Double(r.height)
        let t = CATransform3DMakeTranslation(CGFloat(ox), CGFloat(oy), 0).concatenating(q.transform)

        // Geometry: each edge pushed out by `geometryMargin` (`aliasedGeometryMargin` where
        // coverage is 0 or 1) pixels' worth of local units, measured where the edge is visible.
        let m = q.hasBinaryCoverage ? FrameData.aliasedGeometryMargin : FrameData.geometryMargin
        let copyPlacements = copies.map {
            (CATransform3DMakeTranslation(CGFloat(ox), CGFloat(oy), 0).concatenating($0.transform), $0.inverse)
        }
        func push(_ a: (Double, Double), _ b: (Double, Double), xAxis: Bool) -> Double {
            var widest = max(0, FrameData.footprint(of: t, inverse: q.inverse, from: a, to: b, xAxis: xAxis, view: view))
            for (ct, ci) in copyPlacements {
                widest = max(widest, FrameData.footprint(of: ct, inverse: ci, from: a, to: b, xAxis: xAxis, view: view))
            }
            return m * widest
        }
        let left = push((x0, y0), (x0, y1), xAxis: true), right = push((x1, y0), (x1, y1), xAxis: true)
        let top = push((x0, y0), (x1, y0), xAxis: false), bottom = push((x0, y1), (x1, y1), xAxis: false)

        // One record reused for every quad: a fresh one was an allocation and a fill a quad.
        record.clear()
        record[.transform] = SIMD16<Double>(Double(t.m11), Double(t.m12), Double(t.m13), Double(t.m14),
                                         Double(t.m21), Double(t.m22), Double(t.m23), Double(t.m24),
                                         Double(t.m31), Double(t.m32), Double(t.m33), Double(t.m34),
                                         Double(t.m41), Double(t.m42), Double(t.m43), Double(t.m44))
        record[.geometry] = SIMD4(x0 - left, y0 - top, x1 + right, y1 + bottom)
        let map = FrameData.rebased(q.inverse, ref: (refX, refY), origin: (ox, oy))
        record[.mapDx] = map.dx
        record[.mapDy] = map.dy
        record[.mapOrigin] = map.origin
        // As the shader reads them (floats): an affine map's w column is exactly (0, 0, 1).
        if Float(map.dx.z) != 0 || Float(map.dy.z) != 0 || Float(map.origin.z) != 1 { features.insert(.perspective) }
        record[.referencePixel] = SIMD2(refX, refY)
        record[.opacity] = Double(q.opacity)
        record[.rect] = SIMD4(x0, y0, x1, y1)
        let rounding: Corners
        switch q.shape {
        case .rect(let c):
            rounding = c
        case let .border(bw, c):
            rounding = c
            record[.borderWidth] = bw
            // As the reference: the inner cut-out exists only when the border leaves a hole.
            let hasHole = bw < w - bw && bw < h - bw
            record[.borderHasHole] = hasHole ? 1 : 0
            // Aliased square borders need only the two inside tests (LK_BORDER alone).
            if hasHole { features.insert(.border) }
        }
        record[.cornerRadius] = rounding.radius
        record[.cornerCode] = Double(rounding.code)
        if rounding.isContinuous { features.insert(.continuousCorners) }
        if !q.hasBinaryCoverage { features.insert(.shapeFull) }
        record[.antialiased] = q.antialiased ? 1 : 0
        // A border's hole, left out of its geometry where the ring's triangles rasterise exactly
        // the quad's pixels but the hole's: no copies (drawn through other maps), no half-planes
        // and every geometry corner in front of the eye (nothing for the clipper to cut, which
        // it would do per triangle).
        func inFront(_ x: Double, _ y: Double) -> Bool { Double(t.apply(x: CGFloat(x), y: CGFloat(y), z: 0).w) > frontClipW }
        if case let .border(bw, _) = q.shape, record[.borderHasHole] == 1, copies.isEmpty,
           !q.clips.contains(where: { if case .halfPlane = $0.shape { true } else { false } }),
           inFront(x0 - left, y0 - top), inFront(x1 + right, y0 - top), inFront(x1 + right, y1 + bottom), inFront(x0 - left, y1 + bottom),
           let hole = FrameData.hole(inside: SIMD4(x0 + bw, y0 + bw, x1 - bw, y1 - bw), corners: rounding.inset(by: bw),
                                     slack: q.hasBinaryCoverage ? 1 : 1.5, transform: t, inverse: q.inverse, view: view) {
            record[.hole] = hole
            features.insert(.hole)
        }

        switch q.fill {
        case .color(let c):
            record[.fillKind] = 0
            record[.color] = SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a))
            features.insert(.color)
        case .image(let f):
            record[.fillKind] = 1
            // The shader multiplies image texels by `color` (ImageFill.modulation).
            let m = f.modulation
            record[.color] = SIMD4(Double(m.r), Double(m.g), Double(m.b), Double(m.a))
            func needs(_ filter: CALayerContentsFilter) {
                switch filter {
                case .nearest: features.insert(.nearest)
                case .trilinear: features.insert(filter == f.minification ? .trilinear : .linear)
                default: features.insert(.linear)
                }
            }
            needs(f.minification)
            needs(f.magnification)
            let (minification, magnification) = (FrameData.filterCode(f.minification), FrameData.filterCode(f.magnification))
            record[.minificationFilter] = minification
            record[.magnificationFilter] = magnification
            if minification != magnification || minification == 2 { features.insert(.lod) }
            let xs = FrameData.segments(f.x, origin: ox, scale: imageScale.0)
            let ys = FrameData.segments(f.y, origin: oy, scale: imageScale.1)
            record[.imageXStarts] = SIMD3(xs[0], xs[1], xs[2])
            record[.imageXTexels] = SIMD3(xs[3], xs[4], xs[5])
            record[.imageXSlopes] = SIMD3(xs[6], xs[7], xs[8])
            record[.imageYStarts] = SIMD3(ys[0], ys[1], ys[2])
            record[.imageYTexels] = SIMD3(ys[3], ys[4], ys[5])
            record[.imageYSlopes] = SIMD3(ys[6], ys[7], ys[8])
            // One segment per axis (no contentsCenter): start, texel, slope per axis in two
            // texels, which spares the fragment shader three inputs and the segment search.
            if f.x.stops.count > 2 || f.y.stops.count > 2 {
                features.insert(.segmentedMaps)
            } else {
                record[.imageXSegment] = SIMD3(xs[0], xs[3], xs[6])
                record[.imageYSegment] = SIMD3(ys[0], ys[3], ys[6])
            }
        case .pass(let f):
            record[.fillKind] = 2
            features.insert(.pass)
            record[.passScale] = f.scale
            record[.passHasMask] = f.mask == nil ? 0 : 1
            record[.passHasTint] = f.tint == nil ? 0 : 1
            record[.passCrossfade] = Double(f.crossfade?.fraction ?? 0)
            if let c = f.tint {
                record[.color] = SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a))
            }
        }

        // Clips: the first half-planes in the record (unused slots keep everything: 0, 0, 1),
        // the rest in the clip loop.
        for k in 0..<FrameData.maxRecordHalfPlanes {
            record[.halfPlanes, k * 3 + 2] = 1
        }
        var slots = 0
        var loop: [Float] = []
        for c in q.clips {
            if case .halfPlane = c.shape, slots < recordHalfPlanes {
                let hp = FrameData.pixelHalfPlane(c, ref: (refX, refY))
                record[.halfPlanes, slots * 3] = hp.0
                record[.halfPlanes, slots * 3 + 1] = hp.1
                record[.halfPlanes, slots * 3 + 2] = hp.2
                slots += 1
                features.insert(.halfPlanes)
            } else {
                loop += FrameData.clipRecord(c, ref: (refX, refY))
                if case .roundedRect(_, let corners, _) = c.shape, corners.isContinuous { features.insert(.continuousCorners) }
            }
        }
        if !loop.isEmpty {
            record[.clipCount] = Double(loop.count / (FrameData.clipStride * 4))
            record[.clipStart] = Double(append(loop))
            features.insert(.clips)
        }

        let base = index * FrameData.quadStride * 4
        // Through a buffer: element by element, each store checked the array's uniqueness.
        let written = record.floats
        floats.withUnsafeMutableBufferPointer { out in
            written.withUnsafeBufferPointer { values in
                for (i, v) in values.enumerated() { out[base + i] = Float(v) }
            }
        }
        return features
    }

    /// A half-plane clip as `A·qx + B·qy + C ≥ 0` in pass pixels relative to `ref`: the layer's
    /// `a·x + b·y + c` times the map's w (positive wherever the layer is seen from the front),
    /// as the reference evaluates it.
    static func pixelHalfPlane(_ c: Clip, ref: (Double, Double)) -> (Double, Double, Double) {
        guard case let .halfPlane(a, b, cc) = c.shape else { return (0, 0, 1) }
        let (A, B, C) = c.map.pulledBack((a, b, cc))
        return (A, B, C + A * ref.0 + B * ref.1)
    }

    /// Appends blur weights; returns the texel index of `weights[0]`.
    mutating func appendWeights(_ weights: [Float]) -> Int { append(weights) }

    /// Appends a replicated run's copy records (`copyStride` texels each, as quad.vert.glsl
    /// reads them: the map a b c d, e f, its inverse, the tint); returns the first one's texel.
    mutating func appendCopies(_ run: CopyRun) -> Int {
        var values: [Float] = []
        values.reserveCapacity(run.copies.count * FrameData.copyStride * 4)
        for c in run.copies {
            let i = c.inverse
            values += [c.a, c.b, c.c, c.d, c.e, c.f, i.0, i.1, i.2, i.3, i.4, i.5].map { Float($0) }
            values += [c.tint.x, c.tint.y, c.tint.z, c.tint.w]
        }
        return append(values)
    }

    // MARK: - Pieces

    struct Viewport {
        let width: Double
        let height: Double
    }

    /// Nearest / linear / trilinear as the shader's 0 / 1 / 2; unknown filters are linear, as in
    /// the reference.
    static func filterCode(_ f: CALayerContentsFilter) -> Double {
        switch f {
        case .nearest: return 0
        case .trilinear: return 2
        default: return 1
        }
    }

    /// An AxisMap as three segments (start, texel at start, slope), starts rebased by `origin`
    /// and texels multiplied by `scale`: [s0 s1 s2 t0 t1 t2 b0 b1 b2]. Unused segments start at
    /// +infinity (the largest float), so the shader never selects them.
    static func segments(_ a: AxisMap, origin: Double, scale: Double) -> [Double] {
        let far = Double(Float.greatestFiniteMagnitude)
        // One array, written in place (s at 0, t at 3, b at 6).
        var v = [far, far, far, 0, 0, 0, 0, 0, 0]
        let n = min(a.stops.count - 1, 3)
        for i in 0..<max(n, 0) {
            let d = a.stops[i + 1] - a.stops[i]
            v[i] = a.stops[i] - origin
            v[3 + i] = a.texels[i] * scale
            v[6 + i] = d == 0 ? 0 : (a.texels[i + 1] - a.texels[i]) / d * scale
        }
        if n == 0, let t0 = a.texels.first {
            v[0] = -far
            v[3] = t0 * scale
        }
        return v
    }

    /// A clip's four texels: rebased map, kind, shape parameters.
    static func clipRecord(_ c: Clip, ref: (Double, Double)) -> [Float] {
        var v = [Double](repeating: 0, count: FrameData.clipStride * 4)
        switch c.shape {
        case let .roundedRect(r, corners, aa):
            let rs = r.standardized
            let o = localOrigin(c.map, ref: ref, fallback: (Double(rs.minX), Double(rs.minY)))
            let map = rebased(c.map, ref: ref, origin: o)
            for i in 0..<3 { (v[i], v[3 + i], v[6 + i]) = (map.dx[i], map.dy[i], map.origin[i]) }
            v[9] = 0
            v[10] = Double(rs.minX) - o.0
            v[11] = Double(rs.minY) - o.1
            v[12] = Double(rs.maxX) - o.0
            v[13] = Double(rs.maxY) - o.1
            v[14] = corners.radius
            // The antialiasing flag and the corner code (`Corners.code`) share a float:
            // aa + 2 × code, exact in a float.
            v[15] = (aa ? 1 : 0) + 2 * Double(corners.code)
        case .halfPlane:
            let hp = pixelHalfPlane(c, ref: ref)
            v[0] = hp.0
            v[1] = hp.1
            v[2] = hp.2
            v[9] = 1
        }
        return v.map { Float($0) }
    }

    /// The local point under pixel `ref` through `m`, rounded to integers, or `fallback` when
    /// the pixel sees the plane from behind or the point is not finite.
    static func localOrigin(_ m: PlaneMap, ref: (Double, Double), fallback: (Double, Double)) -> (Double, Double) {
        guard let l = QuadCoverage.local(m, ref.0, ref.1), l.x.isFinite, l.y.isFinite,
              abs(l.x) < 1e15, abs(l.y) < 1e15 else { return fallback }
        return (l.x.rounded(), l.y.rounded())
    }

    /// `m` with pixels taken relative to `ref` and local coordinates relative to `origin`: its
    /// rows (what a pixel step in x and in y, and the pixel at `ref`, map to).
    static func rebased(_ m: PlaneMap, ref: (Double, Double), origin: (Double, Double))
        -> (dx: SIMD3<Double>, dy: SIMD3<Double>, origin: SIMD3<Double>) {
        let e = m.m
        var dx = SIMD3(e.0, e.1, e.2), dy = SIMD3(e.3, e.4, e.5), o = SIMD3(e.6, e.7, e.8)
        // Element by element, in the order the entries always were, so every rounding is kept.
        for j in 0..<3 { o[j] += ref.0 * dx[j] + ref.1 * dy[j] }
        dx.x -= origin.0 * dx.z
        dx.y -= origin.1 * dx.z
        dy.x -= origin.0 * dy.z
        dy.y -= origin.1 * dy.z
        o.x -= origin.0 * o.z
        o.y -= origin.1 * o.z
        return (dx, dy, o)
    }

    /// The part of a border's inner cut-out `inner` (x0, y0, x1, y1, local and rebased, with
    /// `corners`) where the cut-out's coverage is exactly 1 at every pixel centre, so that the
    /// border draws nothing there (quad.frag.glsl: its coverage times 1 − 1): `inner` less its
    /// corners' reach (`Corners.extent`) and `slack` pixels' worth of local units on every
    /// side, measured along its edges (`footprint`). An antialiased edge is fully covered half
    /// a pixel in, an aliased one just inside: the rest of the slack is for the rasteriser's
    /// snapping of the ring's inner vertices (1/256 pixel) and the footprint's change along an
    /// edge. Nil when nothing is left, or when a side, projected, is shorter than
    /// `minimumHoleSide` pixels.
    /// (Written out, without arrays: it is asked of every border quad whose record is written.)
    static func hole(inside inner: SIMD4<Double>, corners: Corners, slack: Double, transform t: CATransform3D, inverse: PlaneMap,
                     view: Viewport) -> SIMD4<Double>? {
        let (x0, y0, x1, y1) = (inner[0], inner[1], inner[2], inner[3])
        // Each edge measured along x and y at once.
        func along(_ a: (Double, Double), _ b: (Double, Double)) -> (x: Double, y: Double) {
            footprints(of: t, inverse: inverse, from: a, to: b, view: view)
        }
        let edges = (along((x0, y0), (x0, y1)), along((x1, y0), (x1, y1)), along((x0, y0), (x1, y0)), along((x0, y1), (x1, y1)))
        let reachX = max(max(max(max(0, edges.0.x), edges.1.x), edges.2.x), edges.3.x)
        let reachY = max(max(max(max(0, edges.0.y), edges.1.y), edges.2.y), edges.3.y)
        let corner = corners.extent(hw: (x1 - x0) / 2, hh: (y1 - y0) / 2)
        let mx = corner + slack * reachX, my = corner + slack * reachY
        let hole = SIMD4(x0 + mx, y0 + my, x1 - mx, y1 - my)
        guard hole[0] < hole[2], hole[1] < hole[3] else { return nil }
        // Each side, projected, at least `minimumHoleSide` pixels long.
        func end(_ x: Double, _ y: Double) -> SIMD2<Double> {
            let h = t.apply(x: CGFloat(x), y: CGFloat(y), z: 0)
            return SIMD2(Double(h.x / h.w), Double(h.y / h.w))
        }
        let (p0, p1, p2, p3) = (end(hole[0], hole[1]), end(hole[2], hole[1]), end(hole[2], hole[3]), end(hole[0], hole[3]))
        func long(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool { ((a - b) * (a - b)).sum() >= minimumHoleSide * minimumHoleSide }
        return long(p0, p1) && long(p1, p2) && long(p2, p3) && long(p3, p0) ? hole : nil
    }

    /// The pixel bounding box of a projected quad (homogeneous corners) after `clipToFront`, as
    /// the reference clips; nil when nothing is in front of the eye.
    static func visibleBox(_ pts: [SIMD4<Double>]) -> (lo: SIMD2<Double>, hi: SIMD2<Double>)? {
        var lo = SIMD2(Double.infinity, .infinity), hi = -lo
        var any = false
        for p in clipToFront(pts) {
            let s = SIMD2(p.x / p.w, p.y / p.w)
            guard s.x.isFinite, s.y.isFinite else { continue }
            lo = pointwiseMin(lo, s)
            hi = pointwiseMax(hi, s)
            any = true
        }
        return any ? (lo, hi) : nil
    }

    /// Local units per pixel along x (or y) at the visible ends of the edge a→b (local,
    /// rebased), the larger of the two; 0 when the edge is nowhere near the viewport.
    static func footprint(of t: CATransform3D, inverse: PlaneMap, from a: (Double, Double), to b: (Double, Double),
                          xAxis: Bool, view: Viewport) -> Double {
        let f = footprints(of: t, inverse: inverse, from: a, to: b, view: view)
        return xAxis ? f.x : f.y
    }

    /// `footprint` along x and along y at once: one projection, clip and pair of local points
    /// for an edge that a border's hole measures both ways.
    @inline(__always)
    static func footprints(of t: CATransform3D, inverse: PlaneMap, from a: (Double, Double), to b: (Double, Double),
                           view: Viewport) -> (x: Double, y: Double) {
        func project(_ p: (Double, Double)) -> SIMD3<Double> {
            let h = t.apply(x: CGFloat(p.0), y: CGFloat(p.1), z: 0)
            return SIMD3(Double(h.x), Double(h.y), Double(h.w))
        }
        var pa = project(a), pb = project(b)
        if pa.z < frontClipW && pb.z < frontClipW { return (0, 0) }
        if pa.z < frontClipW { pa = pa + (pb - pa) * ((frontClipW - pa.z) / (pb.z - pa.z)) }
        if pb.z < frontClipW { pb = pb + (pa - pb) * ((frontClipW - pb.z) / (pa.z - pb.z)) }
        var s0 = SIMD2(pa.x / pa.z, pa.y / pa.z), s1 = SIMD2(pb.x / pb.z, pb.y / pb.z)
        guard s0.x.isFinite, s0.y.isFinite, s1.x.isFinite, s1.y.isFinite else { return (0, 0) }
        // Liang–Barsky against the viewport grown by two pixels.
        var t0 = 0.0, t1 = 1.0
        let d = s1 - s0
        // One side's test; false when the edge lies wholly outside it.
        func clip(_ p: Double, _ qv: Double) -> Bool {
            if p == 0 { return !(qv < 0) }
            let r = qv / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            return true
        }
        guard clip(-d.x, s0.x + 2), clip(d.x, view.width + 2 - s0.x), clip(-d.y, s0.y + 2), clip(d.y, view.height + 2 - s0.y),
              t0 <= t1 else { return (0, 0) }
        (s0, s1) = (s0 + d * t0, s0 + d * t1)
        var g = (x: 0.0, y: 0.0)
        func widen(at s: SIMD2<Double>) {
            guard let l = QuadCoverage.local(inverse, s.x, s.y) else { return }
            let vx = (l.dxdpx * l.dxdpx + l.dxdpy * l.dxdpy).squareRoot(), vy = (l.dydpx * l.dydpx + l.dydpy * l.dydpy).squareRoot()
            if vx.isFinite { g.x = max(g.x, vx) }
            if vy.isFinite { g.y = max(g.y, vy) }
        }
        widen(at: s0)
        widen(at: s1)
        return g
    }
}
