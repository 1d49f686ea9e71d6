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

    /// A replicated run drawn from its first copy's records is a draw of its own: quads 1 to 6
    /// are 3 copies of (image A, colour), whose records are 1 and 2 only, drawn as 6 instances;
    /// quad 7 is record 3, with 4 quads before it that have none. Neither neighbour joins the
    /// run, though they sample what it samples. Damage finds a run by any of its quads and
    /// redraws it whole; the quad after it by its own index.
    func testARunIsOneDrawOfItsCopiesAndLaterQuadsKnowTheSkippedOnes() {
        let quads = [quad(image(imageA)), quad(image(imageA)), quad(red), quad(image(imageA)), quad(red), quad(image(imageA)), quad(red),
                     quad(image(imageA))]
        let f: [ShaderFeatures?] = [[.linear], [.linear], [.color], [.linear]]
        let copies = FramePlan.Copies(quadsPerCopy: 2, count: 3, firstCopy: 100)
        let batches = FramePlan.batches(quads, first: 0, features: f, runs: [1: copies])
        let a = ObjectIdentifier(imageA)
        XCTAssertEqual(batches, [
            FramePlan.Batch(first: 0, count: 1, features: [.linear], sources: .init(image: a)),
            FramePlan.Batch(first: 1, count: 6, features: [.linear, .color], sources: .init(image: a), copies: copies),
            FramePlan.Batch(first: 3, count: 1, features: [.linear], sources: .init(image: a), skipped: 4),
        ])
        // Rectangle 0 is reached by quad 5 (copy 2's image), rectangle 1 by quad 7 only.
        var reach = [UInt16](repeating: 0, count: 8)
        reach[5] = 1
        reach[7] = 2
        let reaching = FramePlan.batches(batches, reaching: 2, reach: reach)
        XCTAssertEqual(reaching, [[batches[1]], [batches[2]]])
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

    /// A draw leaves holes out (ten vertices an instance) only where one quad in
    /// `instancesPerHole` (4) has one: a hole among four quads keeps the ring, among five not.
    func testADrawLeavesHolesOutOnlyWhereEnoughOfItsQuadsHaveOne() {
        XCTAssertEqual(FramePlan.instancesPerHole, 4)
        let holed: ShaderFeatures = [.color, .hole]
        for (features, ring) in [([holed, [.color], [.color], [.color]], true),
                                 ([[.color], [.color], holed, [.color], [.color]], false)] as [([ShaderFeatures?], Bool)] {
            let batches = FramePlan.batches(features.map { _ in quad(red) }, first: 0, features: features)
            XCTAssertEqual(batches.count, 1)
            XCTAssertEqual(batches[0].features, ring ? holed : [.color], "\(features.count) quads")
        }
    }
}
