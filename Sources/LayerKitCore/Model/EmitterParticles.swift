// LayerKit's particle model (docs/scene-format.md, "The particle model"): Apple documents an
// emitter's properties but not how particles follow from them, so LayerKit defines it. Every
// particle is computed in closed form from the emitter's state and its time, with its own
// SplitMix64 generator, so a frame needs no history and the same seed gives the same
// particles on every machine. The step numbers below are the spec's.

import Foundation

/// The random numbers of one particle: SplitMix64 seeded from the emitter's `seed`, the cell's
/// index and the particle's index (step 3 of the particle model). All arithmetic wraps.
public struct ParticleRandom {
    /// The generator's state.
    public private(set) var state: UInt64

    private static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// SplitMix64's output function.
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The generator of particle `index` of cell `cell` of an emitter with seed `seed`.
    public init(seed: UInt32, cell: Int, index: Int) {
        var s = Self.mix(UInt64(seed) &+ Self.gamma)
        s = Self.mix(s ^ UInt64(cell))
        state = Self.mix(s ^ UInt64(index))
    }

    /// A generator in state `state` (SplitMix64's published sequence starts at 0).
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state = state &+ Self.gamma
        return Self.mix(state)
    }

    /// The next number uniform in [0, 1): the top 53 bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// One particle as drawn at the emitter's time.
public struct EmitterParticle: Equatable, Sendable {
    /// The index of its cell in the emitter's `emitterCells`.
    public var cell: Int
    /// Its number within its cell (particle i is born at i / R).
    public var index: Int
    /// When it was born, in the emitter's time.
    public var birthTime: Double
    /// Its centre in the emitter's bounds space.
    public var x: Double
    /// Its centre in the emitter's bounds space.
    public var y: Double
    /// Its z (orders `backToFront`; it moves nothing on screen).
    public var z: Double
    /// Its scale, S(a) > 0.
    public var scale: Double
    /// How far it has turned, in radians (positive is clockwise on the y-down canvas).
    public var rotation: Double
    /// Its straight colour, each component in 0…1.
    public var red: Double, green: Double, blue: Double, alpha: Double
}

extension EmitterStyle {
    /// Whether the emitter draws particles at all: a supported shape, `preservesDepth` false and
    /// at most `CAEmitterLayer.maximumLiveParticles` alive at once.
    public var drawsParticles: Bool {
        CAEmitterLayerEmitterShape.supportedCases.contains(emitterShape) && !preservesDepth
            && liveParticleBound <= Double(CAEmitterLayer.maximumLiveParticles)
    }

    /// The most particles the cells can have alive at once: Σ over the enabled cells with a
    /// positive rate R of ⌈R · Lmax⌉ + 1, where Lmax is the longest lifetime a particle of the
    /// cell can have (the spec's `layer.lifetime · (cell.lifetime + |lifetimeRange| / 2)` when
    /// the layer's lifetime is not negative). A `Double`: a huge rate must not overflow.
    public var liveParticleBound: Double {
        cells.reduce(0) { sum, cell in
            let r = rate(of: cell), l = longestLifetime(of: cell)
            return r > 0 && l > 0 ? sum + (r * l).rounded(.up) + 1 : sum
        }
    }

    private func rate(of cell: EmitterCellProperties) -> Double {
        cell.isEnabled ? Double(birthRate) * Double(cell.birthRate) : 0
    }

    private func longestLifetime(of cell: EmitterCellProperties) -> Double {
        let half = abs(Double(cell.lifetimeRange)) / 2
        return max(Double(lifetime) * (Double(cell.lifetime) + half), Double(lifetime) * (Double(cell.lifetime) - half), 0)
    }

    /// The particles drawn at `time`, in drawing order (`renderMode`): alive (0 ≤ age <
    /// lifetime) and with a scale above 0. None when `drawsParticles` is false, or at a time
    /// before 0 or at which a particle's number would pass 2^53 (where `Double` stops
    /// counting whole numbers).
    public func particles() -> [EmitterParticle] {
        let t = time
        guard t >= 0, t.isFinite, drawsParticles else { return [] }
        let shape = SpawnShape(self)
        var result: [EmitterParticle] = []
        for (ci, cell) in cells.enumerated() {
            let r = rate(of: cell), lmax = longestLifetime(of: cell)
            guard r > 0, lmax > 0, t * r < 0x1p53 else { continue }
            // Particle i lives from i / R; every one alive now lies in this window (one more
            // each side covers the rounding of t · R).
            let newest = Int((t * r).rounded(.down)) + 1
            let oldest = max(0, Int(((t - lmax) * r).rounded(.down)) - 1)
            guard oldest <= newest else { continue }
            result.reserveCapacity(result.count + newest - oldest + 1)
            let c = CellConstants(cell, of: self)
            for i in oldest...newest {
                let born = Double(i) / r
                guard born <= t, let p = c.particle(i, cell: ci, seed: seed, born: born, at: t, shape: shape) else { continue }
                result.append(p)
            }
        }
        switch renderMode {
        case .oldestFirst: result.sort(by: Self.olderFirst)
        case .oldestLast: result.sort { Self.olderFirst($1, $0) }
        case .backToFront: result.sort { $0.z != $1.z ? $0.z < $1.z : Self.olderFirst($0, $1) }
        default: break  // unordered, additive: cell by cell, oldest first, as made
        }
        return result
    }

