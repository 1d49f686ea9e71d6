import Foundation
@testable import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import LayerKitCore

/// Keyframe animations along a path (segments timed evenly, by keyTimes or paced by arc
/// length), `rotationMode`, `cubicPaced`, and the key paths whose values are paths, images and
/// lists. Every expected value is worked out by hand. Animations begin at layer time 10 and
/// last 1 s.
final class CAKeyframePathTests: XCTestCase {
    private func sample(_ layer: CALayer, _ anim: CAAnimation, at t: Double) -> LayerSnapshot {
        anim.beginTime = 10
        anim.duration = 1
        layer.add(anim, forKey: nil)
        return layer.snapshot(atTime: t)
    }

    /// Two straight lines, 100 and 300 long: (0, 0) → (100, 0) → (100, 300).
    private let twoLines = try! CGPath(svgPathData: "M 0 0 L 100 0 L 100 300")

    private func along(_ path: CGPath, at t: Double, _ configure: (CAKeyframeAnimation) -> Void = { _ in }) -> LayerSnapshot {
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        configure(a)
        return sample(CALayer(), a, at: t)
    }

    func testPathSegmentsAreTimedEvenlyOrByKeyTimes() {
        // Two segments: each takes half the time whatever its length.
        XCTAssertEqual(along(twoLines, at: 10.25).properties.position, CGPoint(x: 50, y: 0))
        XCTAssertEqual(along(twoLines, at: 10.75).properties.position, CGPoint(x: 100, y: 150))
        // Key times 0, 0.2, 1: at p = 0.6 the second segment is (0.6 − 0.2)/0.8 = ½ done.
        XCTAssertEqual(along(twoLines, at: 10.6) { $0.keyTimes = [0, 0.2, 1] }.properties.position.y, 150, accuracy: 1e-9)
        // Each segment eased by its own timing function: easeIn at 0.6575 is ½ (hand-solved).
        let eased = along(twoLines, at: 10.5 + 0.6575 / 2) {
            $0.timingFunctions = [CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(name: .easeIn)]
        }
        XCTAssertEqual(eased.properties.position.y, 150, accuracy: 1e-4)
        // The path replaces values.
        XCTAssertEqual(along(twoLines, at: 10.25) { $0.values = [CGPoint(x: 7, y: 7), CGPoint(x: 9, y: 9)] }.properties.position,
                       CGPoint(x: 50, y: 0))
    }

    func testPacedFollowsArcLength() {
        // 400 long: at p = ½ the layer is 200 along, 100 into the second line.
        XCTAssertEqual(along(twoLines, at: 10.5) { $0.calculationMode = .paced }.properties.position, CGPoint(x: 100, y: 100))
        XCTAssertEqual(along(twoLines, at: 10.125) { $0.calculationMode = .paced }.properties.position, CGPoint(x: 50, y: 0))
        XCTAssertEqual(along(twoLines, at: 10.5) { $0.calculationMode = .cubicPaced }.properties.position, CGPoint(x: 100, y: 100))
        // A half circle of radius 100 (two quarter arcs as cubics) then a 100-long line: the arc
        // is 100π long, so at p = ½ the layer is (100π + 100)/2 along, still on the arc, at the
        // angle (π + 1)/2 radians from its start. The cubic arcs deviate from the circle by
        // under 0.03 %, hence the tolerance.
        let k = 100 * 0.5522847498
        let arc = try! CGPath(svgPathData: "M 100 0 C 100 \(k) \(k) 100 0 100 C \(-k) 100 -100 \(k) -100 0 L -100 -100")
        let p = along(arc, at: 10.5) { $0.calculationMode = .paced }.properties.position
        let angle = (Double.pi + 1) / 2
        XCTAssertEqual(Double(p.x), 100 * cos(angle), accuracy: 0.06)
        XCTAssertEqual(Double(p.y), 100 * sin(angle), accuracy: 0.06)
    }

    func testCurvesAreFollowedByTheirOwnParameter() {
        // The quadratic (0,0) (50,100) (100,0) at u = ½: ¼·0 + ½·(50,100) + ¼·(100,0) = (50, 50).
        let quad = try! CGPath(svgPathData: "M 0 0 Q 50 100 100 0")
        XCTAssertEqual(along(quad, at: 10.5).properties.position, CGPoint(x: 50, y: 50))
        // A close is a segment back to the subpath's start; a move-to is no segment.
        let closed = try! CGPath(svgPathData: "M 0 0 L 100 0 Z")
        XCTAssertEqual(along(closed, at: 10.75).properties.position, CGPoint(x: 50, y: 0))
        let jump = try! CGPath(svgPathData: "M 0 0 L 100 0 M 0 50 L 100 50")
        XCTAssertEqual(along(jump, at: 10.75).properties.position, CGPoint(x: 50, y: 50))
        // Discrete: the keyframes (0,0), (100,0), (100,300), each a third of the time.
        XCTAssertEqual(along(twoLines, at: 10.5) { $0.calculationMode = .discrete }.properties.position, CGPoint(x: 100, y: 0))
        XCTAssertEqual(along(twoLines, at: 10.7) { $0.calculationMode = .discrete }.properties.position, CGPoint(x: 100, y: 300))
    }

