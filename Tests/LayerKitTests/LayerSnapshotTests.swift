import Foundation
import XCTest
@testable import LayerKitCore

/// `CALayer.snapshot()`: an immutable copy of the tree (properties by value, sublayer order,
/// masks, typed layers' kinds), taken after layout.
final class LayerSnapshotTests: XCTestCase {
    private func named(_ name: String, _ l: CALayer = CALayer()) -> CALayer {
        l.name = name
        return l
    }

    func testSnapshotCopiesPropertiesAndOrder() {
        let root = named("root"), a = named("a"), b = named("b")
        root.addSublayer(a)
        root.addSublayer(b)
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        a.opacity = 0.5
        b.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let snap = root.snapshot()
        XCTAssertEqual(snap.properties, root.properties)
        XCTAssertEqual(snap.sublayers.map { $0.properties.name }, ["a", "b"])
        XCTAssertEqual(snap.sublayers[0].properties, a.properties)
        XCTAssertEqual(snap.sublayers[1].properties.transform, CATransform3DMakeRotation(0.3, 0, 0, 1))
        XCTAssertNil(snap.mask)
        XCTAssertEqual(snap.kind, .layer)
        XCTAssertFalse(snap.isTransformLayer)
    }

    func testEditingTheTreeAfterASnapshotDoesNotChangeIt() {
        let root = named("root"), a = named("a")
        root.addSublayer(a)
        a.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let snap = root.snapshot()

        root.opacity = 0.25
        root.backgroundColor = .white
        a.bounds = CGRect(x: 0, y: 0, width: 99, height: 99)
        a.name = "renamed"
        root.addSublayer(named("late"))
        root.mask = named("mask")
        a.addSublayer(named("grandchild"))

        XCTAssertEqual(snap.properties.opacity, 1)
        XCTAssertNil(snap.properties.backgroundColor)
        XCTAssertEqual(snap.sublayers.count, 1)
        XCTAssertEqual(snap.sublayers[0].properties.bounds, CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(snap.sublayers[0].properties.name, "a")
        XCTAssertTrue(snap.sublayers[0].sublayers.isEmpty)
        XCTAssertNil(snap.mask)
        XCTAssertEqual(snap.layerCount, 2)

        a.removeFromSuperlayer()
        XCTAssertEqual(snap.sublayers.count, 1)

        // A later snapshot sees the edits.
        let later = root.snapshot()
        XCTAssertEqual(later.properties.opacity, 0.25)
        XCTAssertEqual(later.sublayers.map { $0.properties.name }, ["late"])
        XCTAssertEqual(later.mask?.properties.name, "mask")
    }

    func testTypedStyleEditsAfterASnapshotDoNotChangeIt() {
        let shape = CAShapeLayer()
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let snap = shape.snapshot()
        shape.fillColor = nil
        shape.lineWidth = 7
        var expected = ShapeStyle()
        expected.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        XCTAssertEqual(snap.kind, .shape(expected))
    }

    func testLayerCountAndDepth() {
        let leaf = CALayer()
        XCTAssertEqual(leaf.snapshot().layerCount, 1)
        XCTAssertEqual(leaf.snapshot().depth, 1)

        // root ─ a ─ a1 ─ a11
        //      └ b
        let root = named("root"), a = named("a"), a1 = named("a1"), a11 = named("a11"), b = named("b")
        root.addSublayer(a)
        a.addSublayer(a1)
        a1.addSublayer(a11)
        root.addSublayer(b)
        let snap = root.snapshot()
        XCTAssertEqual(snap.layerCount, 5)
        XCTAssertEqual(snap.depth, 4)
        XCTAssertEqual(snap.sublayers[0].depth, 3)
        XCTAssertEqual(snap.sublayers[1].depth, 1)
        XCTAssertEqual(snap.sublayers[1].layerCount, 1)
    }

    func testMasksCountInLayerCountAndDepth() {
        // root ─ b, and b's mask m ─ m1 ─ m2: four levels below root through the mask.
        let root = named("root"), b = named("b"), m = named("m"), m1 = named("m1"), m2 = named("m2")
        root.addSublayer(b)
        m.addSublayer(m1)
        m1.addSublayer(m2)
        b.mask = m
        let snap = root.snapshot()
        XCTAssertEqual(snap.layerCount, 5)
        XCTAssertEqual(snap.depth, 5)
        XCTAssertEqual(snap.sublayers[0].mask?.properties.name, "m")
        XCTAssertEqual(snap.sublayers[0].mask?.sublayers.first?.properties.name, "m1")
        XCTAssertTrue(snap.sublayers[0].sublayers.isEmpty, "a mask is not a sublayer")
    }

    func testKindsOfTypedLayers() {
        let root = named("root")
        let t = CATransformLayer()
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        shape.strokeColor = .white
        shape.lineCap = .round
        let gradient = CAGradientLayer()
        gradient.colors = [CGColor.black, CGColor.white]
        gradient.locations = [0, 0.25]
        gradient.type = .radial
        let text = CATextLayer()
        text.string = "Hello"
        text.fontSize = 12
        text.alignmentMode = .center
        for l in [t, shape, gradient, text] { root.addSublayer(l) }

        let snap = root.snapshot()
        XCTAssertEqual(snap.kind, .layer)
        XCTAssertEqual(snap.sublayers.count, 4)

        XCTAssertEqual(snap.sublayers[0].kind, .transformLayer)
        XCTAssertTrue(snap.sublayers[0].isTransformLayer)

        var shapeStyle = ShapeStyle()
        shapeStyle.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        shapeStyle.strokeColor = .white
        shapeStyle.lineCap = .round
        XCTAssertEqual(snap.sublayers[1].kind, .shape(shapeStyle))
        XCTAssertFalse(snap.sublayers[1].isTransformLayer)

        var gradientStyle = GradientStyle()
        gradientStyle.colors = [.black, .white]
        gradientStyle.locations = [0, 0.25]
        gradientStyle.type = .radial
        XCTAssertEqual(snap.sublayers[2].kind, .gradient(gradientStyle))

        var textStyle = TextStyle()
        textStyle.string = "Hello"
        textStyle.fontSize = 12
        textStyle.alignmentMode = .center
        XCTAssertEqual(snap.sublayers[3].kind, .text(textStyle))
        if case .text(let style) = snap.sublayers[3].kind {
            XCTAssertEqual(style.string, "Hello")
            XCTAssertEqual(style.foregroundColor, .white)
        } else {
            XCTFail("expected a text kind")
        }
    }

    func testSnapshotFromParts() {
        var p = LayerProperties()
        p.name = "made"
        let child = LayerSnapshot(properties: LayerProperties())
        let s = LayerSnapshot(properties: p, kind: .transformLayer, sublayers: [child, child], mask: child)
        XCTAssertEqual(s.properties.name, "made")
        XCTAssertTrue(s.isTransformLayer)
        XCTAssertEqual(s.layerCount, 4)
        XCTAssertEqual(s.depth, 2)
    }

    /// Snapshots compare by what they describe: every property, the kind, the mask and the
    /// sublayers in order; a change anywhere in the tree makes them differ.
    func testSnapshotsCompareByContent() {
        func tree() -> (CALayer, CALayer, CAShapeLayer, CALayer) {
            let root = named("root"), a = named("a"), shape = CAShapeLayer(), m = named("mask")
            shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(a)
            a.addSublayer(shape)
            a.mask = m
            return (root, a, shape, m)
        }
        let (root, a, shape, m) = tree()
        let first = root.snapshot()
        XCTAssertEqual(first, root.snapshot(), "an unchanged tree")
        XCTAssertEqual(first, tree().0.snapshot(), "an equal tree built apart")
        let edits: [(String, () -> Void, () -> Void)] = [
            ("deep property", { shape.opacity = 0.5 }, { shape.opacity = 1 }),
            ("typed style", { shape.strokeColor = nil }, { shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }),
            ("mask property", { m.bounds = CGRect(x: 0, y: 0, width: 1, height: 1) }, { m.bounds = .zero }),
            ("sublayer order", { root.insertSublayer(self.named("z"), at: 0) }, { root.sublayers?.first?.removeFromSuperlayer() }),
            ("mask removed", { a.mask = nil }, { a.mask = m }),
        ]
        for (what, edit, undo) in edits {
            edit()
            XCTAssertNotEqual(first, root.snapshot(), what)
            undo()
            XCTAssertEqual(first, root.snapshot(), "\(what) undone")
        }
    }

    /// A snapshot shares the snapshots of unchanged subtrees with the last one; every kind of
    /// change reaches it (properties deep down, typed styles, masks, sublayer lists, layout).
    func testUnchangedSubtreesAreSharedAndChangesAreSeen() {
        let root = named("root"), a = named("a"), b = named("b"), leaf = named("leaf"), shape = CAShapeLayer(), m = named("m")
        root.addSublayer(a)
        root.addSublayer(b)
        a.addSublayer(leaf)
        b.addSublayer(shape)
        b.mask = m
        let first = root.snapshot()
        XCTAssertTrue(root.snapshot() === first, "an unchanged tree gives back the same snapshot")

        leaf.opacity = 0.25
        let second = root.snapshot()
        XCTAssertFalse(second === first)
        XCTAssertEqual(second.sublayers[0].sublayers[0].properties.opacity, 0.25)
        XCTAssertTrue(second.sublayers[1] === first.sublayers[1], "the untouched sibling subtree is shared")

        shape.lineWidth = 7
        guard case .shape(let style) = root.snapshot().sublayers[1].sublayers[0].kind else { return XCTFail("kind") }
        XCTAssertEqual(style.lineWidth, 7)

        m.opacity = 0.5
        XCTAssertEqual(root.snapshot().sublayers[1].mask?.properties.opacity, 0.5)

        let c = named("c")
        leaf.addSublayer(c)
        XCTAssertEqual(root.snapshot().sublayers[0].sublayers[0].sublayers.count, 1)
        c.removeFromSuperlayer()
        XCTAssertEqual(root.snapshot().sublayers[0].sublayers[0].sublayers.count, 0)

        // Moving a subtree: its old and new parents change, the subtree itself is shared.
        let moved = root.snapshot().sublayers[0].sublayers[0]
        b.addSublayer(leaf)
        let after = root.snapshot()
        XCTAssertEqual(after.sublayers[0].sublayers.count, 0)
        XCTAssertTrue(after.sublayers[1].sublayers[1] === moved)

        // Layout done by snapshot() itself is seen.
        final class Stacking: CALayer {
            override func layoutSublayers() { for (i, l) in (sublayers ?? []).enumerated() { l.position = CGPoint(x: 0, y: Double(i) * 10) } }
        }
        let stack = Stacking()
        root.addSublayer(stack)
        stack.addSublayer(named("s0"))
        stack.addSublayer(named("s1"))
        XCTAssertEqual(root.snapshot().sublayers[2].sublayers[1].properties.position.y, 10)
        stack.insertSublayer(named("s-1"), at: 0)
        XCTAssertEqual(root.snapshot().sublayers[2].sublayers.map { $0.properties.position.y }, [0, 10, 20])
    }
}
