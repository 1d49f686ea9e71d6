import Foundation
import LayerKitCore

/// Orders the planes of one 3D sorting context back to front.
///
/// A plain layer is a sorting context for its sublayers (and everything inside transform-layer
/// sublayers). Planes whose z does not vary across their surface (every 2D scene) are sorted
/// stably by z, which is zPosition order with sublayer order breaking ties. Otherwise the planes
/// are clipped at w = 1e-5, projected (divide by w, which keeps the order along each sight
/// line and turns the eye's rays parallel to z) and placed in a BSP tree whose root is the first
/// plane in sublayer order; a plane that really crosses another (beyond a thickness of 0.05) is
/// split, and each piece carries the half-plane that bounds it in its own layer's coordinates.
/// Coplanar planes keep sublayer order. Only planes whose screen bounding boxes overlap are
/// ordered against each other.
enum DepthSorter {
    /// A plane to sort: its rectangle in its own space and the map into the context's space.
    struct Plane {
        var rect: CGRect
        var matrix: CATransform3D

        /// Whether z does not vary across the plane: such planes sort by z alone.
        var isFlat: Bool { matrix.m13 == 0 && matrix.m23 == 0 }
    }

    /// A piece of a plane to draw: the plane's index and the half-planes (`a·x + b·y + c ≥ 0` in
    /// the plane's own coordinates) that cut it.
    struct Piece {
        var plane: Int
        var halfPlanes: [(a: Double, b: Double, c: Double)]
    }

    static let thickness = 0.05

    static func order(_ planes: [Plane]) -> [Piece] {
        if planes.count < 2 || planes.allSatisfy(\.isFlat) {
            let idx = planes.indices.sorted { a, b in
                let za = Double(planes[a].matrix.m43), zb = Double(planes[b].matrix.m43)
                return za != zb ? za < zb : a < b
            }
            return idx.map { Piece(plane: $0, halfPlanes: []) }
        }
        var polys: [Polygon] = []
        for (i, p) in planes.enumerated() {
            if let poly = Polygon(plane: i, rect: p.rect, matrix: p.matrix) { polys.append(poly) }
        }
        var out: [Piece] = []
        out.reserveCapacity(polys.count)
        var budget = splitBudget(polys.count)
        build(polys, budget: &budget)?.backToFront(into: &out)
        return out
    }

    /// How much BSP work (polygons classified against a splitter, plus splits) a context may
    /// spend before the rest of it is ordered by depth alone: dense scenes of thousands of tilted
    /// planes (leaves-10000) would otherwise classify and split quadratically. The budget covers
    /// every scene of the corpus, and leaves-1000, exactly.
    static func splitBudget(_ count: Int) -> Int { 6 * count + 1024 }

    /// Polygons grouped by overlapping screen bounding boxes (transitively): each polygon's
    /// group, groups numbered in order of their first polygon (sublayer order), and how many.
    static func overlapGroups(_ polys: [Polygon]) -> (group: [Int], count: Int) {
        var parent = Array(polys.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        // Sweep along x: each box meets the boxes still open at its left edge.
        let boxes = polys.map { p -> (minX: Double, maxX: Double, minY: Double, maxY: Double) in
            var b = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
            for q in p.points {
                b.minX = min(b.minX, q.x)
                b.maxX = max(b.maxX, q.x)
                b.minY = min(b.minY, q.y)
                b.maxY = max(b.maxY, q.y)
            }
            return b
        }
        let byLeft = polys.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        for a in byLeft.indices {
            let i = byLeft[a], bi = boxes[i]
            var b = a + 1
            while b < byLeft.count, boxes[byLeft[b]].minX <= bi.maxX {
                let j = byLeft[b], bj = boxes[j]
                if bj.minY <= bi.maxY && bj.maxY >= bi.minY {
                    let (ri, rj) = (find(i), find(j))
                    if ri != rj { parent[max(ri, rj)] = min(ri, rj) }
                }
                b += 1
            }
        }
        // A set's root is its lowest index, so a root is met before the rest of its set.
        var group = [Int](repeating: 0, count: polys.count), count = 0
        for i in polys.indices {
            let r = find(i)
            if r == i {
                group[i] = count
                count += 1
            } else {
                group[i] = group[r]
            }
        }
        return (group, count)
    }

    struct Polygon {
        var plane: Int
        var points: [SIMD3<Double>]
        var halfPlanes: [(a: Double, b: Double, c: Double)] = []
        var normal = SIMD3<Double>(0, 0, 1)
        var d = 0.0
        var matrix: CATransform3D

        init?(plane: Int, rect: CGRect, matrix m: CATransform3D) {
            self.plane = plane
            self.matrix = m
            let r = rect.standardized
            let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)].map { c in
                let h = m.apply(x: c.0, y: c.1, z: 0)
                return SIMD4<Double>(Double(h.x), Double(h.y), Double(h.z), Double(h.w))
            }
            let clipped = clipToFront(corners)
            guard clipped.count >= 3 else { return nil }
            points = clipped.map { SIMD3($0.x / $0.w, $0.y / $0.w, $0.z / $0.w) }
            guard computePlane() else { return nil }
        }

