import Foundation
@testable import LayerKitTesting
import LayerKit
import XCTest

/// `.recursiveDescription`: the tree as text, exactly.
final class RecursiveDescriptionTests: XCTestCase {
    private func tree() -> CALayer {
        let root = solid(CGRect(x: 0, y: 0, width: 100, height: 50), rgb(255, 255, 255))
        root.name = "root"
        let card = solid(CGRect(x: 10, y: 5, width: 40.5, height: 20), rgb(255, 0, 0, 0.5))
        card.cornerRadius = 4
        card.transform = CATransform3DMakeScale(2, 1, 1)
        card.opacity = 0.25
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        shape.path = CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil)
        shape.fillColor = rgb(0, 128, 0)
        card.addSublayer(shape)
        let mask = solid(CGRect(x: 0, y: 0, width: 10, height: 10), rgb(0, 0, 0))
        card.mask = mask
        root.addSublayer(card)
        let text = CATextLayer()
        text.frame = CGRect(x: 60, y: 10, width: 30, height: 12)
        text.string = "Hi"
        text.fontSize = 12
        root.addSublayer(text)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.duration = 2
        text.add(fade, forKey: "fade")
        return root
    }

    func testTheTreeAsText() throws {
        XCTAssertEqual(tree().recursiveDescription(), """
            <CALayer "root"; frame = (0 0; 100 50); backgroundColor = #FFFFFF>
               | <CALayer; frame = (-10.25 5; 81 20); transform = [2 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1]; opacity = 0.25; backgroundColor = #FF000080; cornerRadius = 4>
               |    | mask: <CALayer; frame = (0 0; 10 10); backgroundColor = #000000>
               |    | <CAShapeLayer; frame = (0 0; 8 8); path = (1 2; 3 4); fillColor = #008000>
               | <CATextLayer; frame = (60 10; 30 12); string = "Hi"; font = default 12; foregroundColor = #FFFFFF; animation "fade" = CABasicAnimation opacity duration 2>

            """)
    }

    func testRecordedAndComparedAsATextFile() throws {
        let folder = try TemporaryFolder()
        XCTAssertNotNil(check(tree(), as: .recursiveDescription, in: folder))
        XCTAssertEqual(try String(contentsOf: folder.file("refs/testSomething.1.txt"), encoding: .utf8), tree().recursiveDescription())
        XCTAssertNil(check(tree(), as: .recursiveDescription, in: folder))
        let moved = tree()
        moved.sublayers![1].position.y += 0.5
        let failure = try XCTUnwrap(check(moved, as: .recursiveDescription, in: folder))
        XCTAssertTrue(failure.message.hasPrefix("""
            snapshot testSomething.1.txt differs from its reference: the text differs first at line 5 of 6 (the reference has 6):
              reference: "   | <CATextLayer; frame = (60 10; 30 12);
            """), failure.message)
        XCTAssertTrue(failure.message.contains(#"  actual:    "   | <CATextLayer; frame = (60 10.5; 30 12);"#), failure.message)
        XCTAssertEqual(folder.list("artifacts/SomeTests"), ["testSomething.1.actual.txt", "testSomething.1.reference.txt"])
    }

    func testASceneStartsWithItsCanvas() throws {
        let text = #"""
            {"format": "layerkit-scene", "version": 1, "canvas": {"width": 10, "height": 20, "scale": 2, "background": "#0000FF"},
             "root": {"frame": [1, 2, 3, 4], "name": "only"}}
            """#
        let scene = try Scene(data: Data(text.utf8), baseDirectory: "", fileName: "s.json")
        let folder = try TemporaryFolder()
        _ = check(scene, as: .recursiveDescription, in: folder)
        XCTAssertEqual(try String(contentsOf: folder.file("refs/testSomething.1.txt"), encoding: .utf8),
                       "canvas: 10x20 pt at 2x on #0000FF\n<CALayer \"only\"; frame = (1 2; 3 4)>\n")
    }
}