    private static func olderFirst(_ a: EmitterParticle, _ b: EmitterParticle) -> Bool {
        if a.birthTime != b.birthTime { return a.birthTime < b.birthTime }
        return a.cell != b.cell ? a.cell < b.cell : a.index < b.index
    }

    /// Whether every number the particle model computes with is finite.
    var hasFiniteValues: Bool {
        birthRate.isFinite && lifetime.isFinite && velocity.isFinite && scale.isFinite && spin.isFinite
            && emitterPosition.isFiniteValue && emitterZPosition.isFinite && emitterSize.isFiniteValue && emitterDepth.isFinite
    }
}

/// The emission shape and mode (step 6), decided once per frame rather than per particle (the
/// constants compare as strings).
private struct SpawnShape {
    enum Kind { case point, linePoints, line, rectanglePoints, rectangleOutline, rectangleArea, circleOutline, circleArea }
    let kind: Kind
    let cx: Double, cy: Double, w: Double, h: Double

    init(_ e: EmitterStyle) {
        (cx, cy) = (Double(e.emitterPosition.x), Double(e.emitterPosition.y))
        (w, h) = (Double(e.emitterSize.width), Double(e.emitterSize.height))
        switch (e.emitterShape, e.emitterMode) {
        case (.line, .points): kind = .linePoints
        case (.line, _): kind = .line
        case (.rectangle, .points): kind = .rectanglePoints
        case (.rectangle, .outline): kind = .rectangleOutline
        case (.rectangle, _): kind = .rectangleArea
        case (.circle, .points): kind = .point
        case (.circle, .outline): kind = .circleOutline
        case (.circle, _): kind = .circleArea
        default: kind = .point
        }
    }

    /// The birth point for the draws `u` and `v`.
    @inline(__always)
    func point(_ u: Double, _ v: Double) -> (Double, Double) {
        let left = cx - w / 2, top = cy - h / 2
        switch kind {
        case .point: return (cx, cy)
        case .linePoints: return (u < 0.5 ? left : cx + w / 2, cy)
        case .line: return (left + u * w, cy)
        case .rectanglePoints:
            switch Int(4 * u) {
            case 0: return (left, top)
            case 1: return (left + w, top)
            case 2: return (left + w, top + h)
            default: return (left, top + h)
            }
        case .rectangleOutline:
            // Clockwise on screen from the top-left corner.
            var s = u * 2 * (w + h)
            if s < w { return (left + s, top) }
            s -= w
            if s < h { return (left + w, top + s) }
            s -= h
            if s < w { return (left + w - s, top + h) }
            return (left, top + h - (s - w))
        case .rectangleArea: return (left + u * w, top + v * h)
        case .circleOutline:
            let (s, c) = sinCos(2 * .pi * u)
            return (cx + w * c, cy + w * s)
        case .circleArea:
            let r = w * v.squareRoot(), (s, c) = sinCos(2 * .pi * u)
            return (cx + r * c, cy + r * s)
        }
    }
}

/// A cell's numbers as the particle model uses them, with the layer's multipliers: made once a
/// frame per cell, so that a particle costs its draws and its own arithmetic only.
private struct CellConstants {
    let lifetimeScale: Double, lifetime: Double, lifetimeRange: Double
    let velocityScale: Double, velocity: Double, velocityRange: Double
    let longitude: Double, longitudeRange: Double, cosLatitude: Double, sinLatitude: Double
    let ax: Double, ay: Double, az: Double, z: Double
    let scaleScale: Double, scale: Double, scaleRange: Double, scaleSpeed: Double
    let spinScale: Double, spin: Double, spinRange: Double
    let color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>

