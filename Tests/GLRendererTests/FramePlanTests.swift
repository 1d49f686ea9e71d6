@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import XCTest

/// The frame plan, without a GL context: which quads share an instanced draw, and what each
/// draw binds and compiles.
final class FramePlanTests: XCTestCase {
    private let identity = PlaneMap(1, 0, 0, 0, 1, 0, 0, 0, 1)
    private let imageA = CGImage(bitmap: Bitmap(width: 1, height: 1))
    private let imageB = CGImage(bitmap: Bitmap(width: 2, height: 1))

    private func quad(_ fill: Fill) -> DrawQuad {
        DrawQuad(transform: CATransform3DIdentity, inverse: identity, rect: CGRect(x: 0, y: 0, width: 4, height: 4),
                 shape: .rect(corners: .square), fill: fill, opacity: 1, antialiased: false, clips: [], label: "q")
    }

    private func image(_ i: CGImage) -> Fill {
        .image(ImageFill(image: i, x: AxisMap(stops: [0, 4], texels: [0, 1]), y: AxisMap(stops: [0, 4], texels: [0, 1]),
                         minification: .linear, magnification: .linear))
    }

    private let red = Fill.color(PremultipliedColor(r: 1, g: 0, b: 0, a: 1))

    func testQuadsShareADrawUntilAUnitWouldNeedAnotherTexture() {
        // A A B colour B A: the third quad needs B on the image unit, where A is bound; the colour
        // quad samples nothing and joins; the sixth needs A again.
        let quads = [quad(image(imageA)), quad(image(imageA)), quad(image(imageB)), quad(red), quad(image(imageB)),
                     quad(image(imageA))]
        let f: [ShaderFeatures?] = [[.linear], [.linear], [.linear, .shapeFull], [.color], [.linear], [.linear]]
        // Features are indexed by record: this pass's records start at 10.
        let batches = FramePlan.batches(quads, first: 10, features: Array(repeating: nil, count: 10) + f)
        let a = ObjectIdentifier(imageA), b = ObjectIdentifier(imageB)
        XCTAssertEqual(batches, [
            FramePlan.Batch(first: 10, count: 2, features: [.linear], sources: .init(image: a)),
            FramePlan.Batch(first: 12, count: 3, features: [.linear, .shapeFull, .color], sources: .init(image: b)),
            FramePlan.Batch(first: 15, count: 1, features: [.linear], sources: .init(image: a)),
        ])
    }

    func testARecordThatDrawsNothingSamplesNothing() {
        // The middle quad's record is empty (it lies behind the eye): it does not split A from A.
        let quads = [quad(image(imageA)), quad(image(imageB)), quad(image(imageA))]
        let batches = FramePlan.batches(quads, first: 0, features: [[.linear], nil, [.linear]])
        XCTAssertEqual(batches.map(\.count), [3])
    }

    func testPassFillsBatchByPassAndMask() {
        let quads = [quad(.pass(PassFill(pass: 0, scale: 1, mask: 1))), quad(red), quad(.pass(PassFill(pass: 0, scale: 1, mask: 1))),
                     quad(.pass(PassFill(pass: 2, scale: 1))), quad(.pass(PassFill(pass: 3, scale: 1, mask: 1)))]
        let f: [ShaderFeatures?] = [[.pass], [.color], [.pass], [.pass], [.pass]]
        let batches = FramePlan.batches(quads, first: 0, features: f)
        XCTAssertEqual(batches, [
            FramePlan.Batch(first: 0, count: 3, features: [.pass, .color], sources: .init(pass: 0, mask: 1)),
            // Pass 2 has no mask: mask 1 from pass 3 can join it, pass 3 cannot.
            FramePlan.Batch(first: 3, count: 1, features: [.pass], sources: .init(pass: 2)),
            FramePlan.Batch(first: 4, count: 1, features: [.pass], sources: .init(pass: 3, mask: 1)),
        ])
    }

    func testThePlanNumbersRecordsAcrossPassesAndSkipsBlurs() {
        let list = DisplayList(passes: [
            RenderPass(index: 0, purpose: .shadowSource, width: 8, height: 8, content: .quads([quad(red), quad(red)]), label: "s"),
            RenderPass(index: 1, purpose: .shadowBlur, width: 8, height: 8, content: .blur(source: 0, horizontal: true, weights: [1]),
                       label: "b"),
            RenderPass(index: 2, purpose: .canvas, width: 8, height: 8,
                       content: .quads([quad(.pass(PassFill(pass: 1, scale: 1))), quad(red)]), label: "c"),
        ], width: 8, height: 8, background: .clear)
        let plan = FramePlan(list, features: [[.color], [.color], [.pass], [.color]])
        XCTAssertEqual(plan.batches, [
            [FramePlan.Batch(first: 0, count: 2, features: [.color], sources: .init())],
            [],
            [FramePlan.Batch(first: 2, count: 2, features: [.pass, .color], sources: .init(pass: 1))],
        ])
        // Pass 0 is read by the blur (pass 1), pass 1 by the canvas: each is freed after its
        // reader has drawn; the canvas never.
        XCTAssertEqual(plan.freedAfter, [[], [0], [1]])
    }
}