        init(from other: Polygon, points: [SIMD3<Double>], extra: (Double, Double, Double)) {
            self = other
            self.points = points
            self.halfPlanes.append(extra)
        }

        /// Newell's method: robust for any convex polygon.
        mutating func computePlane() -> Bool {
            var n = SIMD3<Double>(0, 0, 0)
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                n.x += (a.y - b.y) * (a.z + b.z)
                n.y += (a.z - b.z) * (a.x + b.x)
                n.z += (a.x - b.x) * (a.y + b.y)
            }
            let len = (n * n).sum().squareRoot()
            guard len > 1e-12 else { return false }
            normal = n / len
            let c = points.reduce(SIMD3<Double>(0, 0, 0), +) / Double(points.count)
            d = -(normal * c).sum()
            return true
        }

        func distance(_ p: SIMD3<Double>) -> Double { (normal * p).sum() + d }

        /// The half-plane `normal·X + d ≥ 0` (negated when `back`) expressed in this
        /// polygon's own layer coordinates through its matrix (linear, since w > 0 there).
        func localHalfPlane(of splitter: Polygon, back: Bool) -> (Double, Double, Double) {
            let s = back ? -1.0 : 1.0
            let n = splitter.normal * s, dd = splitter.d * s
            let m = matrix
            let a = n.x * Double(m.m11) + n.y * Double(m.m12) + n.z * Double(m.m13) + dd * Double(m.m14)
            let b = n.x * Double(m.m21) + n.y * Double(m.m22) + n.z * Double(m.m23) + dd * Double(m.m24)
            let c = n.x * Double(m.m41) + n.y * Double(m.m42) + n.z * Double(m.m43) + dd * Double(m.m44)
            return (a, b, c)
        }
    }

    /// A BSP node: a splitting plane with what is coplanar to it and the two sides; or a set of
    /// subtrees that do not overlap on screen, so their mutual order does not matter.
    final class Node {
        var planes: [Polygon] = []       // the splitter and what is coplanar with it, in sublayer order
        /// Whether the eye is on the splitter's front side, which `front` and `back` are told
        /// apart by (a coplanar plane may face the other way).
        var eyeInFront = false
        var front: Node?
        var back: Node?
        var disjoint: [Node] = []
        /// Planes past the split budget, already ordered back to front by depth.
        var byDepth: [Polygon] = []

        /// The eye looks down -z from +z: it is on the splitter's front side when its normal
        /// points to +z.
        func backToFront(into out: inout [Piece]) {
            guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { backToFront(into: &out) } }
            if !disjoint.isEmpty {
                for n in disjoint { n.backToFront(into: &out) }
                return
            }
            if !byDepth.isEmpty {
                for p in byDepth { out.append(Piece(plane: p.plane, halfPlanes: p.halfPlanes)) }
                return
            }
            (eyeInFront ? back : front)?.backToFront(into: &out)
            for p in planes { out.append(Piece(plane: p.plane, halfPlanes: p.halfPlanes)) }
            (eyeInFront ? front : back)?.backToFront(into: &out)
        }
    }

    /// Planes that do not overlap on screen cannot hide one another, so only groups of
    /// overlapping planes are ordered among themselves, which keeps splits (and their cost) to
    /// planes that can really cross. Within a group the splitter is the first plane facing the
    /// eye squarely (2D layers share that plane, so it splits the fewest), else the first.
    static func build(_ polys: [Polygon], budget: inout Int) -> Node? {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { build(polys, budget: &budget) } }
        guard !polys.isEmpty else { return nil }
        if budget <= 0 {
            // Out of splits: back to front by the depth of each plane's centre, ties in order.
            let n = Node()
            let depths: [Double] = polys.map { p in p.points.reduce(0.0) { (sum: Double, q) in sum + q.z } / Double(p.points.count) }
            n.byDepth = polys.indices.sorted { a, b in depths[a] != depths[b] ? depths[a] < depths[b] : a < b }.map { polys[$0] }
            return n
        }
        if polys.count == 1 {
            let n = Node()
            n.planes = polys
            return n
        }
        let (group, count) = overlapGroups(polys)
        if count > 1 {
            var groups = [[Polygon]](repeating: [], count: count)
            for (p, g) in zip(polys, group) { groups[g].append(p) }
            let n = Node()
            n.disjoint = groups.compactMap { buildSplit($0, budget: &budget) }
            return n
        }
        return buildSplit(polys, budget: &budget)
    }

    private static func buildSplit(_ polys: [Polygon], budget: inout Int) -> Node? {
        guard !polys.isEmpty else { return nil }
        budget -= polys.count
        let rootIndex = polys.firstIndex { abs($0.normal.z) > 1 - 1e-12 } ?? 0
        let root = polys[rootIndex]
        var coplanar = [root], front: [Polygon] = [], back: [Polygon] = []
        for (i, q) in polys.enumerated() where i != rootIndex {
            // The extremes as `max()` and `min()` of the distances find them, without an array
            // of them for each polygon classified: only a split needs them all.
            var hi = root.distance(q.points[0]), lo = hi
            for p in q.points.dropFirst() {
                let d = root.distance(p)
                if hi < d { hi = d }
                if d < lo { lo = d }
            }
            if hi <= thickness && lo >= -thickness {
                coplanar.append(q)
            } else if lo >= -thickness {
                front.append(q)
            } else if hi <= thickness {
                back.append(q)
            } else {
                budget -= 1
                let (f, b) = split(q, q.points.map { root.distance($0) })
                if f.count >= 3 { front.append(Polygon(from: q, points: f, extra: q.localHalfPlane(of: root, back: false))) }
                if b.count >= 3 { back.append(Polygon(from: q, points: b, extra: q.localHalfPlane(of: root, back: true))) }
            }
        }
        coplanar.sort { $0.plane < $1.plane }
        let node = Node()
        node.planes = coplanar
        node.eyeInFront = root.normal.z >= 0
        node.front = build(front, budget: &budget)
        node.back = build(back, budget: &budget)
        return node
    }

    static func split(_ q: Polygon, _ ds: [Double]) -> ([SIMD3<Double>], [SIMD3<Double>]) {
        var f: [SIMD3<Double>] = [], b: [SIMD3<Double>] = []
        let n = q.points.count
        f.reserveCapacity(n + 1)
        b.reserveCapacity(n + 1)
        for i in 0..<n {
            let p = q.points[i], dp = ds[i]
            let nx = q.points[(i + 1) % n], dn = ds[(i + 1) % n]
            if dp >= 0 { f.append(p) }
            if dp <= 0 { b.append(p) }
            if (dp > 0 && dn < 0) || (dp < 0 && dn > 0) {
                let t = dp / (dp - dn)
                let x = p + (nx - p) * t
                f.append(x)
                b.append(x)
            }
        }
        return (f, b)
    }
}

/// The near clipping distance, in w, of every consumer of a quad's projection.
package let frontClipW = 1e-5

/// Sutherland–Hodgman against w ≥ `frontClipW` in homogeneous space, before any divide: the near
/// clip every consumer of a quad's projection uses (depth sorting, CPU spans, pass extents), so
/// that what is sorted is what is drawn and never a mirrored copy from behind the eye.
package func clipToFront(_ pts: [SIMD4<Double>]) -> [SIMD4<Double>] {
    if pts.allSatisfy({ $0.w >= frontClipW }) { return pts }
    var out: [SIMD4<Double>] = []
    for i in pts.indices {
        let a = pts[i], b = pts[(i + 1) % pts.count]
        let ina = a.w >= frontClipW, inb = b.w >= frontClipW
        if ina { out.append(a) }
        if ina != inb { out.append(a + (b - a) * ((frontClipW - a.w) / (b.w - a.w))) }
    }
    return out
}
