import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// The examples (`Examples/seeds`, `Examples/bench`, `Examples/corpus`): every scene reads without
/// errors or warnings, and every hit-test probe written from the book's rules passes.
final class SceneExamplesTests: XCTestCase {
    func testEveryExampleValidatesAndItsProbesPass() throws {
        let paths = try exampleScenePaths()
        XCTAssertGreaterThanOrEqual(paths.count, 44, "seeds, bench and corpus scenes found from #filePath")
        var probeCount = 0
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
        }
        XCTAssertGreaterThanOrEqual(probeCount, 14)
    }
}
