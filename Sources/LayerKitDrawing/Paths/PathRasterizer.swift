import Foundation

/// Fills paths into coverage on the CPU, once, so both backends draw the same pixels: shadow
/// paths, and the fills and (outlined, see `PathStroker`) strokes of shape layers.
///
/// Curves are flattened to lines within 0.1 pixel; coverage is the mean, over 4 rows through
/// each pixel, of the exact length of the row inside the polygons under the fill rule, so edges
/// are antialiased.
package enum PathRasterizer {
    static let samples = 4

    /// A point in pixel space.
    typealias Point = SIMD2<Double>

    /// One flattened subpath: its corners in order, and whether `closeSubpath` ended it (a
    /// stroke joins a closed subpath's last point to its first; a fill closes every subpath).
    struct Polyline {
        var points: [Point]
        var closed: Bool
    }

    /// A white (premultiplied: coverage in every channel) image of `rect` at `scale` pixels per
    /// unit, with `path` (in the same units) filled.
    package static func fill(_ path: CGPath, rule: CAShapeLayerFillRule, into rect: CGRect, scale: Double) -> CGImage {
        let w = max(Int((Double(rect.width) * scale).rounded(.up)), 1)
        let h = max(Int((Double(rect.height) * scale).rounded(.up)), 1)
        let origin = Point(Double(rect.minX), Double(rect.minY))
        let polygons = polylines(path) { (Point(Double($0.x), Double($0.y)) - origin) * scale }.map(\.points)
        let cover = coverage(of: polygons, rule: rule, width: w, height: h)
        var bmp = Bitmap(width: w, height: h)
        cover.forEachPixel { x, y, v in
            let i = y * w + x
            bmp.pixels[i * 4] = v
            bmp.pixels[i * 4 + 1] = v
            bmp.pixels[i * 4 + 2] = v
            bmp.pixels[i * 4 + 3] = v
        }
        return CGImage(bitmap: bmp, source: "path")
    }

    /// The subpaths of `path` flattened to polylines in mapped (pixel) coordinates.
    ///
    /// Each curve gets enough segments that the chords stay within about 0.1 pixel, and at
    /// least enough that no segment turns by more than `maxTurn` radians: a stroke's outline
    /// lies half a line width away from the curve, where the same chords err further.
    static func polylines(_ path: CGPath, maxTurn: Double = .infinity, map: (CGPoint) -> Point) -> [Polyline] {
        var result: [Polyline] = []
        var current: Polyline? = nil
        var start = Point.zero
        func finish() {
            if let c = current { result.append(c) }
            current = nil
        }
        func line(to p: Point) {
            if current == nil { current = Polyline(points: [start], closed: false) }
            current!.points.append(p)
        }
        func curve(_ pts: [Point]) {
            var len = 0.0, turn = 0.0
            for i in 1..<pts.count { len += (pts[i] - pts[i - 1]).length }
            for i in 1..<(pts.count - 1) { turn += angle(pts[i] - pts[i - 1], pts[i + 1] - pts[i]) }
            var steps = max(1, segmentCount((len / 2).squareRoot().rounded(.up) * 2))
            if maxTurn < .infinity { steps = max(steps, segmentCount((turn / maxTurn).rounded(.up))) }
            for s in 1...steps {
                let t = Double(s) / Double(steps), u = 1 - t
                if pts.count == 3 {
                    line(to: u * u * pts[0] + 2 * u * t * pts[1] + t * t * pts[2])
                } else {
                    line(to: u * u * u * pts[0] + 3 * u * u * t * pts[1] + 3 * u * t * t * pts[2] + t * t * t * pts[3])
                }
            }
        }
        for e in path.elements {
            switch e {
            case .moveTo(let p):
                finish()
                start = map(p)
                current = Polyline(points: [start], closed: false)
            case .lineTo(let p): line(to: map(p))
            case .quadCurveTo(let p, let c): curve([current?.points.last ?? start, map(c), map(p)])
            case .curveTo(let p, let c1, let c2): curve([current?.points.last ?? start, map(c1), map(c2), map(p)])
            case .closeSubpath:
                // A later drawing command without a moveto starts a new subpath at this start.
                current?.closed = true
                finish()
            }
        }
        finish()
        return result
    }

    /// `estimate` segments, at most 1000; a non-finite estimate (a curve through infinite or
    /// enormous coordinates) gets the most, where converting it to `Int` would trap.
    static func segmentCount(_ estimate: Double) -> Int {
        estimate.isNaN ? 1000 : Int(min(max(estimate, 0), 1000))
    }

    /// The angle between two directions in radians, 0…π (0 for a zero vector).
    static func angle(_ a: Point, _ b: Point) -> Double {
        guard a.length > 0, b.length > 0 else { return 0 }
        return atan2(abs(a.cross(b)), a.dot(b))
    }

    /// Coverage 0…255 inside `polygons` (each implicitly closed, in pixel coordinates) under
    /// `rule`, for the pixels of a `width` x `height` grid (rows top to bottom), as runs.
    ///
    /// Each pixel row is `samples` sub-rows through the pixel at (k + 0.5) / samples; on each,
    /// the edges' crossings, sorted, give the spans inside under the rule, and each span adds
    /// its exact length within each pixel (fractions at its ends), a 1 / samples share of the
    /// pixel. So the work follows the edges and the covered spans, not the bounding box: a
    /// thin diagonal line costs its length.
    ///
    /// The crossings are kept in order from one sub-row to the next by an insertion sort, which
    /// costs one step per edge plus one per pair of edges that cross between the two sub-rows:
    /// little for a path's usual few crossings, but quadratic for many edges criss-crossing (a
    /// dense zigzag, random points). Past a budget of swaps the sub-row is sorted outright
    /// instead, so no sub-row costs more than O(k log k) for k active edges. `work`, when
    /// given, counts the steps (edge updates, swaps, and k⌈log₂ k⌉ for each outright sort), so
    /// that tests can check the bound by counting rather than timing.
    static func coverage(of polygons: [[Point]], rule: CAShapeLayerFillRule, width w: Int, height h: Int,
                         work: Work? = nil) -> Coverage {
        var result = Coverage()
        guard w > 0, h > 0 else { return result }
        let n = samples, share = 1 / Double(n), width = Double(w)
        let subRows = h * n
        // Edges (top, bottom, x at top, dx per y, direction), in order of the sub-row they
        // start on (the first whose y, (k + 0.5) / n, is at or below the top): a sub-row only
        // looks at the edges that span it. Counted into place, in two passes over the
        // polygons, so the edges are held once: within one sub-row the order does not matter,
        // the active edges being kept in order of their crossings. Those starting below the
        // last sub-row are left out.
        func forEachEdge(_ body: (Edge) -> Void) {
            for poly in polygons where poly.count > 1 {
                for i in 0..<poly.count {
                    let a = poly[i], b = poly[(i + 1) % poly.count]
                    guard a.y != b.y, a.x.isFinite, b.x.isFinite, !a.y.isNaN, !b.y.isNaN else { continue }
                    let (p, q, dir) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                    let start = Int(min(max((p.y * Double(n) - 0.5).rounded(.up), 0), Double(subRows)))
                    body(Edge(top: p.y, bottom: q.y, x: p.x, slope: (q.x - p.x) / (q.y - p.y), dir: dir, at: p.x, start: start))
                }
            }
        }
        var counts = [Int](repeating: 0, count: subRows + 1)
        forEachEdge { counts[$0.start] += 1 }
        var offset = 0
        for k in counts.indices { (counts[k], offset) = (offset, offset + counts[k]) }
        let kept = counts[subRows]
        let edges = [Edge](unsafeUninitializedCapacity: kept) { placed, count in
            forEachEdge { e in
                guard e.start < subRows else { return }
                placed.initializeElement(at: counts[e.start], to: e)
                counts[e.start] += 1
            }
            count = kept
        }
        guard !edges.isEmpty else { return result }
        // A pixel's coverage is `cell[x]` plus the sum of `step[0...x]`: a span adds its partial
        // end pixels to `cell` and its whole pixels between as one step up and one down, so a
        // long span costs two writes. Both are zero outside the row being built.
        var cell = [Double](repeating: 0, count: w + 1), step = [Double](repeating: 0, count: w + 1)
        // The edges crossing the current sub-row, in order of their crossings (`at`): from one
        // sub-row to the next few swap, so an insertion sort keeps them in order cheaply.
        var active: [Edge] = []
        // Whether the last sub-row's crossings were sorted outright.
        var sortedOutright = false
        // The smallest bottom among the active edges: no edge ends above it.
        var activeUntil = Double.infinity
        // The pixels each span of a sub-row touches, and the row's so far merged into runs
        // (apart, in order; `merged` is the merge's scratch list).
        var touched: [(from: Int, to: Int)] = [], rowRuns = touched, merged = touched
        let evenOdd = rule == .evenOdd
        var next = 0
        // Rows above the first edge are empty.
        var row = edges[0].start / n
        while row < h {
            let firstRun = result.runs.count
            // Whether the active edges stayed the same after the row's first sub-row.
            var steady = true
            sortedOutright = false
            for sub in 0..<n {
                let y = Double(row) + (Double(sub) + 0.5) * share
                while next < edges.count && edges[next].start <= row * n + sub {
                    active.append(edges[next])
                    activeUntil = min(activeUntil, edges[next].bottom)
                    next += 1
                    if sub > 0 { steady = false }
                }
                // After the additions: an edge may start and end between two sub-rows.
                if y >= activeUntil {
                    active.removeAll { $0.bottom <= y }
                    activeUntil = active.reduce(.infinity) { min($0, $1.bottom) }
                    if sub > 0 { steady = false }
                }
                // Sorting outright costs about k log₂ k; up to that many swaps the insertion sort
                // is the cheaper (and equal crossings' order does not change the coverage).
                let count = active.count, budget = count * max(log2Ceiling(count), 4)
                // The previous sub-row's order is the start, unless it had to be sorted outright
                // (its edges criss-cross): then within the pixel row this one is too.
                var swaps = sortedOutright ? budget + 1 : 0
                active.withUnsafeMutableBufferPointer { a in
                    var i = 0
                    while i < count && swaps <= budget {
                        a[i].at = a[i].x + (y - a[i].top) * a[i].slope
                        var j = i
                        while j > 0 && a[j].at < a[j - 1].at {
                            a.swapAt(j, j - 1)
                            j -= 1
                        }
                        swaps += i - j
                        i += 1
                    }
                    guard swaps > budget else { return }
                    for k in i..<count { a[k].at = a[k].x + (y - a[k].top) * a[k].slope }
                    a.sort { $0.at < $1.at }
                }
                sortedOutright = swaps > budget
                work?.steps += count + (sortedOutright ? count * log2Ceiling(count) : swaps)
                var winding = 0
                for i in 0..<max(active.count - 1, 0) {
                    winding += active[i].dir
                    guard evenOdd ? winding % 2 != 0 : winding != 0 else { continue }
                    let xa = max(active[i].at, 0), xb = min(active[i + 1].at, width)
                    guard xa < xb else { continue }
                    let first = Int(xa), last = Int(xb)
                    if first == last {
                        cell[first] += (xb - xa) * share
                    } else {
                        cell[first] += (Double(first + 1) - xa) * share
                        step[first + 1] += share
                        step[last] -= share
                        cell[last] += (xb - Double(last)) * share
                    }
                    touched.append((first, min(Int(xb.rounded(.up)), w)))
                }
                // The sub-row's spans come left to right: merged into the row's runs in one pass.
                if !touched.isEmpty {
                    merge(touched, into: &rowRuns, using: &merged)
                    touched.removeAll(keepingCapacity: true)
                }
            }
            for (from, to) in rowRuns {
                let start = result.values.count
                result.runs.append(Coverage.Run(y: row, x: from, start: start, count: to - from))
                result.values.append(contentsOf: repeatElement(0, count: to - from))
                result.values.withUnsafeMutableBufferPointer { values in
                    cell.withUnsafeMutableBufferPointer { cell in
                        step.withUnsafeMutableBufferPointer { step in
                            var sum = 0.0
                            for x in from..<to {
                                sum += step[x]
                                values[start + x - from] = UInt8(min(max(cell[x] + sum, 0), 1) * 255 + 0.5)
                                cell[x] = 0
                                step[x] = 0
                            }
                            cell[to] = 0
                            step[to] = 0
                        }
                    }
                }
            }
            rowRuns.removeAll(keepingCapacity: true)
            // Between events (an edge starting or ending), rows crossed only by vertical edges
            // (a rectangle's sides) are the same: the next ones share this row's values.
            if steady, !active.isEmpty, active.allSatisfy({ $0.slope == 0 }) {
                let nextStart = next < edges.count ? edges[next].start : subRows
                let runs = result.runs[firstRun...]
                while row + 1 < h && (row + 2) * n - 1 < nextStart && Double(row + 1) + (Double(n) - 0.5) * share < activeUntil {
                    row += 1
                    for r in runs { result.runs.append(Coverage.Run(y: row, x: r.x, start: r.start, count: r.count)) }
                }
            }
            if active.isEmpty {
                // Skip to the row of the next edge, or stop after the last.
                guard next < edges.count else { break }
                row = max(row + 1, edges[next].start / n)
            } else {
                row += 1
            }
        }
        return result
    }

    /// Merges `spans` (in order of their starts) into `runs` (in order, apart): their union,
    /// as runs apart (touching ones joined). `scratch` is working space.
    private static func merge(_ spans: [(from: Int, to: Int)], into runs: inout [(from: Int, to: Int)],
                              using scratch: inout [(from: Int, to: Int)]) {
        scratch.removeAll(keepingCapacity: true)
        var i = 0, j = 0
        while i < spans.count || j < runs.count {
            let next: (from: Int, to: Int)
            if j == runs.count || (i < spans.count && spans[i].from < runs[j].from) {
                next = spans[i]
                i += 1
            } else {
                next = runs[j]
                j += 1
            }
            if let last = scratch.last, next.from <= last.to {
                scratch[scratch.count - 1].to = max(last.to, next.to)
            } else {
                scratch.append(next)
            }
        }
        swap(&runs, &scratch)
    }

    /// ⌈log₂(n + 1)⌉: the bits of `n`.
    private static func log2Ceiling(_ n: Int) -> Int { Int.bitWidth - n.leadingZeroBitCount }

    /// A count of the sweep's steps (see `coverage`).
    package final class Work {
        package var steps = 0
        package init() {}
    }

    /// One polygon edge, from its top (smaller y) to its bottom.
    struct Edge {
        var top: Double, bottom: Double
        /// x at `top`, and its change per unit of y.
        var x: Double, slope: Double
        /// +1 for an edge running down, -1 up, for the winding number.
        var dir: Int
        /// x where the edge crosses the current sub-row.
        var at: Double
        /// The first sub-row (counted from the top, `samples` a pixel row) that crosses it.
        var start: Int
    }
}

