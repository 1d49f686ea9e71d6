import Foundation
import XCTest
@testable import LayerKitCore
@testable import LayerKitScene

/// docs/scene-format.md keeps step with the reader: every field the reader knows and every
/// value of its enumerations is on the page, so a field added to the reader without its
/// documentation fails here.
final class SceneFormatPageTests: XCTestCase {
    func testThePageNamesEveryFieldAndValueTheReaderKnows() throws {
        let page = try String(contentsOf: RepositoryLinkTests.root.appendingPathComponent("docs/scene-format.md"), encoding: .utf8)
        let fields = ["format", "version", "canvas", "images", "root", "probes", "width", "height", "scale", "background",
                      "point", "hit", "type", "frame", "contents", "mask", "sublayers", "drawing"]
            + commonLayerFields.keys + shapeLayerFields.keys + gradientLayerFields.keys + textLayerFields.keys
            + replicatorLayerFields.keys + scrollLayerFields
            + SceneEmitter.keys + emitterCellFields.keys
            + ["time", "timeline", "duration", "fps"] + SceneLayerTiming.keys + SceneAnimation.allFields + AnimatableKeyPath.names.filter { !$0.contains("ransform.") }
        let values = SceneLayerType.allCases.map(\.rawValue) + CALayerContentsGravity.allCases.map(\.rawValue)
            + CALayerContentsFilter.allCases.map(\.rawValue) + CAShapeLayerFillRule.allCases.map(\.rawValue)
            + CAShapeLayerLineCap.allCases.map(\.rawValue) + CAShapeLayerLineJoin.allCases.map(\.rawValue)
            + CAGradientLayerType.allCases.map(\.rawValue) + CATextLayerAlignmentMode.allCases.map(\.rawValue)
            + CATextLayerTruncationMode.allCases.map(\.rawValue) + CALayerCornerCurve.allCases.map(\.rawValue)
            + CAScrollLayerScrollMode.allCases.map(\.rawValue)
            + CACornerMask.sceneNames.map(\.name) + CAMediaTimingFillMode.allCases.map(\.rawValue)
            + CAAnimationCalculationMode.allCases.map(\.rawValue) + ["basic", "keyframe", "spring", "group", "infinity"]
            + CAEmitterLayerEmitterShape.supportedCases.map(\.rawValue) + CAEmitterLayerEmitterMode.allCases.map(\.rawValue)
            + CAEmitterLayerRenderMode.allCases.map(\.rawValue)
        let missingFields = fields.filter { !page.contains("`\($0)`") && !page.contains("`canvas.\($0)`") }
        let missingValues = values.filter { !page.contains("\"\($0)\"") }
        XCTAssertEqual(missingFields, [], "fields the reader reads that docs/scene-format.md does not name")
        XCTAssertEqual(missingValues, [], "values the reader accepts that docs/scene-format.md does not list")
    }
}
