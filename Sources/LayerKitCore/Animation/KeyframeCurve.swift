import Foundation

/// A Bézier curve of degree 1 to 3 over vectors, with its arc length tabulated once so that
/// paced keyframes find a point at a given distance in a few steps.
///
/// Points are kept as one flat list of coordinates and the speed is evaluated without making
/// vectors, so measuring a million pieces allocates nothing per piece.
struct BezierPiece {
    /// The control points' coordinates, start first, `dimension` to a point.
    let coordinates: [Double]
    let dimension: Int
    /// The derivative's control points (the degree times the differences), laid out alike.
    private let hodograph: [Double]
    /// Arc length from the start to `k / steps`, for k = 0…steps.
    private let table: [Double]
    private static let steps = 32

    /// `lengthScale` (a power of two, 1 unless the coordinates are huge) scales the derivative,
    /// and so every length: pacing needs only their proportions and tangents only directions,
    /// and coordinates near 1e308 apart would overflow their differences and squares.
    init(_ coordinates: [Double], dimension: Int, lengthScale: Double = 1) {
        self.coordinates = coordinates
        self.dimension = dimension
        let n = Double(coordinates.count / dimension - 1)
        let hodograph = (dimension..<coordinates.count).map {
            (coordinates[$0] * lengthScale - coordinates[$0 - dimension] * lengthScale) * n
        }
        var table = [0.0]
        if coordinates.count == 2 * dimension {
            let length = Self.norm(hodograph, dimension, 0)
            table += (1...Self.steps).map { length * Double($0) / Double(Self.steps) }
        } else {
            for k in 0..<Self.steps {
                let a = Double(k) / Double(Self.steps)
                table.append(table[k] + Self.integrate(hodograph, dimension, from: a, to: a + 1 / Double(Self.steps)))
            }
        }
        self.hodograph = hodograph
        self.table = table
    }

    /// The control points as vectors, start first.
    var points: [[Double]] {
        stride(from: 0, to: coordinates.count, by: dimension).map { Array(coordinates[$0..<$0 + dimension]) }
    }

    var length: Double { table[Self.steps] }

    func point(at u: Double) -> [Double] { (0..<dimension).map { Self.evaluate(coordinates, dimension, u, $0) } }

    func derivative(at u: Double) -> [Double] { (0..<dimension).map { Self.evaluate(hodograph, dimension, u, $0) } }

    /// The parameter at arc length `s` from the start: the table's interval, then Newton's
    /// method on the speed (bisection where Newton would leave the interval).
    func parameter(atLength s: Double) -> Double {
        if s <= 0 { return 0 }
        if s >= length { return 1 }
        if coordinates.count == 2 * dimension { return s / length }
        let k = min(max((table.lastIndex { $0 <= s } ?? 0), 0), Self.steps - 1)
        var lo = Double(k) / Double(Self.steps), hi = Double(k + 1) / Double(Self.steps)
        let base = table[k], start = lo
        var u = lo + (hi - lo) * (s - base) / max(table[k + 1] - base, .leastNormalMagnitude)
        for _ in 0..<24 {
            let error = base + Self.integrate(hodograph, dimension, from: start, to: u) - s
            if abs(error) < 1e-12 * max(length, 1) { break }
            if error > 0 { hi = u } else { lo = u }
            let speed = Self.norm(hodograph, dimension, u)
            let next = speed > 0 ? u - error / speed : .nan
            u = next > lo && next < hi ? next : (lo + hi) / 2
        }
        return u
    }

