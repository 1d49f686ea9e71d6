// Replicated runs: where a pass's quads are copies of a first block of quads, each copy the first
// one moved by a pixel-space affine map and its colours multiplied by one factor, the first quad
// of the run says so, and a backend that can (GL) draws the first block once per copy from one
// set of records instead of drawing every quad. Every quad is still in the list: the CPU draws
// them as before, dumps and damage see them, and a backend that ignores the run loses nothing.
// Whether a run holds is decided from the quads themselves, so no rule elsewhere can make a
// copy differ without the run being dropped (docs/architecture.md, "Replicators").
import Foundation
import LayerKitCore

/// The copies of a run of quads: the `quadsPerCopy` quads from the one that carries the run are
/// copy 0, and each `copies[k]` is the next `quadsPerCopy` quads, which equal copy 0's but for
/// their placement (copy 0's mapped by the copy's `matrix`) and colours (times its `tint`).
package final class CopyRun: Equatable, Sendable {
    /// One copy: where it lies relative to copy 0, and what its colours are multiplied by.
    package struct Copy: Equatable, Sendable {
        /// Copy 0's pass pixels → this copy's, row-vector affine: (x, y) ↦ (a x + c y + e, b x + d y + f).
        package var a, b, c, d, e, f: Double
        /// Premultiplied channel factors: this copy's colour fills and image modulations are copy
        /// 0's times these, and what its opacity is copy 0's times is folded in (both multiply
        /// what a quad draws).
        package var tint: SIMD4<Float>

        /// The inverse map (this copy's pixels → copy 0's), as (a, b, c, d, e, f).
        package var inverse: (Double, Double, Double, Double, Double, Double) {
            let det = a * d - b * c
            let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det)
            return (ia, ib, ic, id, -(e * ia + f * ic), -(e * ib + f * id))
        }
    }

    /// Quads in each copy.
    package let quadsPerCopy: Int
    /// Every copy, copy 0 (the identity, tint 1) first.
    package let copies: [Copy]

    /// Quads the run covers.
    package var quadCount: Int { quadsPerCopy * copies.count }

    init(quadsPerCopy: Int, copies: [Copy]) {
        self.quadsPerCopy = quadsPerCopy
        self.copies = copies
    }

    package static func == (x: CopyRun, y: CopyRun) -> Bool {
        x === y || (x.quadsPerCopy == y.quadsPerCopy && x.copies == y.copies)
    }

    // MARK: Finding runs

    /// Marks `quads[start...]`, the quads a replicator's copies drew (`copies` of them, each a
    /// transform layer), as a run where they are one: first as copies of a run its first copy
    /// already is (a nested replicator's, so that its copies times these make one run), else
    /// as `copies` blocks. A run found replaces the runs inside it.
    static func mark(_ quads: inout [DrawQuad], from start: Int, copies: Int) {
        let total = quads.count - start
        guard copies >= 2, total > 0, total % copies == 0 else { return }
        let perBlock = total / copies
        var candidates = [perBlock]
        if let inner = quads[start].copyRun, inner.quadCount == perBlock { candidates.insert(inner.quadsPerCopy, at: 0) }
        for n in candidates {
            guard let run = find(quads, start: start, quadsPerCopy: n, copies: total / n) else { continue }
            for i in start..<quads.count where quads[i].copyRun != nil { quads[i].copyRun = nil }
            quads[start].copyRun = run
            return
        }
    }

    /// The run of `copies` blocks of `n` quads from `start`, or nil where some block is not
    /// copy 0 moved by an affine pixel map and tinted, or copy 0 samples a pass.
    static func find(_ quads: [DrawQuad], start: Int, quadsPerCopy n: Int, copies: Int) -> CopyRun? {
        let first = quads[start..<(start + n)]
        // The quad of copy 0 that fixes each channel's factor: the one with the largest value.
        var reference = [Int?](repeating: nil, count: 4)
        var largest = [Float](repeating: 0, count: 4)
        for (j, q) in zip(first.indices, first) {
            guard let c = colour(q.fill) else {
                if case .pass = q.fill { return nil }
                continue
            }
            for ch in 0..<4 where c[ch] > largest[ch] { (largest[ch], reference[ch]) = (c[ch], j) }
        }
        guard let h0 = homography(quads[start].transform), let h0inv = inverse(h0) else { return nil }
        var result: [Copy] = [Copy(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0, tint: SIMD4(repeating: 1))]
        result.reserveCapacity(copies)
        for k in 1..<copies {
            let base = start + k * n
            guard let hk = homography(quads[base].transform) else { return nil }
            let m = multiply(h0inv, hk)
            // Affine in pixels: the copies keep copy 0's depth (w), so copy 0's clipping against
            // the eye and its geometry hold for them.
            let scale = max(abs(m[8]), .leastNormalMagnitude)
            guard abs(m[2]) <= 1e-9 * scale, abs(m[5]) <= 1e-9 * scale, abs(m[8] - 1) <= 1e-9 else { return nil }
            var tint = SIMD4<Float>(repeating: 1)
            for ch in 0..<4 {
                guard let j = reference[ch], let c0 = colour(quads[j].fill), let ck = colour(quads[j + k * n].fill) else { continue }
                tint[ch] = ck[ch] / c0[ch]
            }
            // Drawn quads have an opacity above 0.
            let fade = quads[base].opacity / quads[start].opacity
            var copy = Copy(a: m[0], b: m[1], c: m[3], d: m[4], e: m[6], f: m[7], tint: tint)
            guard abs(copy.a * copy.d - copy.b * copy.c) > 1e-12 else { return nil }
            for j in 0..<n where !matches(quads[start + j], quads[base + j], copy, fade: fade) { return nil }
            copy.tint *= fade
            result.append(copy)
        }
        return CopyRun(quadsPerCopy: n, copies: result)
    }

    /// Whether `q` is `q0` placed by `copy`: the same in all but transform, colours and
    /// opacity, its corners where copy 0's land under the map (in front of the eye), its colour
    /// copy 0's times the tint, its opacity copy 0's times `fade`.
    private static func matches(_ q0: DrawQuad, _ q: DrawQuad, _ copy: Copy, fade: Float) -> Bool {
        guard q.rect == q0.rect, q.shape == q0.shape, abs(q.opacity - q0.opacity * fade) <= 1e-6, q.antialiased == q0.antialiased,
              q.label == q0.label, q.clips == q0.clips else { return false }
        switch (q0.fill, q.fill) {
        case let (.color(a), .color(b)):
            guard tinted(a, copy.tint, matches: b) else { return false }
        case let (.image(a), .image(b)):
            guard a.image === b.image, a.x == b.x, a.y == b.y, a.minification == b.minification,
                  a.magnification == b.magnification, tinted(a.modulation, copy.tint, matches: b.modulation) else { return false }
        default:
            return false
        }
        // Four corners fix a plane homography, so the quad lies where copy 0's does under the map.
        func lands(_ x: CGFloat, _ y: CGFloat) -> Bool {
            let p0 = q0.transform.apply(x: x, y: y, z: 0), p = q.transform.apply(x: x, y: y, z: 0)
            guard p0.w > 0, p.w > 0, abs(p.w - p0.w) <= 1e-9 * p0.w else { return false }
            let (x0, y0) = (Double(p0.x / p0.w), Double(p0.y / p0.w)), (xk, yk) = (Double(p.x / p.w), Double(p.y / p.w))
            let tolerance = 1e-9 * max(1, abs(xk), abs(yk))
            return abs(copy.a * x0 + copy.c * y0 + copy.e - xk) <= tolerance && abs(copy.b * x0 + copy.d * y0 + copy.f - yk) <= tolerance
        }
        let r = q0.rect
        return lands(r.minX, r.minY) && lands(r.maxX, r.minY) && lands(r.maxX, r.maxY) && lands(r.minX, r.maxY)
    }

    /// Whether `b` is `a` times `tint`, to float rounding.
    private static func tinted(_ a: PremultipliedColor, _ tint: SIMD4<Float>, matches b: PremultipliedColor) -> Bool {
        let x = SIMD4(a.r, a.g, a.b, a.a) * tint, y = SIMD4(b.r, b.g, b.b, b.a)
        return ((x - y) * (x - y)).max() <= 1e-12
    }

    private static func colour(_ fill: Fill) -> SIMD4<Float>? {
        switch fill {
        case .color(let c): return SIMD4(c.r, c.g, c.b, c.a)
        case .image(let f): return SIMD4(f.modulation.r, f.modulation.g, f.modulation.b, f.modulation.a)
        case .pass: return nil
        }
    }

    /// The plane homography of `t` (rows and columns x, y, w), row-major, row-vector convention.
    private static func homography(_ t: CATransform3D) -> [Double]? {
        let m = [t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44].map { Double($0) }
        return m.allSatisfy(\.isFinite) ? m : nil
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let c0 = m[4] * m[8] - m[5] * m[7], c1 = m[5] * m[6] - m[3] * m[8], c2 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c0 + m[1] * c1 + m[2] * c2
        guard det.isNormal else { return nil }
        let i = 1 / det
        let r0: [Double] = [c0, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4]]
        let r1: [Double] = [c1, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5]]
        let r2: [Double] = [c2, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        return (r0 + r1 + r2).map { $0 * i }
    }

    private static func multiply(_ x: [Double], _ y: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += x[row * 3 + k] * y[k * 3 + column] }
                out[row * 3 + column] = sum
            }
        }
        return out
    }
}
