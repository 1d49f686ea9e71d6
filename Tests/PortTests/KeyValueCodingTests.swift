import QuartzCore
import XCTest

/// Key-value coding on layers and animations as iOS code writes it.
final class KeyValueCodingTests: XCTestCase {
    func testPropertiesReadAndWriteThroughBoxedValues() throws {
        let layer = CALayer()
        layer.setValue(NSValue(cgPoint: CGPoint(x: 3, y: 4)), forKey: "position")
        XCTAssertEqual(layer.position, CGPoint(x: 3, y: 4))
        XCTAssertEqual(layer.value(forKey: "position") as? CGPoint, CGPoint(x: 3, y: 4), "NSValue reads back as CGPoint")
        XCTAssertEqual((layer.value(forKey: "position") as? NSValue)?.cgPointValue, CGPoint(x: 3, y: 4))
        layer.setValue(0.5, forKey: "opacity")
        XCTAssertEqual(layer.opacity, 0.5)
        XCTAssertEqual(layer.value(forKey: "opacity") as? Float, 0.5)
        XCTAssertEqual(layer.value(forKey: "opacity") as? CGFloat, 0.5)
        XCTAssertEqual((layer.value(forKey: "opacity") as? NSNumber)?.doubleValue, 0.5)
        layer.setValue(NSNumber(value: 6), forKeyPath: "cornerRadius")
        XCTAssertEqual(layer.cornerRadius, 6)
        layer.setValue(12, forKeyPath: "position.x")
        XCTAssertEqual(layer.position, CGPoint(x: 12, y: 4), "a component changes the property it belongs to")
        layer.setValue(NSValue(cgSize: CGSize(width: 20, height: 8)), forKeyPath: "bounds.size")
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 20, height: 8))
        layer.setValue(CGColor(red: 0, green: 0, blue: 1, alpha: 1), forKey: "backgroundColor")
        XCTAssertEqual(layer.backgroundColor, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertEqual(layer.value(forKey: "backgroundColor") as! CGColor, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        layer.setValue(true, forKey: "masksToBounds")
        XCTAssertTrue(layer.masksToBounds)
        XCTAssertEqual(layer.value(forKey: "masksToBounds") as? Bool, true)
    }

    /// A colour that holds none reads back `nil`, as on Apple's platforms (a plain layer's
    /// background, a shape's stroke, and any colour set to `nil`); one that is set reads back
    /// as its `CGColor`, the defaults opaque black included. So do the contents, paths and a
    /// gradient's colours and locations, unset or set to `nil`.
    func testAPropertyThatHoldsNothingReadsBackNil() throws {
        let layer = CALayer()
        XCTAssertNil(layer.value(forKey: "backgroundColor"))
        XCTAssertNil(CALayer.defaultValue(forKey: "backgroundColor"))
        XCTAssertEqual(try XCTUnwrap(layer.value(forKey: "borderColor") as? CGColor), .black)
        layer.borderColor = nil
        XCTAssertNil(layer.value(forKey: "borderColor"))
        layer.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKey: "backgroundColor")
        XCTAssertEqual(try XCTUnwrap(layer.value(forKeyPath: "backgroundColor") as? CGColor), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        layer.setValue(nil, forKey: "backgroundColor")
        XCTAssertNil(layer.backgroundColor)
        XCTAssertNil(layer.value(forKey: "backgroundColor"))
        let shape = CAShapeLayer()
        XCTAssertNil(shape.value(forKey: "strokeColor"))
        XCTAssertEqual(try XCTUnwrap(shape.value(forKey: "fillColor") as? CGColor), .black)
        shape.fillColor = nil
        XCTAssertNil(shape.value(forKey: "fillColor"))
        // The other properties that may hold nothing read back nil too.
        XCTAssertNil(layer.value(forKey: "contents"))
        XCTAssertNil(layer.value(forKey: "shadowPath"))
        XCTAssertNil(shape.value(forKey: "path"))
        let gradient = CAGradientLayer()
        XCTAssertNil(gradient.value(forKey: "colors"))
        XCTAssertNil(gradient.value(forKey: "locations"))
        gradient.colors = [CGColor.black, CGColor.white]
        XCTAssertEqual((gradient.value(forKey: "colors") as? [CGColor])?.count, 2)
        gradient.setValue(nil, forKey: "colors")
        XCTAssertNil(gradient.colors)
        XCTAssertNil(gradient.value(forKey: "colors"))
    }

    /// Each value type that Apple's overlay bridges to `NSValue` comes out of a box of its own
    /// type with `as?`, and out of no other.
    func testBoxesUnboxAsTheirOwnTypeOnly() {
        let point = CGPoint(x: 1, y: 2), size = CGSize(width: 3, height: 4), rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        let t3 = CATransform3DMakeScale(2, 3, 4), affine = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 6)
        let boxes = [NSValue(cgPoint: point), NSValue(cgSize: size), NSValue(cgRect: rect), NSValue(caTransform3D: t3),
                     NSValue(cgAffineTransform: affine)]
        for (i, box) in boxes.enumerated() {
            XCTAssertEqual(box as? CGPoint, i == 0 ? point : nil, "box \(i) as CGPoint")
            XCTAssertEqual(box as? CGSize, i == 1 ? size : nil, "box \(i) as CGSize")
            XCTAssertEqual(box as? CGRect, i == 2 ? rect : nil, "box \(i) as CGRect")
            XCTAssertEqual(box as? CATransform3D, i == 3 ? t3 : nil, "box \(i) as CATransform3D")
            XCTAssertEqual(box as? CGAffineTransform, i == 4 ? affine : nil, "box \(i) as CGAffineTransform")
        }
    }

    func testTransformKeyPaths() throws {
        let layer = CALayer()
        layer.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
        // A quarter turn about z: m11 = cos = 0, m12 = sin = 1.
        XCTAssertEqual(layer.transform.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(layer.transform.m12, 1, accuracy: 1e-12)
        let angle = try XCTUnwrap(layer.value(forKeyPath: "transform.rotation.z") as? CGFloat)
        XCTAssertEqual(angle, .pi / 2, accuracy: 1e-12)
        layer.setValue(2, forKeyPath: "transform.scale")
        XCTAssertEqual(try XCTUnwrap(layer.value(forKeyPath: "transform.scale") as? NSNumber).doubleValue, 2, accuracy: 1e-12)
        let t = CATransform3DMakeTranslation(5, 6, 0)
        layer.setValue(NSValue(caTransform3D: t), forKey: "transform")
        XCTAssertEqual(layer.transform, t)
        XCTAssertEqual((layer.value(forKey: "transform") as? NSValue)?.caTransform3DValue, t)
        XCTAssertEqual(layer.value(forKey: "transform") as? CATransform3D, t)
    }

    func testPropertiesNoAnimationChangesAreReachedToo() {
        let layer = CALayer()
        layer.setValue("badge", forKey: "name")
        layer.setValue(true, forKey: "geometryFlipped")
        layer.setValue(2, forKey: "contentsScale")
        layer.setValue("resizeAspect", forKey: "contentsGravity")
        XCTAssertEqual(layer.name, "badge")
        XCTAssertTrue(layer.isGeometryFlipped)
        XCTAssertEqual(layer.contentsScale, 2)
        XCTAssertEqual(layer.contentsGravity, .resizeAspect)
        XCTAssertEqual(layer.value(forKey: "contentsGravity") as? String, "resizeAspect")
        XCTAssertEqual(layer.value(forKey: "geometryFlipped") as? Bool, true)
        let shape = CAShapeLayer()
        shape.setValue("round", forKey: "lineCap")
        shape.setValue([4, 2], forKey: "lineDashPattern")
        XCTAssertEqual(shape.lineCap, .round)
        XCTAssertEqual(shape.lineDashPattern, [4, 2])
        let text = CATextLayer()
        text.setValue("Hello", forKey: "string")
        text.setValue(true, forKey: "wrapped")
        XCTAssertEqual(text.string, "Hello")
        XCTAssertTrue(text.isWrapped)
        // Not animatable: an animation of it changes nothing on screen.
        layer.speed = 0
        layer.timeOffset = 10.5
        let scale = CABasicAnimation(keyPath: "contentsScale")
        scale.fromValue = 1
        scale.toValue = 3
        scale.duration = 1
        scale.beginTime = 10
        layer.add(scale, forKey: nil)
        XCTAssertEqual(layer.presentation()?.contentsScale, 2)
    }

    func testAValueOfTheWrongTypeIsRefusedAndReported() {
        var errors: [CAValueTypeError] = []
        let saved = valueTypeErrorHandler
        valueTypeErrorHandler = { errors.append($0) }
        defer { valueTypeErrorHandler = saved }
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        layer.setValue(NSValue(cgSize: CGSize(width: 3, height: 4)), forKey: "position")
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2), "unchanged")
        XCTAssertEqual(errors.map(\.description),
                       ["setValue(_:forKey:) for key path \"position\" is NSValue holding CGSize, but it takes a point (CGPoint or NSValue(cgPoint:)); refused"])
    }

    func testArbitraryKeysAreStoredAndWalkedThrough() {
        let layer = CALayer(), other = CALayer()
        other.opacity = 0.25
        layer.setValue(other, forKey: "partner")
        XCTAssertTrue(layer.value(forKey: "partner") as? CALayer === other)
        XCTAssertEqual(layer.value(forKeyPath: "partner.opacity") as? Float, 0.25)
        layer.setValue(0.75, forKeyPath: "partner.opacity")
        XCTAssertEqual(other.opacity, 0.75)
        layer.setValue(nil, forKey: "partner")
        XCTAssertNil(layer.value(forKey: "partner"))
        XCTAssertEqual(CALayer.defaultValue(forKey: "opacity") as? Float, 1, "a property's default")
        XCTAssertEqual(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertNil(CALayer.defaultValue(forKey: "progress"))
    }

    func testAnimationsStoreArbitraryKeysAndCopyThem() {
        let layer = CALayer()
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.setValue(layer, forKey: "layer")
        animation.setValue("fade", forKey: "name")
        XCTAssertTrue(animation.value(forKey: "layer") as? CALayer === layer)
        let copy = animation.copy() as! CABasicAnimation
        XCTAssertEqual(copy.value(forKeyPath: "name") as? String, "fade", "copied, as the layer's copy needs it in animationDidStop")
        XCTAssertNil(copy.value(forKey: "other"))
    }

    func testAnimationPropertiesByTheirKeyValueCodingNames() {
        let animation = CABasicAnimation(keyPath: "position")
        animation.setValue(2, forKey: "duration")
        animation.setValue(false, forKey: "removedOnCompletion")
        animation.setValue("forwards", forKey: "fillMode")
        animation.setValue(NSValue(cgPoint: CGPoint(x: 1, y: 2)), forKey: "toValue")
        XCTAssertEqual(animation.duration, 2)
        XCTAssertFalse(animation.isRemovedOnCompletion)
        XCTAssertEqual(animation.fillMode, .forwards)
        XCTAssertEqual(animation.toValue as? CGPoint, CGPoint(x: 1, y: 2))
        XCTAssertEqual(animation.value(forKey: "duration") as? Double, 2)
        XCTAssertEqual(animation.value(forKey: "keyPath") as? String, "position")
        XCTAssertEqual(animation.value(forKey: "removedOnCompletion") as? Bool, false)
        animation.setValue(nil, forKey: "toValue")
        XCTAssertNil(animation.toValue)
        let group = CAAnimationGroup()
        group.setValue(1, forKey: "toValue")
        XCTAssertEqual(group.value(forKey: "toValue") as? Int, 1, "not a group's property: stored as any key")
    }

    /// Another layer type's property is a plain layer's own key, as on Apple's `CALayer`,
    /// whose key-value coding stores any key that is not one of its class's properties: the
    /// emitter's `scale` and `spin`, the shape layer's `path`. On their own layers they are the
    /// properties.
    func testAnotherLayerTypesPropertyIsAPlainLayersOwnKey() {
        let layer = CALayer()
        layer.setValue(2.5, forKey: "scale")
        layer.setValue("clockwise", forKey: "spin")
        layer.setValue("a path", forKey: "path")
        XCTAssertEqual(layer.value(forKey: "scale") as? Double, 2.5)
        XCTAssertEqual(layer.value(forKey: "spin") as? String, "clockwise")
        XCTAssertEqual(layer.value(forKey: "path") as? String, "a path")
        let emitter = CAEmitterLayer()
        emitter.setValue(2.5, forKey: "scale")
        XCTAssertEqual(emitter.scale, 2.5)
        let shape = CAShapeLayer()
        shape.setValue(CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil), forKey: "path")
        XCTAssertEqual(shape.path?.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 4, height: 4))
    }
}