    init(_ cell: EmitterCellProperties, of e: EmitterStyle) {
        (lifetimeScale, lifetime, lifetimeRange) = (Double(e.lifetime), Double(cell.lifetime), Double(cell.lifetimeRange))
        (velocityScale, velocity, velocityRange) = (Double(e.velocity), Double(cell.velocity), Double(cell.velocityRange))
        (longitude, longitudeRange) = (Double(cell.emissionLongitude), Double(cell.emissionRange))
        (cosLatitude, sinLatitude) = (cos(Double(cell.emissionLatitude)), sin(Double(cell.emissionLatitude)))
        (ax, ay, az, z) = (Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration), Double(e.emitterZPosition))
        (scaleScale, scale, scaleRange, scaleSpeed) = (Double(e.scale), Double(cell.scale), Double(cell.scaleRange), Double(cell.scaleSpeed))
        (spinScale, spin, spinRange) = (Double(e.spin), Double(cell.spin), Double(cell.spinRange))
        let c = cell.color ?? .white
        color = SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
        colorRange = SIMD4(Double(cell.redRange), Double(cell.greenRange), Double(cell.blueRange), Double(cell.alphaRange))
        colorSpeed = SIMD4(Double(cell.redSpeed), Double(cell.greenSpeed), Double(cell.blueSpeed), Double(cell.alphaSpeed))
    }

    /// Particle `i` of cell number `cell`, born at `born`, at time `t`; `nil` when it is dead
    /// or its scale is not above 0 (steps 3 to 10).
    @inline(__always)
    func particle(_ i: Int, cell: Int, seed: UInt32, born: Double, at t: Double, shape: SpawnShape) -> EmitterParticle? {
        var g = ParticleRandom(seed: seed, cell: cell, index: i)
        // Eleven draws in the spec's order, each made whether or not its range is zero.
        let u1 = g.uniform(), u2 = g.uniform(), u3 = g.uniform(), u4 = g.uniform(), u5 = g.uniform()
        let uc = SIMD4(g.uniform(), g.uniform(), g.uniform(), g.uniform())
        let u10 = g.uniform(), u11 = g.uniform()
        let a = t - born
        guard a < lifetimeScale * (lifetime + (u1 - 0.5) * lifetimeRange) else { return nil }
        let s = scaleScale * (scale + (u4 - 0.5) * scaleRange + scaleSpeed * a)
        guard s > 0 else { return nil }
        let speed = velocityScale * (velocity + (u2 - 0.5) * velocityRange)
        let phi = longitude + (u3 - 0.5) * longitudeRange
        let (p0x, p0y) = shape.point(u10, u11)
        // p0 + V·d·a + ½·acceleration·a², as the spec writes it.
        let half = 0.5 * a * a
        let (sinPhi, cosPhi) = sinCos(phi)
        let x = p0x + speed * (cosLatitude * cosPhi) * a + half * ax
        let y = p0y + speed * (cosLatitude * sinPhi) * a + half * ay
        let zz = z + speed * sinLatitude * a + half * az
        let omega = spinScale * (spin + (u5 - 0.5) * spinRange)
        let k = color + (uc - 0.5) * colorRange + colorSpeed * a
        // Scalar clamps: SIMD's generic pointwise min and max are calls, not instructions.
        func unit(_ v: Double) -> Double { v < 0 ? 0 : v > 1 ? 1 : v }
        return EmitterParticle(cell: cell, index: i, birthTime: born, x: x, y: y, z: zz, scale: s, rotation: omega * a,
                               red: unit(k.x), green: unit(k.y), blue: unit(k.z), alpha: unit(k.w))
    }
}

/// The sine and cosine of `x`, computed here rather than by libm: trigonometry was half the
/// time of a particle, and libm's results may differ between machines in the last bit, where
/// these are the same wherever IEEE double arithmetic is. The angle is reduced to r in
/// [−π/4, π/4] about the nearest multiple k of π/2 (π/2 in two parts, Cody and Waite), and sin r
/// and cos r are their Taylor series to r¹⁷ and r¹⁸ (the next terms are below 1e-17 there); k mod
/// 4 picks the signs and order. Angles beyond 1e9 radians, where the reduction would lose the
/// fraction, go to libm.
@inline(__always)
private func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    guard abs(x) < 1e9 else { return (sin(x), cos(x)) }
    let k = (x * (2 / Double.pi)).rounded()
    let r = (x - k * 1.5707963267948966) - k * 6.123233995736766e-17
    let r2 = r * r
    var s = 2.8114572543455206e-15
    s = s * r2 + -7.647163731819816e-13
    s = s * r2 + 1.6059043836821613e-10
    s = s * r2 + -2.505210838544172e-08
    s = s * r2 + 2.7557319223985893e-06
    s = s * r2 + -0.0001984126984126984
    s = s * r2 + 0.008333333333333333
    s = s * r2 + -0.16666666666666666
    s = s * r2 + 1.0
    s *= r
    var c = -1.5619206968586225e-16
    c = c * r2 + 4.779477332387385e-14
    c = c * r2 + -1.1470745597729725e-11
    c = c * r2 + 2.08767569878681e-09
    c = c * r2 + -2.755731922398589e-07
    c = c * r2 + 2.48015873015873e-05
    c = c * r2 + -0.001388888888888889
    c = c * r2 + 0.041666666666666664
    c = c * r2 + -0.5
    c = c * r2 + 1.0
    switch Int(k) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}
