import Foundation
import XCTest
@testable import LayerKitCore

/// The particle model of docs/scene-format.md ("The particle model"), step by step. Expected
/// values are worked out by hand from the spec's formulas; the random draws u1…u11 of a
/// particle were computed from the spec's SplitMix64 recipe by a separate Python script
/// (quoted below), not read back from `ParticleRandom`.
final class EmitterParticleModelTests: XCTestCase {
    /// u1…u11 of (seed 0, cell 0, particle 0) and (seed 0, cell 0, particle 1).
    private let draws00: [Double] = [0.17541561601846456, 0.4732158221135335, 0.6540049304066852, 0.13800996214694694,
                                     0.9017145034333057, 0.8584954157062745, 0.6927957565204542, 0.7887302903872302,
                                     0.3815204550882352, 0.1543436369621184, 0.5866804201482184]
    private let draws01: [Double] = [0.14990690736602286, 0.9066604222711008, 0.4047888337814519, 0.8665036511246168,
                                     0.6058126318025633, 0.87603134268253, 0.6638614968886769, 0.9584197322571227,
                                     0.5978973279567363, 0.8754105007438849, 0.5868467605231289]

    private func emitter(_ cells: [EmitterCellProperties], at t: Double, _ configure: (inout EmitterStyle) -> Void = { _ in }) -> [EmitterParticle] {
        var style = EmitterStyle()
        style.cells = cells
        style.time = t
        configure(&style)
        return style.particles()
    }

    private func cell(_ configure: (inout EmitterCellProperties) -> Void) -> EmitterCellProperties {
        var c = EmitterCellProperties()
        c.lifetime = 100
        c.birthRate = 1
        configure(&c)
        return c
    }

    // MARK: Step 3, the generator

