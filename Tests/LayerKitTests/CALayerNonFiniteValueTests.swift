import Foundation
import LayerKitCore
import XCTest

/// The setter rule of `CALayer` and the typed layers (PropertySetterRules.swift): a value with
/// a NaN or infinite component is ignored; fractions keep finite values as given, out of 0…1
/// included (Core Animation clamps them when drawing).
final class CALayerNonFiniteValueTests: XCTestCase {
    private let bad: [CGFloat] = [.nan, .infinity, -.infinity]

    /// Sets `keyPath` to a good value, then to each value made with a non-finite number, and
    /// checks that the good value stays.
    private func assertIgnoresNonFinite<L: CALayer, T: Equatable>(
        _ layer: L, _ keyPath: ReferenceWritableKeyPath<L, T>, good: T, bad make: (CGFloat) -> T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        layer[keyPath: keyPath] = good
        XCTAssertEqual(layer[keyPath: keyPath], good, "\(keyPath) refused a finite value", file: file, line: line)
        for v in bad {
            layer[keyPath: keyPath] = make(v)
            XCTAssertEqual(layer[keyPath: keyPath], good, "\(keyPath) took \(v)", file: file, line: line)
        }
    }

    func testGeometryIgnoresNonFiniteValues() {
        let l = CALayer()
        assertIgnoresNonFinite(l, \.bounds, good: CGRect(x: 1, y: 2, width: 3, height: 4)) { CGRect(x: 0, y: 0, width: $0, height: 1) }
        assertIgnoresNonFinite(l, \.bounds, good: CGRect(x: 1, y: 2, width: 3, height: 4)) { CGRect(x: $0, y: 0, width: 1, height: 1) }
        assertIgnoresNonFinite(l, \.position, good: CGPoint(x: 5, y: 6)) { CGPoint(x: 0, y: $0) }
        assertIgnoresNonFinite(l, \.anchorPoint, good: CGPoint(x: 0.25, y: 1)) { CGPoint(x: $0, y: 0) }
        assertIgnoresNonFinite(l, \.anchorPointZ, good: 3) { $0 }
        assertIgnoresNonFinite(l, \.zPosition, good: -7) { $0 }
        assertIgnoresNonFinite(l, \.cornerRadius, good: 4) { $0 }
        assertIgnoresNonFinite(l, \.borderWidth, good: 2) { $0 }
        assertIgnoresNonFinite(l, \.contentsScale, good: 2) { $0 }
        assertIgnoresNonFinite(l, \.contentsRect, good: CGRect(x: 0, y: 0, width: 0.5, height: 0.5)) { CGRect(x: 0, y: 0, width: $0, height: 1) }
        assertIgnoresNonFinite(l, \.contentsCenter, good: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)) { CGRect(x: 0, y: $0, width: 1, height: 1) }
        assertIgnoresNonFinite(l, \.shadowOffset, good: CGSize(width: 1, height: 2)) { CGSize(width: $0, height: 0) }
        assertIgnoresNonFinite(l, \.shadowRadius, good: 5) { $0 }
        assertIgnoresNonFinite(l, \.rasterizationScale, good: 3) { $0 }
        assertIgnoresNonFinite(l, \.shadowPath, good: CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))) {
            CGPath(elements: [.moveTo(.zero), .lineTo(CGPoint(x: $0, y: 1))])
        }
    }

    func testTransformsWithAnyNonFiniteEntryAreIgnored() {
        let l = CALayer()
        let good = CATransform3DMakeRotation(0.5, 0, 0, 1)
        for entry in 0..<16 {
            assertIgnoresNonFinite(l, \.transform, good: good) { v in
                var e = good.entries
                e[entry] = v
                return CATransform3D(e)
            }
            assertIgnoresNonFinite(l, \.sublayerTransform, good: good) { v in
                var e = good.entries
                e[entry] = v
                return CATransform3D(e)
            }
        }
        // Singular transforms are finite, so they are kept (the renderers draw nothing for them).
        l.transform = CATransform3DMakeScale(0, 0, 0)
        XCTAssertEqual(l.transform, CATransform3DMakeScale(0, 0, 0))
    }

    func testAnIgnoredValueMarksNoLayout() {
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        parent.layoutIfNeeded()
        child.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)
        child.transform = CATransform3DMakeTranslation(.infinity, 0, 0)
        XCTAssertFalse(child.needsLayout())
        XCTAssertFalse(parent.needsLayout())
    }

    func testFrameIgnoresNonFiniteRects() {
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        for v in bad {
            l.frame = CGRect(x: v, y: 0, width: 1, height: 1)
            l.frame = CGRect(x: 0, y: 0, width: 1, height: v)
        }
        XCTAssertEqual(l.frame, CGRect(x: 10, y: 20, width: 30, height: 40))
        // A singular transform has no inverse to size the bounds with; they stay finite.
        l.transform = CATransform3DMakeScale(0, 1, 1)
        l.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        XCTAssertTrue(l.bounds.width.isFinite && l.bounds.height.isFinite && l.position.x.isFinite, "\(l.bounds) \(l.position)")
    }

    /// Core Animation stores an opacity as given and clamps it when compositing; only NaN and
    /// the infinities, which have no meaning, are ignored.
    func testOpacitiesKeepFiniteValuesAsGivenAndIgnoreNonFinite() {
        let l = CALayer()
        for (kp, name) in [(\CALayer.opacity, "opacity"), (\CALayer.shadowOpacity, "shadowOpacity")] {
            l[keyPath: kp] = 0.5
            l[keyPath: kp] = .nan
            XCTAssertEqual(l[keyPath: kp], 0.5, name)
            l[keyPath: kp] = 2
            XCTAssertEqual(l[keyPath: kp], 2, name)
            l[keyPath: kp] = -0.25
            XCTAssertEqual(l[keyPath: kp], -0.25, name)
            l[keyPath: kp] = -.infinity
            XCTAssertEqual(l[keyPath: kp], -0.25, name)
            l[keyPath: kp] = .infinity
            XCTAssertEqual(l[keyPath: kp], -0.25, name)
        }
    }

    func testTypedLayersFollowTheSameRule() {
        let shape = CAShapeLayer()
        assertIgnoresNonFinite(shape, \.lineWidth, good: 3) { $0 }
        assertIgnoresNonFinite(shape, \.miterLimit, good: 4) { $0 }
        assertIgnoresNonFinite(shape, \.lineDashPhase, good: 2) { $0 }
        assertIgnoresNonFinite(shape, \.lineDashPattern, good: [2, 3]) { [2, NSNumber(value: Double($0))] }
        assertIgnoresNonFinite(shape, \.path, good: CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4))) {
            CGPath(elements: [.moveTo(.zero), .curveTo(CGPoint(x: 1, y: 1), control1: .zero, control2: CGPoint(x: $0, y: 0))])
        }
        shape.strokeStart = -1
        shape.strokeEnd = 3
        XCTAssertEqual([shape.strokeStart, shape.strokeEnd], [-1, 3], "kept as given, clamped when drawn")
        assertIgnoresNonFinite(shape, \.strokeStart, good: 0.25) { $0 }
        assertIgnoresNonFinite(shape, \.strokeEnd, good: 1.5) { $0 }
        shape.path = nil
        XCTAssertNil(shape.path, "nil is a valid path")

        let gradient = CAGradientLayer()
        assertIgnoresNonFinite(gradient, \.startPoint, good: CGPoint(x: 0, y: 0.5)) { CGPoint(x: $0, y: 0) }
        assertIgnoresNonFinite(gradient, \.endPoint, good: CGPoint(x: 1, y: 0.5)) { CGPoint(x: 0, y: $0) }
        assertIgnoresNonFinite(gradient, \.locations, good: [0, 0.5, 1]) { [0, NSNumber(value: Double($0)), 1] }

        let text = CATextLayer()
        assertIgnoresNonFinite(text, \.fontSize, good: 12) { $0 }
    }

    func testPropertiesThemselvesCheckNothing() {
        // The documented escape hatch: the struct is a plain value.
        let l = CALayer()
        l.properties.position = CGPoint(x: CGFloat.nan, y: 0)
        l.properties.opacity = 3
        XCTAssertTrue(l.position.x.isNaN)
        XCTAssertEqual(l.opacity, 3)
    }
}
