import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

// Shared by the tests of the compositor's rules, which read its decisions off the display list.

/// A plain layer of `frame` (no background) holding `sublayers`: the usual root of a test tree.
func container(_ frame: CGRect, _ sublayers: [CALayer], name: String? = nil) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.name = name
    for s in sublayers { l.addSublayer(s) }
    return l
}

/// A solid layer named `name`, for trees whose quads are told apart by label.
func solid(_ name: String, _ frame: CGRect) -> CALayer { solidLayer(frame, rgb(255, 0, 0), name: name) }

extension CALayer {
    /// The layer after `edit`, for trees written as one expression.
    func with(_ edit: (CALayer) -> Void) -> CALayer {
        edit(self)
        return self
    }
}

/// The rotation about y by `degrees`, whose exact sine and cosine the tests write out.
func rotationY(_ degrees: Double) -> CATransform3D {
    CATransform3DMakeRotation(CGFloat(degrees * .pi / 180), 0, 1, 0)
}

/// The sixteen entries of `t`, row by row, as Core Animation names them m11 … m44.
func entries(_ t: CATransform3D) -> [Double] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map(Double.init)
}

/// The matrix with these rows (row-vector convention: translation in the last row).
func matrix(_ r1: [Double], _ r2: [Double], _ r3: [Double], _ r4: [Double]) -> [Double] { r1 + r2 + r3 + r4 }

/// `actual` equals `expected` entry by entry within `accuracy` (rounding of sines and of
/// products; the hand-computed values are exact).
func assertEqual(_ actual: [Double], _ expected: [Double], accuracy: Double = 1e-12, _ message: String = "",
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.count, expected.count, message, file: file, line: line)
    for (i, (a, e)) in zip(actual, expected).enumerated() where !(abs(a - e) <= accuracy) {
        XCTFail("\(message) entry \(i): \(a) is not \(e) (±\(accuracy)); all: \(actual)", file: file, line: line)
        return
    }
}

/// A quad's transform equals the matrix of these rows.
func assertTransform(_ q: DrawQuad, _ expected: [Double], accuracy: Double = 1e-12, file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(entries(q.transform), expected, accuracy: accuracy, "\(q.label)'s transform", file: file, line: line)
}

/// The pass a quad fills from, or `nil` for a colour or image fill.
func passFill(_ q: DrawQuad) -> PassFill? {
    if case .pass(let f) = q.fill { return f }
    return nil
}

/// The half-planes among a quad's clips, as `(a, b, c)` of `a·x + b·y + c ≥ 0`.
func halfPlanes(_ q: DrawQuad) -> [[Double]] {
    q.clips.compactMap { c in
        if case let .halfPlane(a, b, cc) = c.shape { return [a, b, cc] }
        return nil
    }
}

extension DisplayList {
    /// The labels of the canvas quads, in drawing order.
    var canvasLabels: [String] { canvas.quads.map(\.label) }
}

/// The display list of `root` on a `width` x `height` canvas.
func compose(_ root: CALayer, _ width: Double = 200, _ height: Double = 200, scale: Double = 1) -> DisplayList {
    displayList(root, width: width, height: height, scale: scale)
}
