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
        polys.reserveCapacity(planes.count)
        for (i, p) in planes.enumerated() {
            if let poly = Polygon(plane: i, rect: p.rect, matrix: p.matrix) { polys.append(poly) }
        }
        return order(polys, budget: splitBudget(polys.count))
    }

    /// `polys` in pieces, back to front, spending at most about `budget` of BSP work.
    static func order(_ polys: [Polygon], budget: Int) -> [Piece] {
        var tree = BSP(polys: polys, budget: budget)
        tree.order(Array(polys.indices))
        return tree.out.map { Piece(plane: tree.polys[$0].plane, halfPlanes: tree.polys[$0].halfPlanes) }
    }

    /// How much BSP work (polygons classified against a splitter, plus splits) a context may
    /// spend before the rest of it is ordered by depth alone: dense scenes of thousands of tilted
    /// planes (leaves-10000) would otherwise classify and split quadratically. The budget covers
    /// every scene of the corpus, and leaves-1000, exactly.
    static func splitBudget(_ count: Int) -> Int { 6 * count + 1024 }

    typealias Box = (minX: Double, maxX: Double, minY: Double, maxY: Double)

    /// Screen bounding boxes grouped where they overlap (transitively): each box's group, groups
    /// numbered in order of their first box, and how many.
    static func overlapGroups(_ boxes: [Box]) -> (group: [Int], count: Int) {
        var parent = Array(boxes.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        // Sweep along x: each box meets the boxes still open at its left edge. Once all are one
        // set, the rest of the sweep can change nothing.
        var sets = boxes.count
        let byLeft = boxes.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        sweep: for a in byLeft.indices {
            let i = byLeft[a], bi = boxes[i]
            var b = a + 1
            while b < byLeft.count, boxes[byLeft[b]].minX <= bi.maxX {
                let j = byLeft[b], bj = boxes[j]
                if bj.minY <= bi.maxY && bj.maxY >= bi.minY {
                    let (ri, rj) = (find(i), find(j))
                    if ri != rj {
                        parent[max(ri, rj)] = min(ri, rj)
                        sets -= 1
                        if sets == 1 { break sweep }
                    }
                }
                b += 1
            }
        }
        if sets == 1 { return ([Int](repeating: 0, count: boxes.count), 1) }
        // A set's root is its lowest index, so a root is met before the rest of its set.
        var group = [Int](repeating: 0, count: boxes.count), count = 0
        for i in boxes.indices {
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
        /// The screen bounding box of `points`, which `overlapGroups` compares at every level.
        var box: Box = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)

        init?(plane: Int, rect: CGRect, matrix m: CATransform3D) {
            self.plane = plane
            self.matrix = m
            let r = rect.standardized
            func corner(_ x: CGFloat, _ y: CGFloat) -> SIMD4<Double> {
                let h = m.apply(x: x, y: y, z: 0)
                return SIMD4(Double(h.x), Double(h.y), Double(h.z), Double(h.w))
            }
            func projected(_ c: SIMD4<Double>) -> SIMD3<Double> { SIMD3(c.x / c.w, c.y / c.w, c.z / c.w) }
            let c = (corner(r.minX, r.minY), corner(r.maxX, r.minY), corner(r.maxX, r.maxY), corner(r.minX, r.maxY))
            // Wholly in front of the eye (every plane of a 2D scene, most of a 3D one), the
            // corners are the outline: one array a plane, where the cut took three.
            if c.0.w >= frontClipW && c.1.w >= frontClipW && c.2.w >= frontClipW && c.3.w >= frontClipW {
                points = [projected(c.0), projected(c.1), projected(c.2), projected(c.3)]
            } else {
                let clipped = clipToFront([c.0, c.1, c.2, c.3])
                guard clipped.count >= 3 else { return nil }
                points = clipped.map(projected)
            }
            guard computePlane() else { return nil }
            box = Self.bounds(of: points)
        }

        init(from other: Polygon, points: [SIMD3<Double>], extra: (Double, Double, Double)) {
            self = other
            self.points = points
            self.halfPlanes.append(extra)
            box = Self.bounds(of: points)
        }

        static func bounds(of points: [SIMD3<Double>]) -> Box {
            var b: Box = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
            for q in points {
                b.minX = min(b.minX, q.x)
                b.maxX = max(b.maxX, q.x)
                b.minY = min(b.minY, q.y)
                b.maxY = max(b.maxY, q.y)
            }
            return b
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

    /// The BSP tree, built and read back to front in one pass. Its nodes exist only as the
    /// recursion: each writes its pieces to `out` as it finishes, and the polygons (the pieces
    /// split off among them) are held once, in `polys`, the lists handed down being indices into
    /// it. A node holds a splitter and what is coplanar with it (in sublayer order) between its
    /// two sides; a set of subtrees that do not overlap on screen, whose mutual order does not
    /// matter, follow one another in the order of their first plane.
    private struct BSP {
        var polys: [Polygon]
        var budget: Int
        /// Indices into `polys`, back to front.
        var out: [Int] = []

        init(polys: [Polygon], budget: Int) {
            self.polys = polys
            self.budget = budget
            out.reserveCapacity(polys.count)
        }

        /// Planes that do not overlap on screen cannot hide one another, so only groups of
        /// overlapping planes are ordered among themselves, which keeps splits (and their cost)
        /// to planes that can really cross.
        mutating func order(_ list: [Int]) {
            guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { order(list) } }
            guard !list.isEmpty else { return }
            if budget <= 0 {
                // Out of splits: back to front by the depth of each plane's centre, ties in order.
                let depths: [Double] = list.map { i in
                    polys[i].points.reduce(0.0) { (sum: Double, q) in sum + q.z } / Double(polys[i].points.count)
                }
                out += list.indices.sorted { a, b in depths[a] != depths[b] ? depths[a] < depths[b] : a < b }.map { list[$0] }
                return
            }
            if list.count == 1 { return out.append(list[0]) }
            let (group, count) = overlapGroups(list.map { polys[$0].box })
            guard count > 1 else { return split(list) }
            var groups = [[Int]](repeating: [], count: count)
            for (i, g) in zip(list, group) { groups[g].append(i) }
            for g in groups { split(g) }
        }

        /// A node: the splitter is the first plane facing the eye squarely (2D layers share that
        /// plane, so it splits the fewest), else the first. What lies in front of it is ordered
        /// before what lies behind it (the order the split budget is spent in); the eye's side
        /// then decides which of the two is drawn first.
        private mutating func split(_ list: [Int]) {
            budget -= list.count
            let rootSlot = list.firstIndex { abs(polys[$0].normal.z) > 1 - 1e-12 } ?? 0
            let root = polys[list[rootSlot]]
            var coplanar = [list[rootSlot]], front: [Int] = [], back: [Int] = []
            for (k, i) in list.enumerated() where k != rootSlot {
                // The extremes as `max()` and `min()` of the distances find them, without an
                // array of them for each polygon classified: only a split needs them all.
                let points = polys[i].points
                var hi = root.distance(points[0]), lo = hi
                for p in points.dropFirst() {
                    let d = root.distance(p)
                    if hi < d { hi = d }
                    if d < lo { lo = d }
                }
                if hi <= thickness && lo >= -thickness {
                    coplanar.append(i)
                } else if lo >= -thickness {
                    front.append(i)
                } else if hi <= thickness {
                    back.append(i)
                } else {
                    budget -= 1
                    let q = polys[i]
                    let (f, b) = DepthSorter.split(q, points.map { root.distance($0) })
                    if f.count >= 3 {
                        front.append(polys.count)
                        polys.append(Polygon(from: q, points: f, extra: q.localHalfPlane(of: root, back: false)))
                    }
                    if b.count >= 3 {
                        back.append(polys.count)
                        polys.append(Polygon(from: q, points: b, extra: q.localHalfPlane(of: root, back: true)))
                    }
                }
            }
            coplanar.sort { polys[$0].plane < polys[$1].plane }
            let start = out.count
            order(front)
            let frontEnd = out.count
            out += coplanar
            let coplanarEnd = out.count
            order(back)
            // Written front, coplanar, back; the eye on the front side (the splitter's normal
            // towards +z, the eye looking down -z from +z) sees back, coplanar, front.
            guard root.normal.z >= 0 else { return }
            let backCount = out.count - coplanarEnd, coplanarCount = coplanarEnd - frontEnd
            out[start...].reverse()
            out[start..<start + backCount].reverse()
            out[start + backCount..<start + backCount + coplanarCount].reverse()
            out[(start + backCount + coplanarCount)...].reverse()
        }
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
