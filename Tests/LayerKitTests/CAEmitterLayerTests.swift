import Foundation
import XCTest
@testable import LayerKitCore

/// `CAEmitterLayer` and `CAEmitterCell` from Swift: Apple's defaults, the shared cell objects,
/// key-value coding (`emitterCells.NAME.PROPERTY` included), animations and presentation
/// copies, and the time a snapshot shows the particles at.
final class CAEmitterLayerTests: XCTestCase {
    private func style(_ s: LayerSnapshot) -> EmitterStyle? {
        if case let .emitter(e) = s.kind { return e }
        return nil
    }

    func testDefaultsAreApples() {
        let l = CAEmitterLayer()
        XCTAssertNil(l.emitterCells)
        XCTAssertEqual([l.birthRate, l.lifetime, l.velocity, l.scale, l.spin], [1, 1, 1, 1, 1])
        XCTAssertEqual(l.emitterPosition, .zero)
        XCTAssertEqual(l.emitterZPosition, 0)
        XCTAssertEqual(l.emitterSize, .zero)
        XCTAssertEqual(l.emitterDepth, 0)
        XCTAssertEqual(l.emitterShape, .point)
        XCTAssertEqual(l.emitterMode, .volume)
        XCTAssertEqual(l.renderMode, .unordered)
        XCTAssertFalse(l.preservesDepth)
        XCTAssertEqual(l.seed, 0)
        let c = CAEmitterCell()
        XCTAssertNil(c.name)
        XCTAssertTrue(c.isEnabled)
        XCTAssertEqual([c.birthRate, c.lifetime, c.lifetimeRange], [0, 0, 0])
        XCTAssertEqual([c.emissionLatitude, c.emissionLongitude, c.emissionRange, c.velocity, c.velocityRange], [0, 0, 0, 0, 0])
        XCTAssertEqual([c.xAcceleration, c.yAcceleration, c.zAcceleration], [0, 0, 0])
        XCTAssertEqual([c.scale, c.scaleRange, c.scaleSpeed, c.spin, c.spinRange], [1, 0, 0, 0, 0])
        XCTAssertEqual(c.color, CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        XCTAssertEqual([c.redRange, c.greenRange, c.blueRange, c.alphaRange, c.redSpeed, c.greenSpeed, c.blueSpeed, c.alphaSpeed],
                       [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertNil(c.contents)
        XCTAssertEqual(c.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(c.contentsScale, 1)
        XCTAssertEqual(c.magnificationFilter, .linear)
        XCTAssertEqual(c.minificationFilter, .linear)
        XCTAssertNil(c.emitterCells)
        XCTAssertTrue(type(of: CAEmitterCell.emitterCell()) == CAEmitterCell.self)
    }

    func testCellsAreSharedObjectsAndTheirChangesReachTheSnapshot() {
        let l = CAEmitterLayer()
        let cell = CAEmitterCell()
        cell.birthRate = 10
        l.emitterCells = [cell]
        XCTAssertTrue(l.emitterCells?.first === cell)
        XCTAssertEqual(style(l.snapshot())?.cells.map(\.birthRate), [10])
        cell.birthRate = 20
        XCTAssertEqual(style(l.snapshot())?.cells.map(\.birthRate), [20], "a change of a cell drops the kept snapshot")
        cell.birthRate = .nan
        XCTAssertEqual(cell.birthRate, 20, "non-finite values are ignored")
        l.emitterCells = nil
        cell.birthRate = 30
        XCTAssertEqual(style(l.snapshot())?.cells, [])
    }

    func testKeyValueCodingReachesTheLayerAndItsNamedCells() {
        let l = CAEmitterLayer()
        let fire = CAEmitterCell()
        fire.name = "fire"
        l.emitterCells = [CAEmitterCell(), fire]
        XCTAssertEqual(l.value(forKey: "birthRate") as? CGFloat, 1)
        l.setValue(CGPoint(x: 3, y: 4), forKey: "emitterPosition")
        XCTAssertEqual(l.emitterPosition, CGPoint(x: 3, y: 4))
        l.setValue(2.5, forKeyPath: "emitterCells.fire.birthRate")
        XCTAssertEqual(fire.birthRate, 2.5)
        XCTAssertEqual(l.value(forKeyPath: "emitterCells.fire.birthRate") as? CGFloat, 2.5)
        l.setValue(false, forKeyPath: "emitterCells.fire.enabled")
        XCTAssertFalse(fire.isEnabled)
        l.setValue("rectangle", forKey: "emitterShape")
        XCTAssertEqual(l.emitterShape, .rectangle)
        XCTAssertEqual(l.value(forKey: "renderMode") as? String, "unordered")
        // A name no cell has: reads the absent value, writes nothing.
        l.setValue(7, forKeyPath: "emitterCells.smoke.birthRate")
        XCTAssertEqual(l.emitterCells?.map(\.birthRate), [0, 2.5])
    }

    func testTheLayersAndCellsPropertiesAnimateAndPresentationCopiesHaveTheirOwnCells() throws {
        let l = CAEmitterLayer()
        let fire = CAEmitterCell()
        fire.name = "fire"
        fire.birthRate = 10
        l.emitterCells = [fire]
        let move = CABasicAnimation(keyPath: "emitterPosition")
        move.fromValue = CGPoint(x: 0, y: 0)
        move.toValue = CGPoint(x: 100, y: 50)
        move.beginTime = 10
        move.duration = 1
        l.add(move, forKey: nil)
        let rate = CABasicAnimation(keyPath: "emitterCells.fire.birthRate")
        rate.fromValue = 0
        rate.toValue = 80
        rate.beginTime = 10
        rate.duration = 2
        l.add(rate, forKey: nil)
        let s = try XCTUnwrap(style(l.snapshot(atTime: 10.5)))
        XCTAssertEqual(s.emitterPosition, CGPoint(x: 50, y: 25))
        XCTAssertEqual(s.cells.first?.birthRate, 20)  // a quarter of 0 → 80
        XCTAssertEqual(s.time, 10.5, "the snapshot shows the particles at the layer's time")
        XCTAssertEqual(fire.birthRate, 10, "the model cell is unchanged")
        let p = l.presentation(atTime: 10.5) as? CAEmitterLayer
        XCTAssertEqual(p?.emitterPosition, CGPoint(x: 50, y: 25))
        XCTAssertEqual(p?.emitterCells?.first?.birthRate, 20)
        XCTAssertFalse(p?.emitterCells?.first === fire, "a presentation copy has copies of the cells")
    }

    func testAnEmittersSnapshotFollowsItsOwnTimeWithoutAnimations() throws {
        let root = CALayer()
        let l = CAEmitterLayer()
        l.beginTime = 2
        l.speed = 2
        root.addSublayer(l)
        XCTAssertEqual(try XCTUnwrap(style(root.snapshot(atTime: 5).sublayers[0])).time, 6)  // (5 − 2) · 2
        let plain = CAEmitterLayer()
        XCTAssertEqual(try XCTUnwrap(style(plain.snapshot(atTime: 3))).time, 3)
        XCTAssertEqual(try XCTUnwrap(style(plain.snapshot())).time, 0)
    }
}
