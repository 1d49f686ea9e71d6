import Foundation

/// A Bézier curve of degree 1 to 3 over vectors, with its arc length tabulated once so that
/// paced keyframes find a point at a given distance in a few steps.
struct BezierPiece {
    /// The control points, start first.
    let points: [[Double]]
    /// The derivative's control points (the degree times the differences).
    private let hodograph: [[Double]]
    /// Arc length from the start to `k / steps`, for k = 0…steps.
    private let table: [Double]
    private static let steps = 32

    init(_ points: [[Double]]) {
        self.points = points
        let n = Double(points.count - 1)
        hodograph = zip(points, points.dropFirst()).map { a, b in zip(b, a).map { ($0 - $1) * n } }
        var table = [0.0]
        if points.count == 2 {
            let length = Self.norm(hodograph[0])
            table += (1...Self.steps).map { length * Double($0) / Double(Self.steps) }
        } else {
            for k in 0..<Self.steps {
                let a = Double(k) / Double(Self.steps)
                table.append(table[k] + Self.integrate(hodograph, from: a, to: a + 1 / Double(Self.steps)))
            }
        }
        self.table = table
    }

    var length: Double { table[Self.steps] }

    func point(at u: Double) -> [Double] { Self.evaluate(points, u) }

    func derivative(at u: Double) -> [Double] { Self.evaluate(hodograph, u) }

    /// The parameter at arc length `s` from the start: the table's interval, then Newton's
    /// method on the speed (bisection where Newton would leave the interval).
    func parameter(atLength s: Double) -> Double {
        if s <= 0 { return 0 }
        if s >= length { return 1 }
        if points.count == 2 { return s / length }
        let k = min(max((table.lastIndex { $0 <= s } ?? 0), 0), Self.steps - 1)
        var lo = Double(k) / Double(Self.steps), hi = Double(k + 1) / Double(Self.steps)
        let base = table[k], start = lo
        var u = lo + (hi - lo) * (s - base) / max(table[k + 1] - base, .leastNormalMagnitude)
        for _ in 0..<24 {
            let error = base + Self.integrate(hodograph, from: start, to: u) - s
            if abs(error) < 1e-12 * max(length, 1) { break }
            if error > 0 { hi = u } else { lo = u }
            let speed = Self.norm(derivative(at: u))
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
    private static func integrate(_ hodograph: [[Double]], from a: Double, to b: Double) -> Double {
        let h = b - a
        return gaussLegendre5.reduce(0) { $0 + $1.1 * h / 2 * norm(evaluate(hodograph, a + h * ($1.0 + 1) / 2)) }
    }

    static func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }

    /// The Bernstein form at `u` (degree 0 to 3).
    private static func evaluate(_ p: [[Double]], _ u: Double) -> [Double] {
        let v = 1 - u
        switch p.count {
        case 1: return p[0]
        case 2: return (0..<p[0].count).map { v * p[0][$0] + u * p[1][$0] }
        case 3: return (0..<p[0].count).map { v * v * p[0][$0] + 2 * v * u * p[1][$0] + u * u * p[2][$0] }
        default:
            return (0..<p[0].count).map { v * v * v * p[0][$0] + 3 * v * v * u * p[1][$0] + 3 * v * u * u * p[2][$0] + u * u * u * p[3][$0] }
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
struct KeyframeCurve {
    /// The keyframe values: the start of the first segment and the end of each.
    let keyframes: [AnimatedValue]
    let segments: [KeyframeSegment]
    /// Each segment's arc length.
    let lengths: [Double]

    private init(keyframes: [AnimatedValue], segments: [KeyframeSegment]) {
        self.keyframes = keyframes
        self.segments = segments
        lengths = segments.map(\.length)
    }

    /// The curve through `values`: vectors of one length are joined by straight segments, or
    /// with `spline` (tension, continuity, bias per keyframe) by Kochanek–Bartels pieces whose
    /// end points are their own outer neighbours; other values are mixed.
    init(values v: [AnimatedValue], spline: ([NSNumber]?, [NSNumber]?, [NSNumber]?)?) {
        let vectors = v.compactMap(\.components)
        guard vectors.count == v.count, Set(vectors.map(\.count)).count <= 1 else {
            self.init(keyframes: v, segments: zip(v, v.dropFirst()).map { .mix($0, $1) })
            return
        }
        let n = vectors.count
        self.init(keyframes: v, segments: (0..<max(n - 1, 0)).map { i in
            let p1 = vectors[i], p2 = vectors[i + 1]
            guard let spline else { return .bezier(BezierPiece([p1, p2])) }
            let p0 = vectors[max(i - 1, 0)], p3 = vectors[min(i + 2, n - 1)]
            func param(_ list: [NSNumber]?, _ k: Int) -> Double { list.map { k < $0.count ? $0[k].doubleValue : 0 } ?? 0 }
            let (t1, c1, b1) = (param(spline.0, i), param(spline.1, i), param(spline.2, i))
            let (t2, c2, b2) = (param(spline.0, i + 1), param(spline.1, i + 1), param(spline.2, i + 1))
            // The Hermite tangents leaving p1 and entering p2, as Bézier control points a third
            // of the tangent away.
            let out = (0..<p1.count).map { k in
                (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k]) + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[k] - p1[k])
            }
            let into = (0..<p1.count).map { k in
                (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k]) + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[k] - p2[k])
            }
            return .bezier(BezierPiece([p1, zip(p1, out).map { $0 + $1 / 3 }, zip(p2, into).map { $0 - $1 / 3 }, p2]))
        })
    }

