import Foundation
@testable import LayerKitScene
import XCTest
@testable import LayerKitCore

/// Every property's default against Core Animation's documented defaults, as listed in the
/// scene-format table (`docs/scene-format.md`, "Layers" and the typed layers).
final class CALayerDefaultsTests: XCTestCase {
    private let opaqueBlack: [CGFloat] = [0, 0, 0, 1]
    private let opaqueWhite: [CGFloat] = [1, 1, 1, 1]

    /// The `CALayer` defaults, checked on any layer (the typed layers inherit them all).
    private func assertLayerDefaults(_ l: CALayer, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(l.name, "name", file: file, line: line)
        XCTAssertEqual(l.bounds, CGRect(x: 0, y: 0, width: 0, height: 0), "bounds", file: file, line: line)
        XCTAssertEqual(l.position, CGPoint(x: 0, y: 0), "position", file: file, line: line)
        XCTAssertEqual(l.frame, CGRect(x: 0, y: 0, width: 0, height: 0), "frame", file: file, line: line)
        XCTAssertEqual(l.anchorPoint, CGPoint(x: 0.5, y: 0.5), "anchorPoint", file: file, line: line)
        XCTAssertEqual(l.anchorPointZ, 0, "anchorPointZ", file: file, line: line)
        XCTAssertEqual(l.zPosition, 0, "zPosition", file: file, line: line)
        XCTAssertEqual(l.transform, CATransform3DIdentity, "transform", file: file, line: line)
        XCTAssertTrue(CATransform3DIsIdentity(l.transform), "transform", file: file, line: line)
        XCTAssertEqual(l.affineTransform(), CGAffineTransformIdentity, "affineTransform", file: file, line: line)
        XCTAssertEqual(l.sublayerTransform, CATransform3DIdentity, "sublayerTransform", file: file, line: line)
        XCTAssertFalse(l.isHidden, "hidden", file: file, line: line)
        XCTAssertEqual(l.opacity, 1, "opacity", file: file, line: line)
        XCTAssertTrue(l.allowsGroupOpacity, "allowsGroupOpacity", file: file, line: line)
        XCTAssertNil(l.backgroundColor, "backgroundColor", file: file, line: line)
        XCTAssertEqual(l.cornerRadius, 0, "cornerRadius", file: file, line: line)
        XCTAssertEqual(l.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner],
                       "maskedCorners", file: file, line: line)
        XCTAssertEqual(l.cornerCurve, .circular, "cornerCurve", file: file, line: line)
        XCTAssertEqual(l.borderWidth, 0, "borderWidth", file: file, line: line)
        XCTAssertEqual(l.borderColor?.components, opaqueBlack, "borderColor", file: file, line: line)
        XCTAssertFalse(l.masksToBounds, "masksToBounds", file: file, line: line)
        XCTAssertTrue(l.isDoubleSided, "doubleSided", file: file, line: line)
        XCTAssertFalse(l.isGeometryFlipped, "geometryFlipped", file: file, line: line)
        XCTAssertNil(l.contents, "contents", file: file, line: line)
        XCTAssertEqual(l.contentsGravity, .resize, "contentsGravity", file: file, line: line)
        XCTAssertEqual(l.contentsGravity.rawValue, "resize", "contentsGravity", file: file, line: line)
        XCTAssertEqual(l.contentsScale, 1, "contentsScale", file: file, line: line)
        XCTAssertEqual(l.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1), "contentsRect", file: file, line: line)
        XCTAssertEqual(l.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1), "contentsCenter", file: file, line: line)
        XCTAssertEqual(l.minificationFilter, .linear, "minificationFilter", file: file, line: line)
        XCTAssertEqual(l.magnificationFilter, .linear, "magnificationFilter", file: file, line: line)
        XCTAssertEqual(l.minificationFilter.rawValue, "linear", file: file, line: line)
        XCTAssertFalse(l.allowsEdgeAntialiasing, "allowsEdgeAntialiasing", file: file, line: line)
        XCTAssertEqual(l.shadowColor?.components, opaqueBlack, "shadowColor", file: file, line: line)
        XCTAssertEqual(l.shadowOpacity, 0, "shadowOpacity", file: file, line: line)
        XCTAssertEqual(l.shadowOffset, CGSize(width: 0, height: -3), "shadowOffset", file: file, line: line)
        XCTAssertEqual(l.shadowRadius, 3, "shadowRadius", file: file, line: line)
        XCTAssertNil(l.shadowPath, "shadowPath", file: file, line: line)
        XCTAssertNil(l.mask, "mask", file: file, line: line)
        XCTAssertFalse(l.shouldRasterize, "shouldRasterize", file: file, line: line)
        XCTAssertEqual(l.rasterizationScale, 1, "rasterizationScale", file: file, line: line)
        XCTAssertNil(l.sublayers, "sublayers", file: file, line: line)
        XCTAssertNil(l.superlayer, "superlayer", file: file, line: line)
        XCTAssertNil(l.delegate, "delegate", file: file, line: line)
        XCTAssertEqual(l.properties, LayerProperties(), "properties", file: file, line: line)
    }

    func testCALayerDefaults() {
        assertLayerDefaults(CALayer())
    }

    func testLayerPropertiesDefaultsMatchALayer() {
        let p = LayerProperties()
        XCTAssertEqual(p.anchorPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(p.shadowOffset, CGSize(width: 0, height: -3))
        XCTAssertEqual(p.borderColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(p.shadowColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(CALayer().properties, p)
    }

    func testCATransformLayerDefaults() {
        let l = CATransformLayer()
        assertLayerDefaults(l)
        XCTAssertEqual(l.snapshotKind, .transformLayer)
    }

    func testCAShapeLayerDefaults() {
        let l = CAShapeLayer()
        assertLayerDefaults(l)
        XCTAssertNil(l.path, "path")
        XCTAssertEqual(l.fillColor?.components, opaqueBlack, "fillColor")
        XCTAssertEqual(l.fillRule, .nonZero, "fillRule")
        XCTAssertNil(l.strokeColor, "strokeColor")
        XCTAssertEqual(l.lineWidth, 1, "lineWidth")
        XCTAssertEqual(l.lineCap, .butt, "lineCap")
        XCTAssertEqual(l.lineJoin, .miter, "lineJoin")
        XCTAssertEqual(l.miterLimit, 10, "miterLimit")
        XCTAssertNil(l.lineDashPattern, "lineDashPattern")
        XCTAssertEqual(l.lineDashPhase, 0, "lineDashPhase")
        XCTAssertEqual(l.strokeStart, 0, "strokeStart")
        XCTAssertEqual(l.strokeEnd, 1, "strokeEnd")
        XCTAssertEqual(l.style, ShapeStyle())
        XCTAssertEqual(l.snapshotKind, .shape(ShapeStyle()))
    }

    func testCAGradientLayerDefaults() {
        let l = CAGradientLayer()
        assertLayerDefaults(l)
        XCTAssertNil(l.colors, "colors")
        XCTAssertNil(l.locations, "locations: nil spaces the colours evenly")
        XCTAssertEqual(l.startPoint, CGPoint(x: 0.5, y: 0), "startPoint")
        XCTAssertEqual(l.endPoint, CGPoint(x: 0.5, y: 1), "endPoint")
        XCTAssertEqual(l.type, .axial, "type")
        XCTAssertEqual(l.style, GradientStyle())
        XCTAssertEqual(l.snapshotKind, .gradient(GradientStyle()))
    }

    func testCATextLayerDefaults() {
        let l = CATextLayer()
        assertLayerDefaults(l)
        XCTAssertNil(l.string, "string")
        XCTAssertNil(l.font, "font: nil is the default font")
        XCTAssertEqual(l.fontSize, 36, "fontSize")
        XCTAssertEqual(l.foregroundColor?.components, opaqueWhite, "foregroundColor")
        XCTAssertEqual(l.alignmentMode, .natural, "alignmentMode")
        XCTAssertFalse(l.isWrapped, "wrapped")
        XCTAssertEqual(l.truncationMode, CATextLayerTruncationMode.none, "truncationMode")
        XCTAssertEqual(l.style, TextStyle())
        XCTAssertEqual(l.snapshotKind, .text(TextStyle()))
    }

    func testPlainLayerSnapshotKind() {
        XCTAssertEqual(CALayer().snapshotKind, .layer)
    }

    // MARK: Scene-file spellings of the enumerations

    func testContentsGravitySpellings() {
        XCTAssertEqual(Set(CALayerContentsGravity.allCases.map(\.rawValue)),
                       ["resize", "resizeAspect", "resizeAspectFill", "center", "top", "bottom", "left", "right",
                        "topLeft", "topRight", "bottomLeft", "bottomRight"])
        XCTAssertEqual(CALayerContentsGravity.allCases.count, 12)
        XCTAssertEqual(CALayerContentsGravity.topLeft.rawValue, "topLeft")
        XCTAssertEqual(CALayerContentsGravity.resizeAspectFill.rawValue, "resizeAspectFill")
    }

    func testContentsFilterSpellings() {
        XCTAssertEqual(CALayerContentsFilter.allCases.map(\.rawValue).sorted(), ["linear", "nearest", "trilinear"])
    }

    func testTypedLayerEnumerationSpellings() {
        XCTAssertEqual(CAShapeLayerFillRule.allCases.map(\.rawValue), ["nonZero", "evenOdd"])
        XCTAssertEqual(CAShapeLayerLineCap.allCases.map(\.rawValue), ["butt", "round", "square"])
        XCTAssertEqual(CAShapeLayerLineJoin.allCases.map(\.rawValue), ["miter", "round", "bevel"])
        XCTAssertEqual(CAGradientLayerType.allCases.map(\.rawValue), ["axial", "radial", "conic"])
        XCTAssertEqual(CATextLayerAlignmentMode.allCases.map(\.rawValue), ["natural", "left", "right", "center", "justified"])
        XCTAssertEqual(CATextLayerTruncationMode.allCases.map(\.rawValue), ["none", "start", "middle", "end"])
    }

    // MARK: Properties forward to the value

    func testPropertiesForwardToLayerProperties() {
        let l = CALayer()
        l.name = "n"
        l.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        l.position = CGPoint(x: 5, y: 6)
        l.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        l.anchorPointZ = 7
        l.zPosition = 8
        l.transform = CATransform3DMakeScale(2, 2, 2)
        l.sublayerTransform = CATransform3DMakeTranslation(1, 1, 1)
        l.isHidden = true
        l.opacity = 0.5
        l.allowsGroupOpacity = false
        l.backgroundColor = .white
        l.cornerRadius = 9
        l.maskedCorners = [.layerMaxXMaxYCorner]
        l.cornerCurve = .continuous
        l.borderWidth = 10
        l.borderColor = nil
        l.masksToBounds = true
        l.isDoubleSided = false
        l.isGeometryFlipped = true
        l.contentsGravity = .topLeft
        l.contentsScale = 2
        l.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        l.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        l.minificationFilter = .trilinear
        l.magnificationFilter = .nearest
        l.allowsEdgeAntialiasing = true
        l.shadowColor = .white
        l.shadowOpacity = 0.75
        l.shadowOffset = CGSize(width: 4, height: 5)
        l.shadowRadius = 6
        l.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        l.shouldRasterize = true
        l.rasterizationScale = 3

        let p = l.properties
        XCTAssertEqual(p.name, "n")
        XCTAssertEqual(p.bounds, CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(p.position, CGPoint(x: 5, y: 6))
        XCTAssertEqual(p.anchorPoint, CGPoint(x: 0.25, y: 0.75))
        XCTAssertEqual(p.anchorPointZ, 7)
        XCTAssertEqual(p.zPosition, 8)
        XCTAssertEqual(p.transform, CATransform3DMakeScale(2, 2, 2))
        XCTAssertEqual(p.sublayerTransform, CATransform3DMakeTranslation(1, 1, 1))
        XCTAssertTrue(p.isHidden)
        XCTAssertEqual(p.opacity, 0.5)
        XCTAssertFalse(p.allowsGroupOpacity)
        XCTAssertEqual(p.backgroundColor, .white)
        XCTAssertEqual(p.cornerRadius, 9)
        XCTAssertEqual(p.maskedCorners, [.layerMaxXMaxYCorner])
        XCTAssertEqual(p.cornerCurve, .continuous)
        XCTAssertEqual(p.borderWidth, 10)
        XCTAssertNil(p.borderColor)
        XCTAssertTrue(p.masksToBounds)
        XCTAssertFalse(p.isDoubleSided)
        XCTAssertTrue(p.isGeometryFlipped)
        XCTAssertEqual(p.contentsGravity, .topLeft)
        XCTAssertEqual(p.contentsScale, 2)
        XCTAssertEqual(p.contentsRect, CGRect(x: 0.5, y: 0, width: 0.5, height: 1))
        XCTAssertEqual(p.contentsCenter, CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        XCTAssertEqual(p.minificationFilter, .trilinear)
        XCTAssertEqual(p.magnificationFilter, .nearest)
        XCTAssertTrue(p.allowsEdgeAntialiasing)
        XCTAssertEqual(p.shadowColor, .white)
        XCTAssertEqual(p.shadowOpacity, 0.75)
        XCTAssertEqual(p.shadowOffset, CGSize(width: 4, height: 5))
        XCTAssertEqual(p.shadowRadius, 6)
        XCTAssertEqual(p.shadowPath, CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        XCTAssertTrue(p.shouldRasterize)
        XCTAssertEqual(p.rasterizationScale, 3)
    }

    func testInitLayerCopiesPropertiesButNotTree() {
        let original = CALayer()
        original.name = "original"
        original.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        original.opacity = 0.25
        original.addSublayer(CALayer())
        original.mask = CALayer()
        let parent = CALayer()
        parent.addSublayer(original)

        let copy = CALayer(layer: original)
        XCTAssertEqual(copy.properties, original.properties)
        XCTAssertNil(copy.sublayers)
        XCTAssertNil(copy.mask)
        XCTAssertNil(copy.superlayer)
        // A value copy: editing the copy leaves the original alone.
        copy.opacity = 1
        XCTAssertEqual(original.opacity, 0.25)
    }
}
