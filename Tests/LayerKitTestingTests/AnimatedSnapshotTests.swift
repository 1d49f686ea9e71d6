import Foundation
@testable import LayerKitTesting
import LayerKit
import XCTest

/// `.image(atTimes:)`: the presentation tree on a virtual clock that starts at the assertion's
/// commit, one file per time, with pixels worked out by hand.
final class AnimatedSnapshotTests: XCTestCase {
    /// A 20x10 blue layer under a red 10x10 sublayer whose opacity goes 0 → 1 over 1 s
    /// (linear: no timing function), added with `beginTime` 0; and a green 2x2 layer moving
    /// from x 10 to x 18 over 1 s starting at 0.5 s on the virtual clock.
    private func animatedTree() -> CALayer {
        let root = solid(CGRect(x: 0, y: 0, width: 20, height: 10), rgb(0, 0, 255))
        let fading = solid(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(255, 0, 0))
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        fade.duration = 1
        fading.add(fade, forKey: "fade")
        root.addSublayer(fading)
        let moving = solid(CGRect(x: 10, y: 0, width: 2, height: 2), rgb(0, 255, 0))
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 11
        move.toValue = 19
        move.duration = 1
        move.beginTime = 0.5
        moving.add(move, forKey: "move")
        root.addSublayer(moving)
        return root
    }

    func testEachTimeIsItsOwnFileWithThePresentationTreeThen() throws {
        let folder = try TemporaryFolder()
        let tree = animatedTree()
        // Time passes between adding the animations and the assertion: the virtual clock
        // starts at the commit all the same.
        Thread.sleep(forTimeInterval: 0.2)
        let failure = try XCTUnwrap(check(tree, as: .image(atTimes: [0, 0.2, 1, 1.25]), in: folder))
        XCTAssertEqual(failure.message.split(separator: "\n").count, 4)
        XCTAssertEqual(folder.list("refs"), ["testSomething.1.t0.0.png", "testSomething.1.t0.2.png", "testSomething.1.t1.0.png",
                                             "testSomething.1.t1.25.png"])
        func image(_ t: String) throws -> Bitmap { try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.t\(t).png").path) }
        // t = 0: opacity 0, only blue; the green layer waits at its model x (10…12).
        XCTAssertEqual(pixel(try image("0.0"), 5, 5), [0, 0, 255, 255])
        XCTAssertEqual(pixel(try image("0.0"), 10, 0), [0, 255, 0, 255])
        // t = 0.2: opacity 0.2: red 0.2 × 255 = 51 over blue 0.8 × 255 = 204.
        XCTAssertEqual(pixel(try image("0.2"), 5, 5), [51, 0, 204, 255])
        // t = 1: the fade has ended (the model's opacity 1); the move is half way: x 15, so 14…16.
        XCTAssertEqual(pixel(try image("1.0"), 5, 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(try image("1.0"), 14, 1), [0, 255, 0, 255])
        XCTAssertEqual(pixel(try image("1.0"), 13, 1), [0, 0, 255, 255])
        XCTAssertEqual(pixel(try image("1.0"), 10, 1), [0, 0, 255, 255])
        // t = 1.25: three quarters: x 17, so 16…18.
        XCTAssertEqual(pixel(try image("1.25"), 16, 1), [0, 255, 0, 255])
        XCTAssertEqual(pixel(try image("1.25"), 15, 1), [0, 0, 255, 255])
        // Run again later: the same pixels.
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertNil(check(tree, as: .image(atTimes: [0, 0.2, 1, 1.25]), in: folder))
    }

    func testWithoutTimesTheModelTreeIsDrawn() throws {
        let folder = try TemporaryFolder()
        _ = check(animatedTree(), as: .image, in: folder)
        let image = try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path)
        XCTAssertEqual(pixel(image, 5, 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(image, 10, 0), [0, 255, 0, 255])
    }

    func testASceneIsDrawnAtItsOwnTimes() throws {
        let folder = try TemporaryFolder()
        let text = #"""
            {"format": "layerkit-scene", "version": 1, "canvas": {"width": 10, "height": 10, "background": "#0000FF"},
             "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
                      "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}}
            """#
        let scene = try Scene(data: Data(text.utf8), baseDirectory: "", fileName: "fade.json")
        _ = check(scene, as: .image(atTimes: [0.2]), in: folder)
        XCTAssertEqual(pixel(try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.t0.2.png").path), 5, 5), [51, 0, 204, 255])
        // Without times, the scene's time (0): only the canvas's blue.
        _ = check(scene, as: .image, in: folder)
        XCTAssertEqual(pixel(try Bitmap(contentsOfPNGFile: folder.file("refs/testSomething.1.png").path), 5, 5), [0, 0, 255, 255])
        XCTAssertNil(check(scene, as: .image, in: folder))
    }
}
