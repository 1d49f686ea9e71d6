@testable import LayerKitTesting
import LayerKit
import XCTest

/// `.image(backend: .gl)`: OpenGL through headless EGL, held to a budget of the CPU reference,
/// which is what the reference file always holds.
final class GLBackendTests: XCTestCase {
    /// 20 rounded, rotated, bordered, translucent layers with shadows on a 200x200 canvas:
    /// edges and blends where GL and the CPU round differently (by 1 on llvmpipe).
    private func busyTree() -> CALayer {
        let root = solid(CGRect(x: 0, y: 0, width: 200, height: 200), rgb(240, 240, 240))
        for i in 0..<20 {
            let l = solid(CGRect(x: 5 + (i % 5) * 38, y: 5 + (i / 5) * 48, width: 30, height: 35), rgb(20 * i % 255, 100, 200))
            l.cornerRadius = CGFloat(i)
            l.transform = CATransform3DMakeRotation(CGFloat(i) * 0.1, 0, 0, 1)
            l.shadowOpacity = 0.5
            l.shadowRadius = 2
            l.borderWidth = 2
            l.borderColor = rgb(0, 0, 0)
            l.opacity = 0.7
            root.addSublayer(l)
        }
        return root
    }

    func testTheReferenceIsTheCPUsAndGLIsWithinTheDefaultBudget() throws {
        let folder = try TemporaryFolder()
        let failure = try XCTUnwrap(check(busyTree(), as: .image(backend: .gl), in: folder))
        XCTAssertTrue(failure.message.contains("no reference was found"), failure.message)
        // What was recorded is the CPU reference's image, byte for byte.
        let cpuFolder = try TemporaryFolder()
        _ = check(busyTree(), as: .image, in: cpuFolder)
        XCTAssertEqual(try Data(contentsOf: folder.file("refs/testSomething.1.png")),
                       try Data(contentsOf: cpuFolder.file("refs/testSomething.1.png")))
        XCTAssertNil(check(busyTree(), as: .image(backend: .gl), in: folder))
        // The same reference serves the CPU.
        XCTAssertNil(check(busyTree(), as: .image, in: folder))
    }

    func testGLIsHeldToTheBudget() throws {
        let folder = try TemporaryFolder()
        _ = check(busyTree(), as: .image, in: folder)
        // A change of one level in one layer's colour is more than no difference allows.
        let changed = busyTree()
        changed.sublayers![3].backgroundColor = rgb(60, 100, 201)
        let failure = try XCTUnwrap(check(changed, as: .image(fuzzy: .exact, backend: .gl), in: folder))
        XCTAssertTrue(failure.message.contains("the budget is maxChannelDifference=0;pixelCount=0"), failure.message)
        // A layer gone is more than the default budget allows.
        let missing = busyTree()
        missing.sublayers![3].removeFromSuperlayer()
        let gone = try XCTUnwrap(check(missing, as: .image(backend: .gl), in: folder))
        XCTAssertTrue(gone.message.contains("the budget is maxChannelDifference=0-2;pixelCount=0-40000"), gone.message)
    }

    func testTheDefaultGLBudget() {
        XCTAssertEqual(Fuzzy.gl(pixels: 160_000), Fuzzy(maxChannelDifference: 0...2, pixelCount: 0...160_000))
    }
}
