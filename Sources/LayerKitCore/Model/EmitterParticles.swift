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
            for i in oldest...newest {
                let born = Double(i) / r
                guard born <= t, let p = particle(i, of: cell, ci, born: born, at: t) else { continue }
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

    /// Particle `i` of `cell` (number `ci`), born at `born`, at time `t`; `nil` when it is dead
    /// or its scale is not above 0.
    private func particle(_ i: Int, of cell: EmitterCellProperties, _ ci: Int, born: Double, at t: Double) -> EmitterParticle? {
        var g = ParticleRandom(seed: seed, cell: ci, index: i)
        // Eleven draws in the spec's order, each made whether or not its range is zero.
        let u1 = g.uniform(), u2 = g.uniform(), u3 = g.uniform(), u4 = g.uniform(), u5 = g.uniform()
        let u6 = g.uniform(), u7 = g.uniform(), u8 = g.uniform(), u9 = g.uniform(), u10 = g.uniform(), u11 = g.uniform()
        let a = t - born
        let life = Double(lifetime) * (Double(cell.lifetime) + (u1 - 0.5) * Double(cell.lifetimeRange))
        guard a < life else { return nil }
        let s = Double(scale) * (Double(cell.scale) + (u4 - 0.5) * Double(cell.scaleRange) + Double(cell.scaleSpeed) * a)
        guard s > 0 else { return nil }
        let speed = Double(velocity) * (Double(cell.velocity) + (u2 - 0.5) * Double(cell.velocityRange))
        let phi = Double(cell.emissionLongitude) + (u3 - 0.5) * Double(cell.emissionRange)
        let theta = Double(cell.emissionLatitude)
        let (p0x, p0y) = spawnPoint(u10, u11)
        let half = 0.5 * a * a
        let x = p0x + speed * cos(theta) * cos(phi) * a + half * Double(cell.xAcceleration)
        let y = p0y + speed * cos(theta) * sin(phi) * a + half * Double(cell.yAcceleration)
        let z = Double(emitterZPosition) + speed * sin(theta) * a + half * Double(cell.zAcceleration)
        let omega = Double(spin) * (Double(cell.spin) + (u5 - 0.5) * Double(cell.spinRange))
        let c = (cell.color ?? .white).components
        func channel(_ base: CGFloat, _ u: Double, _ range: Float, _ speed: Float) -> Double {
            min(max(Double(base) + (u - 0.5) * Double(range) + Double(speed) * a, 0), 1)
        }
        return EmitterParticle(cell: ci, index: i, birthTime: born, x: x, y: y, z: z, scale: s, rotation: omega * a,
                               red: channel(c[0], u6, cell.redRange, cell.redSpeed),
                               green: channel(c[1], u7, cell.greenRange, cell.greenSpeed),
                               blue: channel(c[2], u8, cell.blueRange, cell.blueSpeed),
                               alpha: channel(c[3], u9, cell.alphaRange, cell.alphaSpeed))
    }

    /// The birth point in the emission shape for the draws `u` and `v` (step 6).
    private func spawnPoint(_ u: Double, _ v: Double) -> (Double, Double) {
        let cx = Double(emitterPosition.x), cy = Double(emitterPosition.y)
        let w = Double(emitterSize.width), h = Double(emitterSize.height)
        let left = cx - w / 2, top = cy - h / 2
        switch (emitterShape, emitterMode) {
        case (.line, .points): return (u < 0.5 ? left : cx + w / 2, cy)
        case (.line, _): return (left + u * w, cy)
        case (.rectangle, .points):
            switch Int(4 * u) {
            case 0: return (left, top)
            case 1: return (left + w, top)
            case 2: return (left + w, top + h)
            default: return (left, top + h)
            }
        case (.rectangle, .outline):
            // Clockwise on screen from the top-left corner.
            var s = u * 2 * (w + h)
            if s < w { return (left + s, top) }
            s -= w
            if s < h { return (left + w, top + s) }
            s -= h
            if s < w { return (left + w - s, top + h) }
            return (left, top + h - (s - w))
        case (.rectangle, _): return (left + u * w, top + v * h)
        case (.circle, .points): return (cx, cy)
        case (.circle, .outline): return (cx + w * cos(2 * .pi * u), cy + w * sin(2 * .pi * u))
        case (.circle, _):
            let r = w * v.squareRoot()
            return (cx + r * cos(2 * .pi * u), cy + r * sin(2 * .pi * u))
        default: return (cx, cy)  // point
        }
    }

    /// Whether every number the particle model computes with is finite.
    var hasFiniteValues: Bool {
        birthRate.isFinite && lifetime.isFinite && velocity.isFinite && scale.isFinite && spin.isFinite
            && emitterPosition.isFiniteValue && emitterZPosition.isFinite && emitterSize.isFiniteValue && emitterDepth.isFinite
    }
}
