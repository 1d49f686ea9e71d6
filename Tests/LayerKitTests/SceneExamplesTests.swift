import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// The examples (`Examples/seeds`, `Examples/bench`, `Examples/corpus`, `Examples/animation`):
/// every scene reads without errors or warnings, and every hit-test probe and presentation-value
/// sample written from the book's rules passes.
final class SceneExamplesTests: XCTestCase {
    func testEveryExampleValidatesAndItsProbesPass() throws {
        let paths = try exampleScenePaths()
        XCTAssertGreaterThanOrEqual(paths.count, 44, "seeds, bench and corpus scenes found from #filePath")
        var probeCount = 0, sampleCount = 0
        for path in paths {
            let scene: Scene
            do { scene = try Scene(contentsOfFile: path) } catch {
                XCTFail("\(error)")
                continue
            }
            XCTAssertEqual(scene.warnings, [], path)
            for probe in scene.probes {
                let result = scene.check(probe)
                XCTAssertTrue(result.passed, "\(path): \(result)")
                probeCount += 1
            }
            for sample in scene.samples {
                let result = scene.check(sample)
                XCTAssertTrue(result.passed, "\(path): \(result)")
                sampleCount += 1
            }
        }
        XCTAssertGreaterThanOrEqual(probeCount, 18)
        XCTAssertGreaterThanOrEqual(sampleCount, 29, "the animated examples' samples, worked out by hand from the timing rules")
    }
}