    private static let gaussLegendre5: [(Double, Double)] = [
        (0, 0.568_888_888_888_888_9),
        (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5), (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
        (-0.906_179_845_938_664_0, 0.236_926_885_056_189_1), (0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
    ]

    /// The arc length between two parameters: 5-point Gauss–Legendre on the speed, exact to
    /// rounding for the smooth speeds of short pieces of cubics.
    private static func integrate(_ hodograph: [Double], _ dimension: Int, from a: Double, to b: Double) -> Double {
        let h = b - a
        return gaussLegendre5.reduce(0) { $0 + $1.1 * h / 2 * norm(hodograph, dimension, a + h * ($1.0 + 1) / 2) }
    }

    static func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }

    /// The length of the Bézier curve with control points `p` (flat, `d` coordinates a point)
    /// at `u`: the speed, for a hodograph.
    private static func norm(_ p: [Double], _ d: Int, _ u: Double) -> Double {
        var sum = 0.0
        for k in 0..<d {
            let c = evaluate(p, d, u, k)
            sum = sum + c * c
        }
        return sum.squareRoot()
    }

    /// Coordinate `k` of the Bernstein form at `u` (degree 0 to 3) of control points `p`
    /// (flat, `d` coordinates a point).
    private static func evaluate(_ p: [Double], _ d: Int, _ u: Double, _ k: Int) -> Double {
        let v = 1 - u
        switch p.count / d {
        case 1: return p[k]
        case 2: return v * p[k] + u * p[d + k]
        case 3: return v * v * p[k] + 2 * v * u * p[d + k] + u * u * p[2 * d + k]
        default: return v * v * v * p[k] + 3 * v * v * u * p[d + k] + 3 * v * u * u * p[2 * d + k] + u * u * u * p[3 * d + k]
        }
    }
}

/// The piece of a keyframe animation between two neighbouring keyframes.
enum KeyframeSegment {
    /// Vector values along a Bézier curve: a straight segment, a path's curve, or a `cubic`
    /// spline piece.
    case bezier(BezierPiece)
    /// Values that are not vectors of one length, mixed by `AnimatedValueKind.interpolate`.
    case mix(AnimatedValue, AnimatedValue)

    /// The value at the segment's own parameter `u` in 0…1.
    func value(at u: Double) -> AnimatedValue {
        switch self {
        case let .bezier(b): return .components(b.point(at: u))
        case let .mix(a, b): return AnimatedValueKind.interpolate(a, b, u)
        }
    }

    /// The direction of travel at `u`, or `nil` for mixed values and segments that do not move.
    /// Where the derivative vanishes (a control point on its end point) the direction is taken
    /// from the next distinct control point, as the curve leaves along it.
    func tangent(at u: Double) -> [Double]? {
        guard case let .bezier(b) = self else { return nil }
        let d = b.derivative(at: u)
        if BezierPiece.norm(d) > 1e-12 { return d }
        let from = u < 0.5 ? b.points : b.points.reversed()
        guard let other = from.dropFirst().first(where: { BezierPiece.norm(zip($0, from[0]).map { $0 - $1 }) > 1e-12 }) else { return nil }
        let chord = zip(other, from[0]).map { $0 - $1 }
        return u < 0.5 ? chord : chord.map { -$0 }
    }

    /// The arc length (for mixed values, their distance).
    var length: Double {
        switch self {
        case let .mix(a, b): return AnimatedValueKind.distance(a, b)
        case let .bezier(b): return b.length
        }
    }