    /// The curve along `path`: a segment per line, curve and close (a close returns to its
    /// subpath's start); a move-to starts the next segment elsewhere without being one.
    init(path: CGPath) {
        var segments: [KeyframeSegment] = []
        var current = [0.0, 0.0], start = current
        func v(_ p: CGPoint) -> [Double] { [Double(p.x), Double(p.y)] }
        for element in path.elements {
            switch element {
            case let .moveTo(p): current = v(p)
                start = current
            case let .lineTo(p): segments.append(.bezier(BezierPiece([current, v(p)])))
                current = v(p)
            case let .quadCurveTo(p, c): segments.append(.bezier(BezierPiece([current, v(c), v(p)])))
                current = v(p)
            case let .curveTo(p, c1, c2): segments.append(.bezier(BezierPiece([current, v(c1), v(c2), v(p)])))
                current = v(p)
            case .closeSubpath: segments.append(.bezier(BezierPiece([current, start])))
                current = start
            }
        }
        let first: [Double]
        if case let .bezier(b)? = segments.first { first = b.points[0] } else { first = current }
        let ends = segments.map { segment -> AnimatedValue in
            if case let .bezier(b) = segment { return .components(b.points[b.points.count - 1]) }
            return segment.value(at: 1)
        }
        self.init(keyframes: [.components(first)] + ends, segments: segments)
    }

    /// The segment and its parameter at eased progress `p`: paced by arc length over the
    /// whole curve, or else by the key times (`nil` or a list of the wrong length: evenly
    /// spaced) with the segment's timing function easing its local fraction.
    func locate(_ p: Double, paced: Bool, keyTimes: [Double]?, easing: [CAMediaTimingFunction]?) -> (segment: Int, u: Double)? {
        let n = segments.count
        guard n > 0 else { return nil }
        let total = lengths.reduce(0, +)
        if paced, total > 0 {
            let s = min(max(p, 0), 1) * total
            var before = 0.0
            for i in 0..<n {
                if s <= before + lengths[i] || i == n - 1 {
                    return (i, segments[i].parameter(atLength: s - before))
                }
                before += lengths[i]
            }
        }
        let times = !paced && keyTimes?.count == n + 1 ? keyTimes! : (0...n).map { Double($0) / Double(n) }
        if p <= times[0] { return (0, 0) }
        if p >= times[n] { return (n - 1, 1) }
        let i = min(times.lastIndex { $0 <= p } ?? 0, n - 1)
        let span = times[i + 1] - times[i]
        var local = span > 0 ? (p - times[i]) / span : 1
        if !paced, let easing, i < easing.count { local = easing[i].evaluate(local) }
        return (i, local)
    }
}
