import Foundation

/// The names of Core Animation's predefined timing functions (`CAMediaTimingFunctionName`).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The scene-file and Core Animation spelling, e.g. `"easeIn"`.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// (0, 0, 1, 1): constant speed.
    public static let linear = Self(rawValue: "linear")
    /// (0.42, 0, 1, 1): starts slowly.
    public static let easeIn = Self(rawValue: "easeIn")
    /// (0, 0, 0.58, 1): ends slowly.
    public static let easeOut = Self(rawValue: "easeOut")
    /// (0.42, 0, 0.58, 1): starts and ends slowly.
    public static let easeInEaseOut = Self(rawValue: "easeInEaseOut")
    /// (0.25, 0.1, 0.25, 1): the system default for implicit animations.
    public static let `default` = Self(rawValue: "default")

    /// The two inner control points of each name.
    package static let controlPoints: [Self: [Float]] = [
        .linear: [0, 0, 1, 1], .easeIn: [0.42, 0, 1, 1], .easeOut: [0, 0, 0.58, 1],
        .easeInEaseOut: [0.42, 0, 0.58, 1], .default: [0.25, 0.1, 0.25, 1],
    ]
}

/// The pacing of an animation: a cubic Bézier from (0, 0) to (1, 1) whose x is the elapsed
/// fraction and y the eased fraction (Core Animation's `CAMediaTimingFunction`).
open class CAMediaTimingFunction: @unchecked Sendable, Equatable {
    /// c1x, c1y, c2x, c2y.
    package let points: [Float]

    /// One of the predefined functions; an unknown name gives `linear`.
    public convenience init(name: CAMediaTimingFunctionName) {
        let p = CAMediaTimingFunctionName.controlPoints[name] ?? [0, 0, 1, 1]
        self.init(controlPoints: p[0], p[1], p[2], p[3])
    }

    /// A function with control points (c1x, c1y) and (c2x, c2y); x values are clamped to 0…1
    /// so that x grows monotonically, as Core Animation requires.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        points = [min(max(c1x, 0), 1), c1y, min(max(c2x, 0), 1), c2y]
    }

    /// Control point `idx` (0…3: (0,0), c1, c2, (1,1)) written into `ptr[0]`, `ptr[1]`.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        switch idx {
        case 1: ptr[0] = points[0]
            ptr[1] = points[1]
        case 2: ptr[0] = points[2]
            ptr[1] = points[3]
        case 3: ptr[0] = 1
            ptr[1] = 1
        default: ptr[0] = 0
            ptr[1] = 0
        }
    }

    /// Equal when the control points are.
    public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool { a.points == b.points }

    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
    }

    /// The eased fraction for elapsed fraction `x` (clamped to 0…1): solves the curve's x(s) = x
    /// to 1e-7 by bisection (x(s) is monotonic) and returns y(s).
    package func evaluate(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let (x1, y1, x2, y2) = (Double(points[0]), Double(points[1]), Double(points[2]), Double(points[3]))
        if x1 == y1, x2 == y2 { return x }
        var lo = 0.0, hi = 1.0, s = x
        for _ in 0..<64 {
            s = (lo + hi) / 2
            let xs = Self.bezier(s, x1, x2)
            if abs(xs - x) < 1e-12 { break }
            if xs < x { lo = s } else { hi = s }
        }
        return Self.bezier(s, y1, y2)
    }
}