    func testRotateAutoTurnsToTheTangent() {
        // First line heads along +x (angle 0), the second along +y: atan2(300, 0) = π/2.
        let first = along(twoLines, at: 10.25) { $0.rotationMode = .rotateAuto }.properties.transform
        XCTAssertEqual(first, CATransform3DMakeRotation(0, 0, 0, 1))
        let second = along(twoLines, at: 10.75) { $0.rotationMode = .rotateAuto }.properties.transform
        XCTAssertEqual(atan2(Double(second.m12), Double(second.m11)), .pi / 2)
        XCTAssertEqual(second.m11, 0, accuracy: 1e-15)
        XCTAssertEqual(second.m12, 1)
        XCTAssertEqual(second.m21, -1)
        // autoReverse adds half a turn: 3π/2, i.e. cos 0, sin −1.
        let reversed = along(twoLines, at: 10.75) { $0.rotationMode = .rotateAutoReverse }.properties.transform
        XCTAssertEqual(reversed.m12, -1, accuracy: 1e-15)
        XCTAssertEqual(reversed.m11, 0, accuracy: 1e-15)
        // On a curve: the quadratic's derivative at u = ½ is 2·(½·(50,100) + ½·(50,−100)) =
        // (50, 0): angle 0; at its start it is 2·(50, 100): atan2(100, 50).
        let quad = try! CGPath(svgPathData: "M 0 0 Q 50 100 100 0")
        let top = along(quad, at: 10.5) { $0.rotationMode = .rotateAuto }.properties.transform
        XCTAssertEqual(top.m12, 0, accuracy: 1e-15)
        XCTAssertEqual(top.m11, 1)
        let start = along(quad, at: 10) { $0.rotationMode = .rotateAuto }.properties.transform
        XCTAssertEqual(Double(start.m12) / Double(start.m11), 2, accuracy: 1e-12)
        // The turn is added to the model transform: a scale of 2 turned by π/2.
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = twoLines
        a.rotationMode = .rotateAuto
        let scaled = sample(layer, a, at: 10.75).properties.transform
        XCTAssertEqual(scaled.m12, 2)
        XCTAssertEqual(scaled.m21, -2)
        XCTAssertEqual(scaled.m11, 0, accuracy: 1e-15)
        // Without a path, rotationMode does nothing.
        let b = CAKeyframeAnimation(keyPath: "position")
        b.values = [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 10)]
        b.rotationMode = .rotateAuto
        XCTAssertEqual(sample(CALayer(), b, at: 10.5).properties.transform, .identity)
    }

    private func keyframeX(_ configure: (CAKeyframeAnimation) -> Void, at t: Double) -> CGFloat {
        let a = CAKeyframeAnimation(keyPath: "position.x")
        configure(a)
        return sample(CALayer(), a, at: t).properties.position.x
    }

    func testCubicPacedRunsTheSplineAtConstantSpeed() {
        // Values 0, 10, 30, 60: every Catmull-Rom piece is monotonic (control points 0, 5/3, 5,
        // 10; 10, 15, 65/3, 30; 30, 115/3, 55, 60), so its arc length is the change of value and
        // constant speed means x = 60·p.
        let values: [Any] = [0, 10, 30, 60]
        for (t, x) in [(10.0, 0.0), (10.1, 6), (10.25, 15), (10.5, 30), (10.9, 54)] {
            XCTAssertEqual(keyframeX({
                $0.values = values
                $0.calculationMode = .cubicPaced
            }, at: t), x, accuracy: 1e-9, "at \(t)")
        }
        // The end value holds with fill forwards.
        XCTAssertEqual(keyframeX({
            $0.values = values
            $0.calculationMode = .cubicPaced
            $0.fillMode = .forwards
            $0.isRemovedOnCompletion = false
        }, at: 11), 60)
        // Plain cubic at p = ⅙ (half of the first piece): ½·0 + ⅜·5/3 + ⅜·5 + ⅛·10 = 3.75.
        XCTAssertEqual(keyframeX({
            $0.values = values
            $0.calculationMode = .cubic
        }, at: 10 + 1.0 / 6), 3.75, accuracy: 1e-9)
    }

    func testPathValuedKeyPaths() {
        let small = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let large = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 40))
        // Same elements: point by point, halfway a 15 × 25 rectangle.
        let a = CABasicAnimation(keyPath: "shadowPath")
        a.fromValue = small
        a.toValue = large
        XCTAssertEqual(sample(CALayer(), a, at: 10.5).properties.shadowPath, CGPath(rect: CGRect(x: 0, y: 0, width: 15, height: 25)))
        // Different elements: the first until halfway, then the second.
        let ellipse = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 40))
        for (t, expected) in [(10.25, small), (10.75, ellipse)] {
            let shape = CAShapeLayer()
            let b = CABasicAnimation(keyPath: "path")
            b.fromValue = small
            b.toValue = ellipse
            guard case let .shape(style) = sample(shape, b, at: t).kind else { return XCTFail("not a shape") }
            XCTAssertEqual(style.path, expected, "at \(t)")
        }
        let shape = CAShapeLayer()
        let c = CAKeyframeAnimation(keyPath: "path")
        c.values = [small, large]
        guard case let .shape(style) = sample(shape, c, at: 10.5).kind else { return XCTFail("not a shape") }
        XCTAssertEqual(style.path, CGPath(rect: CGRect(x: 0, y: 0, width: 15, height: 25)))
    }

    func testContentsSwitchDiscretely() {
        let one = CGImage(bitmap: Bitmap(width: 1, height: 1)), two = CGImage(bitmap: Bitmap(width: 2, height: 2))
        let a = CAKeyframeAnimation(keyPath: "contents")
        a.values = [one, two]
        a.calculationMode = .discrete
        XCTAssertTrue(sample(CALayer(), a, at: 10.25).properties.contents === one)
        XCTAssertTrue(sample(CALayer(), a, at: 10.75).properties.contents === two)
        let b = CABasicAnimation(keyPath: "contents")
        b.fromValue = one
        b.toValue = two
        XCTAssertTrue(sample(CALayer(), b, at: 10.4).properties.contents === one)
        XCTAssertTrue(sample(CALayer(), b, at: 10.6).properties.contents === two)
    }

    func testGradientListsInterpolateElementWise() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let g = CAGradientLayer()
        let a = CABasicAnimation(keyPath: "colors")
        a.fromValue = [red, blue]
        a.toValue = [blue, red]
        let l = CABasicAnimation(keyPath: "locations")
        l.fromValue = [0, 1] as [CGFloat]
        l.toValue = [0.5, 1] as [CGFloat]
        l.beginTime = 10
        l.duration = 1
        g.add(l, forKey: "locations")
        guard case let .gradient(style) = sample(g, a, at: 10.5).kind else { return XCTFail("not a gradient") }
        let purple = CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
        XCTAssertEqual(style.colors, [purple, purple])
        XCTAssertEqual(style.locations, [0.25, 1])
        // Lists of different lengths cannot be mixed: the first until halfway.
        let b = CABasicAnimation(keyPath: "colors")
        b.fromValue = [red, blue]
        b.toValue = [blue, red, blue]
        guard case let .gradient(early) = sample(CAGradientLayer(), b, at: 10.25).kind else { return XCTFail("not a gradient") }
        XCTAssertEqual(early.colors, [red, blue])
    }

    func testScenePathAnimation() throws {
        let scene = try readScene(sceneText(root: #"""
            {"animations": [{"type": "keyframe", "keyPath": "position", "path": "M 0 0 L 100 0 L 100 300",
                             "calculationMode": "paced", "rotationMode": "auto", "duration": 1},
                            {"type": "keyframe", "keyPath": "shadowPath", "values": ["M 0 0 L 10 0", "M 0 0 L 20 40"], "duration": 1}]}
            """#))
        let s = scene.snapshot(atTime: 0.5).properties
        XCTAssertEqual(s.position, CGPoint(x: 100, y: 100))
        XCTAssertEqual(s.transform.m12, 1)
        XCTAssertEqual(s.shadowPath, try CGPath(svgPathData: "M 0 0 L 15 20"))
        let again = try Scene(data: try scene.jsonData(), baseDirectory: "", fileName: "test.json")
        XCTAssertEqual(String(decoding: try again.jsonData(), as: UTF8.self), String(decoding: try scene.jsonData(), as: UTF8.self))
        XCTAssertEqual(again.snapshot(atTime: 0.75), scene.snapshot(atTime: 0.75))
    }

    /// `contents` values in a scene are image names; the writer names them again.
    func testSceneContentsAnimation() throws {
        let images = examplesDirectory.appendingPathComponent("images").path
        let text = sceneText(root: #"""
            {"contents": "cat", "animations": [{"type": "keyframe", "keyPath": "contents", "values": ["cat", "star"],
                                                "calculationMode": "discrete", "duration": 1}]}
            """#, extra: #""images": {"cat": "cat.png", "star": "star.png"}"#)
        let scene = try readScene(text, directory: images)
        XCTAssertTrue(scene.snapshot(atTime: 0.25).properties.contents === scene.decodedImages["cat"])
        XCTAssertTrue(scene.snapshot(atTime: 0.75).properties.contents === scene.decodedImages["star"])
        let written = String(decoding: try scene.jsonData(), as: UTF8.self)
        XCTAssertTrue(written.contains(#""values":["cat","star"]"#) || written.contains(#""values": ["cat", "star"]"#), written)
    }
}