    func testGeneratorMatchesTheSpecsCheckValuesAndPublishedSplitMix64() {
        var g = ParticleRandom(seed: 0, cell: 0, index: 0)
        XCTAssertEqual(g.state, 0x33FE_8BD4_F9C5_7863)
        XCTAssertEqual(g.uniform(), 0.17541561601846456)
        XCTAssertEqual(g.uniform(), 0.4732158221135335)
        var z = ParticleRandom(state: 0)
        XCTAssertEqual(z.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(z.next(), 0x6E78_9E6A_A1B9_65F4)
        var h = ParticleRandom(seed: 7, cell: 1, index: 3)
        XCTAssertEqual((0..<11).map { _ in h.uniform() }.last, 0.7452590812821208)
    }

    // MARK: Steps 1, 2, 4: time, births, lifetime

    func testBirthsAreEveryOneOverRFromTimeZero() {
        let two = cell { $0.birthRate = 2 }
        XCTAssertEqual(emitter([two], at: 1).map(\.birthTime), [0, 0.5, 1])
        XCTAssertEqual(emitter([two], at: 1).map(\.index), [0, 1, 2])
        XCTAssertEqual(emitter([two], at: 0).map(\.index), [0], "particle 0 is born at 0, with age 0")
        XCTAssertEqual(emitter([two], at: -0.1), [], "no particles before the layer's time 0")
        // A fractional rate needs no accumulator: layer 0.5 × cell 1 gives births at 0, 2, 4.
        XCTAssertEqual(emitter([cell { _ in }], at: 3) { $0.birthRate = 0.5 }.map(\.birthTime), [0, 2])
        XCTAssertEqual(emitter([cell { $0.birthRate = 0 }], at: 3), [])
        XCTAssertEqual(emitter([cell { $0.isEnabled = false }], at: 3), [], "a disabled cell emits nothing")
        XCTAssertEqual(emitter([two], at: 3) { $0.birthRate = -1 }, [])
    }

    func testParticlesLiveWhileTheirAgeIsUnderTheLifetime() {
        let short = cell {
            $0.birthRate = 2
            $0.lifetime = 1.5
        }
        // Born at 0, 0.5, 1, 1.5, 2; at t = 2 their ages are 2, 1.5, 1, 0.5, 0: age 1.5 is dead.
        XCTAssertEqual(emitter([short], at: 2).map(\.index), [2, 3, 4])
        XCTAssertEqual(emitter([short], at: 2) { $0.lifetime = 2 }.map(\.index), [0, 1, 2, 3, 4], "the layer's lifetime multiplies: 3 s")
        // lifetimeRange 1: particle 0 lives 1 + (u1 − 0.5) · 1 = 0.67541561601846456 s.
        let ranged = cell {
            $0.birthRate = 0.1
            $0.lifetime = 1
            $0.lifetimeRange = 1
        }
        XCTAssertEqual(emitter([ranged], at: 0.675).count, 1)
        XCTAssertEqual(emitter([ranged], at: 0.676).count, 0)
    }

    // MARK: Steps 5, 7: direction, speed, motion

    func testMotionIsTheClosedFormWithAcceleration() throws {
        let c = cell {
            $0.birthRate = 0.1
            $0.velocity = 10
            $0.yAcceleration = 4
        }
        let p = try XCTUnwrap(emitter([c], at: 2) { $0.emitterPosition = CGPoint(x: 50, y: 60) }.first)
        XCTAssertEqual(p.x, 70)  // 50 + 10 · 2
        XCTAssertEqual(p.y, 68)  // 60 + ½ · 4 · 2²
        XCTAssertEqual(p.z, 0)
        // The layer's velocity multiplies; longitude π/2 points down (+y) on the canvas.
        let down = try XCTUnwrap(emitter([cell {
            $0.birthRate = 0.1
            $0.velocity = 10
            $0.emissionLongitude = .pi / 2
        }], at: 2) { $0.velocity = 3 }.first)
        XCTAssertEqual(down.x, 0, accuracy: 1e-12)
        XCTAssertEqual(down.y, 60)
        // Latitude π/2 points along +z: the particle stays put on screen.
        let up = try XCTUnwrap(emitter([cell {
            $0.birthRate = 0.1
            $0.velocity = 10
            $0.emissionLatitude = .pi / 2
        }], at: 2).first)
        XCTAssertEqual(up.x, 0, accuracy: 1e-12)
        XCTAssertEqual(up.z, 20, accuracy: 1e-12)
    }

    func testRangesDrawFromTheParticlesOwnGenerator() throws {
        let c = cell {
            $0.birthRate = 0.1
            $0.velocity = 10
            $0.velocityRange = 4
            $0.emissionRange = 1
        }
        let p = try XCTUnwrap(emitter([c], at: 1).first)
        // V = 10 + (u2 − 0.5) · 4, φ = (u3 − 0.5) · 1.
        let v = 10 + (draws00[1] - 0.5) * 4, phi = draws00[2] - 0.5
        XCTAssertEqual(p.x, v * cos(phi), accuracy: 1e-12)
        XCTAssertEqual(p.y, v * sin(phi), accuracy: 1e-12)
        XCTAssertEqual(v, 9.892863288454134, accuracy: 1e-15)
    }

    // MARK: Steps 8, 9, 10: scale, spin, colour

    func testScaleSpinAndColourChangeLinearlyWithAge() throws {
        let c = cell {
            $0.birthRate = 0.1
            $0.scale = 2
            $0.scaleSpeed = -0.5
            $0.spin = 1
            $0.color = CGColor(red: 1, green: 0.5, blue: 0.25, alpha: 1)
            $0.alphaSpeed = -0.4
            $0.redSpeed = 1
            $0.greenSpeed = 0.25
        }
        let p = try XCTUnwrap(emitter([c], at: 1) {
            $0.scale = 3
            $0.spin = 2
        }.first)
        XCTAssertEqual(p.scale, 4.5)  // 3 · (2 − 0.5 · 1)
        XCTAssertEqual(p.rotation, 2)  // 2 · 1 · 1
        XCTAssertEqual(p.red, 1, "clamped after adding the speed")
        XCTAssertEqual(p.green, 0.75)
        XCTAssertEqual(p.blue, 0.25)
        XCTAssertEqual(p.alpha, 0.6, accuracy: 1e-7, "alphaSpeed −0.4 is single precision")
        // At age 4 the scale is 2 − 2 = 0: not drawn.
        XCTAssertEqual(emitter([c], at: 4).count, 0)
        // Ranges: red = 1 + (u6 − 0.5) · 0.5, clamped; alpha = 1 + (u9 − 0.5) · 1.
        let ranged = try XCTUnwrap(emitter([cell {
            $0.birthRate = 0.1
            $0.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            $0.redRange = 0.5
            $0.alphaRange = 1
            $0.scaleRange = 1
            $0.spinRange = 2
        }], at: 1).first)
        XCTAssertEqual(ranged.red, 0.5 + (draws00[5] - 0.5) * 0.5, accuracy: 1e-15)
        XCTAssertEqual(ranged.alpha, 1 + (draws00[8] - 0.5), accuracy: 1e-15)
        XCTAssertEqual(ranged.scale, 1 + (draws00[3] - 0.5), accuracy: 1e-15)
        XCTAssertEqual(ranged.rotation, (draws00[4] - 0.5) * 2, accuracy: 1e-15)
    }

    // MARK: Step 6: spawn points

    private func spawn(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode, index: Int = 0) -> CGPoint {
        let p = emitter([cell { $0.birthRate = 1 }], at: Double(index)) {
            $0.emitterShape = shape
            $0.emitterMode = mode
            $0.emitterPosition = CGPoint(x: 100, y: 100)
            $0.emitterSize = CGSize(width: 100, height: 50)
        }.first { $0.index == index }!
        return CGPoint(x: p.x, y: p.y)
    }

    func testSpawnPointsFollowTheShapeAndModeTable() {
        let u = draws00[9], v = draws00[10], u1 = draws01[9]
        XCTAssertEqual(spawn(.point, .volume), CGPoint(x: 100, y: 100))
        XCTAssertEqual(spawn(.line, .points), CGPoint(x: 50, y: 100), "u10 = 0.154 < 0.5: the left end")
        XCTAssertEqual(spawn(.line, .outline), CGPoint(x: 50 + u * 100, y: 100))
        XCTAssertEqual(spawn(.rectangle, .points), CGPoint(x: 50, y: 75), "⌊4 · 0.154⌋ = 0: top left")
        XCTAssertEqual(spawn(.rectangle, .points, index: 1), CGPoint(x: 50, y: 125), "⌊4 · 0.875⌋ = 3: bottom left")
        // Outline: 0.154 · 300 = 46.303 along the top edge; 0.875 · 300 = 262.623 is past the
        // top (100), right (50) and bottom (100) edges: 12.623 up the left edge.
        XCTAssertEqual(spawn(.rectangle, .outline).x, 96.30309108863552, accuracy: 1e-12)
        XCTAssertEqual(spawn(.rectangle, .outline).y, 75)
        XCTAssertEqual(spawn(.rectangle, .outline, index: 1).x, 50)
        XCTAssertEqual(spawn(.rectangle, .outline, index: 1).y, 112.37684977683453, accuracy: 1e-12)
        XCTAssertEqual(u1, 0.8754105007438849)
        XCTAssertEqual(spawn(.rectangle, .surface), CGPoint(x: 50 + u * 100, y: 75 + v * 50))
        XCTAssertEqual(spawn(.rectangle, .volume), CGPoint(x: 50 + u * 100, y: 75 + v * 50))
        XCTAssertEqual(spawn(.circle, .points), CGPoint(x: 100, y: 100))
        // The circle's radius is emitterSize.width (100).
        let outline = spawn(.circle, .outline), area = spawn(.circle, .surface)
        XCTAssertEqual(outline.x, 100 + 100 * cos(2 * .pi * u), accuracy: 1e-12)
        XCTAssertEqual(outline.y, 100 + 100 * sin(2 * .pi * u), accuracy: 1e-12)
        XCTAssertEqual(area.x, 100 + 100 * v.squareRoot() * cos(2 * .pi * u), accuracy: 1e-12)
        XCTAssertEqual(area.y, 100 + 100 * v.squareRoot() * sin(2 * .pi * u), accuracy: 1e-12)
    }

    // MARK: Step 12: order

    func testRenderModesOrderTheParticles() {
        let slow = cell { $0.birthRate = 1 }
        let fast = cell {
            $0.birthRate = 2
            $0.zAcceleration = -1
        }
        func order(_ mode: CAEmitterLayerRenderMode) -> [[Int]] {
            emitter([slow, fast], at: 2) { $0.renderMode = mode }.map { [$0.cell, $0.index] }
        }
        let unordered = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4]]
        XCTAssertEqual(order(.unordered), unordered)
        XCTAssertEqual(order(.additive), unordered)
        let oldestFirst = [[0, 0], [1, 0], [1, 1], [0, 1], [1, 2], [1, 3], [0, 2], [1, 4]]
        XCTAssertEqual(order(.oldestFirst), oldestFirst)
        XCTAssertEqual(order(.oldestLast), oldestFirst.reversed())
        // z = −½ a² for the fast cell: −2, −1.125, −0.5, −0.125, 0; the slow cell's are all 0,
        // and the ties at 0 go oldest first.
        XCTAssertEqual(order(.backToFront), [[1, 0], [1, 1], [1, 2], [1, 3], [0, 0], [0, 1], [0, 2], [1, 4]])
    }

    // MARK: Step 13 and the unsupported values

    func testUnsupportedShapesDepthAndTooManyParticlesDrawNothing() {
        let fire = cell {
            $0.birthRate = 150
            $0.lifetime = 5
        }
        var style = EmitterStyle()
        style.cells = [fire, fire]
        XCTAssertEqual(style.liveParticleBound, 1502)  // 2 · (⌈150 · 5⌉ + 1)
        style.lifetime = 2
        style.cells[1].lifetimeRange = 3  // Lmax = 2 · (5 + 1.5) = 13
        XCTAssertEqual(style.liveParticleBound, 1501 + 1951)  // Lmax 10 and 13
        XCTAssertEqual(emitter([fire], at: 1).count, 151)
        XCTAssertEqual(emitter([fire], at: 1) { $0.emitterShape = .cuboid }, [])
        XCTAssertEqual(emitter([fire], at: 1) { $0.emitterShape = .sphere }, [])
        XCTAssertEqual(emitter([fire], at: 1) { $0.preservesDepth = true }, [])
        // 1e12 a second would be 5e12 alive: over the bound, so none, at once and with no memory.
        XCTAssertEqual(emitter([fire], at: 1) { $0.birthRate = 1e10 }, [])
        var huge = EmitterStyle()
        huge.cells = [cell { $0.birthRate = 1e12 }]
        XCTAssertFalse(huge.drawsParticles)
        // A time so late that particle numbers pass 2^53 draws nothing rather than overflow.
        XCTAssertEqual(emitter([fire], at: 1e300), [])
    }

    func testTheParticlesArePureFunctionsOfStateTimeAndSeed() {
        let c = cell {
            $0.birthRate = 20
            $0.lifetime = 2
            $0.velocity = 30
            $0.velocityRange = 20
            $0.emissionRange = 2 * .pi
        }
        let a = emitter([c], at: 1.7) { $0.seed = 42 }
        XCTAssertEqual(a, emitter([c], at: 1.7) { $0.seed = 42 })
        XCTAssertNotEqual(a, emitter([c], at: 1.7) { $0.seed = 43 })
        XCTAssertEqual(a.count, 35)  // born at 0, 0.05, …, 1.7: those of age < 2
    }
}
