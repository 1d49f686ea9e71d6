import Foundation
import LayerKitCore
import XCTest

/// Scenes that are valid but extreme, rendered by the `layerkit` executable in a child process
/// under a memory limit, so that unbounded memory fails the test instead of the machine.
final class ExtremeSceneTests: XCTestCase {
    /// Address space the child may map: 1 GiB. llvmpipe's context alone maps about 600 MiB
    /// (it cannot start under 512 MiB), so this is the tightest round limit both backends
    /// start under; the 50-level scene reached 11 GB before offscreen passes were
    /// bounded (resident memory is now about 30 MB on the CPU and 110 MB on GL).
    static let addressSpaceKiB = 1 << 20

    /// 50 levels of group opacity, shadow and mask (`BenchmarkScene.nested`), on both backends.
    func testFiftyNestedOffscreenLevelsRenderWithinTheMemoryLimit() throws {
        let dir = try temporaryDirectory(for: self)
        let scene = dir.appendingPathComponent("nested-50.json")
        try BenchmarkScene.nested.make(count: 50).jsonData().write(to: scene)
        for backend in ["cpu", "gl"] {
            let png = dir.appendingPathComponent("\(backend).png")
            let run = try runLayerKit(["render", scene.path, "-o", png.path, "--backend", backend], addressSpaceKiB: Self.addressSpaceKiB, for: self)
            XCTAssertEqual(run.status, 0, "\(backend): \(run.stderr)")
            let image = try Bitmap(contentsOfPNGFile: png.path)
            XCTAssertEqual([image.width, image.height], [200, 200])
            // The levels drew: the centre, inside every mask, is not the white background.
            let centre = (100 * 200 + 100) * 4
            XCTAssertLessThan(image.pixels[centre..<(centre + 3)].min()!, 245, "\(backend)")
        }
    }
}