    /// The parameter at arc length `s` from the start.
    func parameter(atLength s: Double) -> Double {
        switch self {
        case let .bezier(b): return b.parameter(atLength: s)
        case .mix: return length > 0 ? min(max(s / length, 0), 1) : 0
        }
    }
}

/// The keyframes of a `CAKeyframeAnimation` and the segments between them, built once from its
/// `values` (straight or `cubic` pieces) or its `path` (each element but a move-to is a
/// segment, followed by its own parameter).
///
/// Built in time and memory linear in the keyframes, and evaluated in O(log n): vector
/// segments keep only their control points, in one flat list, and the distance along the curve
/// to each, so a paced position is a binary search; a segment's arc-length table is made when
/// a position falls in it (the last one is kept, as frames mostly stay in one).
package struct KeyframeCurve {
    /// The keyframe values: the start of the first segment and the end of each.
    package let keyframes: [AnimatedValue]
    /// How the segments are stored.
    private enum Storage {
        /// Bézier segments: segment i's control points are `coordinates[offsets[i] ..<
        /// offsets[i + 1]]`, `dimension` coordinates a point.
        case bezier(coordinates: [Double], offsets: [Int], dimension: Int, lengthScale: Double)
        /// Values that are not vectors of one length: segment i mixes keyframes i and i + 1.
        case mix
    }
    private let storage: Storage
    /// `distances[i]`: the arc length of the segments before segment i, added in order
    /// (`distances[segmentCount]` is the whole length).
    private let distances: [Double]
    /// The segment last asked for, with its arc-length table, and the work done since setup.
    let scratch = Scratch()

    final class Scratch {
        var index = -1
        var segment: KeyframeSegment?
        /// Segments made (each with its arc-length table) after setup.
        var segmentsMade = 0
        /// Entries looked at by the searches for a segment or key time: tests check the
        /// O(log n) bound by counting them, never by timing.
        var entriesCompared = 0
    }

    /// How many segments join the keyframes.
    let segmentCount: Int

    private init(keyframes: [AnimatedValue], storage: Storage) {
        self.keyframes = keyframes
        self.storage = storage
        switch storage {
        case let .bezier(_, offsets, _, _): segmentCount = offsets.count - 1
        case .mix: segmentCount = max(keyframes.count - 1, 0)
        }
        var distances = [0.0]
        distances.reserveCapacity(segmentCount + 1)
        for i in 0..<segmentCount { distances.append(distances[i] + Self.makeSegment(i, storage, keyframes).length) }
        self.distances = distances
    }

    private static func makeSegment(_ i: Int, _ storage: Storage, _ keyframes: [AnimatedValue]) -> KeyframeSegment {
        switch storage {
        case let .bezier(coordinates, offsets, dimension, lengthScale):
            return .bezier(BezierPiece(Array(coordinates[offsets[i]..<offsets[i + 1]]), dimension: dimension, lengthScale: lengthScale))
        case .mix: return .mix(keyframes[i], keyframes[i + 1])
        }
    }

    /// The power of two that brings the largest coordinate to at most 2^400 (1 when it is
    /// already there, so ordinary curves measure bit for bit as ever): differences then stay
    /// below 2^401 and a million squared ones sum far below `Double`'s range.
    private static func lengthScale(_ coordinates: [Double]) -> Double {
        let largest = coordinates.reduce(0) { max($0, abs($1)) }
        guard largest.isFinite, largest > 0x1p400 else { return 1 }
        return Double(sign: .plus, exponent: 400 - largest.exponent, significand: 1)
    }

    /// Segment `i`, `0 ..< segmentCount`.
    func segment(_ i: Int) -> KeyframeSegment {
        if scratch.index == i, let segment = scratch.segment { return segment }
        let segment = Self.makeSegment(i, storage, keyframes)
        scratch.segmentsMade += 1
        scratch.index = i
        scratch.segment = segment
        return segment
    }

    /// The curve through `values`: vectors of one length are joined by straight segments, or
    /// with `spline` (tension, continuity, bias per keyframe) by Kochanek–Bartels pieces whose
    /// end points are their own outer neighbours; other values are mixed.
    init(values v: [AnimatedValue], spline: ([NSNumber]?, [NSNumber]?, [NSNumber]?)?) {
        let vectors = v.compactMap(\.components)
        // Empty lists (a `locations` animation through []) have no coordinates to join: they mix.
        guard vectors.count == v.count, let d = vectors.first?.count, d > 0, vectors.allSatisfy({ $0.count == d }) else {
            self.init(keyframes: v, storage: .mix)
            return
        }
        let n = vectors.count
        var coordinates: [Double] = [], offsets = [0]
        coordinates.reserveCapacity(max(n - 1, 0) * (spline == nil ? 2 : 4) * d)
        offsets.reserveCapacity(n)
        for i in 0..<max(n - 1, 0) {
            let p1 = vectors[i], p2 = vectors[i + 1]
            defer { offsets.append(coordinates.count) }
            guard let spline else {
                coordinates += p1
                coordinates += p2
                continue
            }
            let p0 = vectors[max(i - 1, 0)], p3 = vectors[min(i + 2, n - 1)]
            func param(_ list: [NSNumber]?, _ k: Int) -> Double { list.map { k < $0.count ? $0[k].doubleValue : 0 } ?? 0 }
            let (t1, c1, b1) = (param(spline.0, i), param(spline.1, i), param(spline.2, i))
            let (t2, c2, b2) = (param(spline.0, i + 1), param(spline.1, i + 1), param(spline.2, i + 1))
            // The Hermite tangents leaving p1 and entering p2, as Bézier control points a third
            // of the tangent away.
            coordinates += p1
            for k in 0..<d {
                let out = (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k]) + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[k] - p1[k])
                coordinates.append(p1[k] + out / 3)
            }
            for k in 0..<d {
                let into = (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k]) + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[k] - p2[k])
                coordinates.append(p2[k] - into / 3)
            }
            coordinates += p2
        }
        self.init(keyframes: v, storage: .bezier(coordinates: coordinates, offsets: offsets, dimension: d,
                                                 lengthScale: Self.lengthScale(coordinates)))
    }

    /// The curve along `path`: a segment per line, curve and close (a close returns to its
    /// subpath's start); a move-to starts the next segment elsewhere without being one.
    package init(path: CGPath) {
        var coordinates: [Double] = [], offsets = [0], keyframes: [AnimatedValue] = []
        var current = CGPoint.zero, start = current
        func add(_ points: CGPoint...) {
            if keyframes.isEmpty { keyframes.append(.components([Double(current.x), Double(current.y)])) }
            for p in [current] + points { coordinates += [Double(p.x), Double(p.y)] }
            offsets.append(coordinates.count)
            current = points[points.count - 1]
            keyframes.append(.components([Double(current.x), Double(current.y)]))
        }
        for element in path.elements {
            switch element {
            case let .moveTo(p): current = p
                start = current
            case let .lineTo(p): add(p)
            case let .quadCurveTo(p, c): add(c, p)
            case let .curveTo(p, c1, c2): add(c1, c2, p)
            case .closeSubpath: add(start)
            }
        }
        if keyframes.isEmpty { keyframes.append(.components([Double(current.x), Double(current.y)])) }
        self.init(keyframes: keyframes, storage: .bezier(coordinates: coordinates, offsets: offsets, dimension: 2,
                                                         lengthScale: Self.lengthScale(coordinates)))
    }

    /// The segment and its parameter at eased progress `p`: paced by arc length over the
    /// whole curve, or else by the key times (`nil` or a list of the wrong length: evenly
    /// spaced) with the segment's timing function easing its local fraction. `keyTimes` must
    /// not decrease (`KeyTimes` checks).
    func locate(_ p: Double, paced: Bool, keyTimes: KeyTimes?, easing: [CAMediaTimingFunction]?) -> (segment: Int, u: Double)? {
        let n = segmentCount
        guard n > 0 else { return nil }
        let total = distances[n]
        if paced, total > 0 {
            let s = min(max(p, 0), 1) * total
            // The first segment whose end reaches s (the last one if none does).
            var lo = 0, hi = n - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                scratch.entriesCompared += 1
                if s <= distances[mid + 1] { hi = mid } else { lo = mid + 1 }
            }
            return (lo, segment(lo).parameter(atLength: s - distances[lo]))
        }
        let times = !paced && keyTimes?.count == n + 1 ? keyTimes! : KeyTimes(evenly: n)
        if p <= times[0] { return (0, 0) }
        if p >= times[n] { return (n - 1, 1) }
        let i = min(times.lastIndex(atOrBefore: p, counting: scratch) ?? 0, n - 1)
        let span = times[i + 1] - times[i]
        var local = span > 0 ? (p - times[i]) / span : 1
        if !paced, let easing, i < easing.count { local = easing[i].evaluate(local) }
        return (i, local)
    }
}

/// Key times, given or evenly spaced (k / n for k = 0…n, computed, not stored), searched in
/// O(log n) when they do not decrease, and in order otherwise (a program may set any list).
struct KeyTimes {
    private let given: [Double]?
    private let intervals: Int
    private let sorted: Bool

    init(_ times: [Double]) {
        given = times
        intervals = times.count - 1
        sorted = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
    }

    init(evenly n: Int) {
        given = nil
        intervals = n
        sorted = true
    }

    var count: Int { intervals + 1 }

    subscript(k: Int) -> Double { given?[k] ?? Double(k) / Double(intervals) }

    /// The last index whose time is at or before `p`, as `lastIndex { $0 <= p }`; the times
    /// looked at are counted in `work`.
    func lastIndex(atOrBefore p: Double, counting work: KeyframeCurve.Scratch) -> Int? {
        guard sorted else {
            work.entriesCompared += count
            return given!.lastIndex { $0 <= p }
        }
        // Times not after p come first: find how many.
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            work.entriesCompared += 1
            if self[mid] <= p { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? lo - 1 : nil
    }
}