/// Coverage 0…255 of pixels as runs along rows, so that what uses it touches only the pixels
/// a path reaches.
package struct Coverage {
    /// Pixels `x ..< x + count` of row `y`, whose coverage is `values[start ..< start + count]`.
    struct Run {
        var y: Int, x: Int, start: Int, count: Int
    }
    var runs: [Run] = []
    var values: [UInt8] = []

    init() {}

    /// The coverage of a `w` x `h` box of `values` (row by row) whose top left pixel is
    /// (`x0`, `y0`): one run per row.
    init(box values: [UInt8], x0: Int, y0: Int, w: Int, h: Int) {
        self.values = values
        runs = (0..<h).map { Run(y: y0 + $0, x: x0, start: $0 * w, count: w) }
    }

    /// The same coverage moved by (`dx`, `dy`) pixels.
    func offsetBy(dx: Int, dy: Int) -> Coverage {
        var c = self
        for i in c.runs.indices {
            c.runs[i].x += dx
            c.runs[i].y += dy
        }
        return c
    }

    /// The smallest box holding every run: (x0, y0, x1, y1), `nil` when there are none.
    var bounds: (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard let first = runs.first, let last = runs.last else { return nil }
        var x0 = Int.max, x1 = Int.min
        for r in runs {
            x0 = min(x0, r.x)
            x1 = max(x1, r.x + r.count)
        }
        return (x0, first.y, x1, last.y + 1)
    }

    /// Calls `body(x, y, coverage)` for each pixel with some coverage, row by row.
    @inline(__always)
    func forEachPixel(_ body: (_ x: Int, _ y: Int, _ coverage: UInt8) -> Void) {
        for r in runs {
            for j in 0..<r.count {
                let k = values[r.start + j]
                if k > 0 { body(r.x + j, r.y, k) }
            }
        }
    }
}

/// The little vector algebra the path code needs (Linux has no `simd` module).
extension SIMD2 where Scalar == Double {
    /// Euclidean length.
    var length: Double { (x * x + y * y).squareRoot() }
    /// The z component of the 3D cross product: positive when `b` turns clockwise from `self`
    /// on the y-down screen.
    func cross(_ b: Self) -> Double { x * b.y - y * b.x }
    /// Dot product.
    func dot(_ b: Self) -> Double { x * b.x + y * b.y }
}
