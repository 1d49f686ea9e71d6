import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The live pages without a window: each does what its page says, checked against the book's
/// numbers and the seed scenes.
final class DemoPageTests: XCTestCase {
    /// The repository's `Examples` folder.
    private func examples() throws -> Examples { try Examples(directory: examplesDirectory) }

    /// The CPU reference's render of `root` on `canvas`.
    private func render(_ root: CALayer, _ canvas: Canvas) -> Bitmap {
        renderCPU(root, width: Double(canvas.width), height: Double(canvas.height), background: canvas.background)
    }

    /// Every page has its own id, so `--page ID` is never ambiguous; live pages come first.
    func testGalleryIDsAreUnique() throws {
        let pages = try Gallery.pages(examples: examples())
        XCTAssertEqual(Set(pages.map(\.id)).count, pages.count)
        XCTAssertEqual(pages.first?.id, "clock")
        XCTAssertTrue(pages[try Gallery.index(of: "live-drawing", in: pages)].caption?.hasPrefix("custom drawing, live") == true)
        XCTAssertEqual(try Gallery.index(of: "3", in: pages), 2)
        XCTAssertEqual(pages[try Gallery.index(of: "5.9-cube-corner", in: pages)].id, "5.9-cube-corner")
        XCTAssertThrowsError(try Gallery.index(of: "0", in: pages))
    }

    /// Listing 5.10's shading of the corner view, as `Examples/README.md` lists it.
    func testLitCubeShadingIsTheListings() {
        let expected = [0.0528, 0.5, -0.394, 1.394, 0.5, 0.9472]
        for (t, e) in zip(Cube.faceTransforms, expected) {
            XCTAssertEqual(LitCubePage.shadow(transform: t, light: LitCubePage.bookLight), e, accuracy: 0.0005)
        }
    }

    /// At the listing's light the lit cube page's shading layers have the alphas of
    /// `5.10-cube-lit.json`, face by face.
    func testLitCubeMatchesTheSeedAtTheBooksLight() throws {
        let page = try LitCubePage(examples: examples())
        _ = page.update(clock: DemoClock(frozen: 0))
        let seed = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/5.10-cube-lit.json").path)
        let lights = seed.root.sublayers!.map { face in face.sublayers!.last!.backgroundColor!.alpha }
        let pageLights = page.root.sublayers!.first!.sublayers!.map { $0.sublayers!.last!.backgroundColor!.alpha }
        for (a, b) in zip(pageLights, lights) { XCTAssertEqual(a, b, accuracy: 1e-5) }
    }

    /// Turned half-way (3 s at 60°/s) the cat faces away: drawn while `doubleSided`, culled
    /// once `d` turns it off.
    func testDoubleSidedToggleCullsTheBack() throws {
        let page = try DoubleSidedPage(examples: examples())
        func catQuads() -> Int {
            _ = page.update(clock: DemoClock(frozen: 3))
            let list = Compositor.displayList(root: page.root.snapshot(), width: 400, height: 440, scale: 1, background: nil)
            return list.passes.last!.quads.filter { $0.label == "cat" }.count
        }
        XCTAssertEqual(catQuads(), 1)
        XCTAssertTrue(page.typed("d"))
        XCTAssertEqual(catQuads(), 0)
    }

    /// About y, the inner layer's turn cancels the outer's only inside a `CATransformLayer`:
    /// there the inner lands as an upright square; a plain outer flattens it into its plane.
    func testFlatteningOnlyTheTransformLayerCancelsTheTurns() throws {
        let page = try FlatteningPage(examples: examples())
        _ = page.update(clock: DemoClock(frozen: 2))
        let inners = page.root.sublayers!.compactMap { $0.sublayers?.first?.sublayers?.last }
            .filter { $0.name == "inner" }
        XCTAssertEqual(inners.count, 4)
        func width(_ l: CALayer, row y: CGFloat) -> CGFloat {
            l.convert(CGPoint(x: 100, y: y), to: nil).x - l.convert(CGPoint(x: 0, y: y), to: nil).x
        }
        // Cells in order: (CALayer, z), (CALayer, y), (CATransformLayer, z), (CATransformLayer, y).
        XCTAssertEqual(width(inners[3], row: 0), 100, accuracy: 1e-6)
        XCTAssertEqual(width(inners[3], row: 100), 100, accuracy: 1e-6)
        XCTAssertLessThan(width(inners[1], row: 50), 99)
    }

    /// The clock at 10:08:42 is the seed scene's tree, pixel for pixel.
    func testClockAtFixedTimeIsTheSeed() throws {
        let page = try ClockPage(examples: examples())
        XCTAssertEqual(page.update(clock: DemoClock(frozen: 36522)), .onInput)
        let seed = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/3.x-clock.json").path)
        let d = BitmapDifference(render(seed.root, seed.canvas), render(page.root, page.canvas))
        XCTAssertEqual(d.pixelsOver, 0, "\(d)")
    }

    /// The clock ticks once a second: it asks to be drawn at the next whole second.
    func testClockAsksForTheNextTick() throws {
        let page = try ClockPage(examples: examples())
        guard case .at(let t) = page.update(clock: DemoClock(frozen: nil)) else { return XCTFail("no tick scheduled") }
        XCTAssertGreaterThan(t, 0)
    }

    /// The book's puzzle and both fixes: a click on face 3's button hits face 5 or 6, unless
    /// the other faces ignore touches (1) or face 3 is moved above face 6 (2).
    func testCubeButtonFixes() throws {
        let page = try CubeButtonPage(examples: examples())
        let onButton = [CGPoint(x: 180, y: 105.8), CGPoint(x: 221.2, y: 130.2)]  // the seed's probes
        XCTAssertEqual(onButton.map { page.hitTest($0)?.name }, ["face5", "face6"])
        for fix in ["1", "2"] as [Character] {
            XCTAssertTrue(page.typed(fix))
            XCTAssertEqual(onButton.map { page.hitTest($0)?.name }, ["face3-button", "face3-button"], "fix \(fix)")
            XCTAssertTrue(page.typed(fix))  // off again
        }
        XCTAssertEqual(onButton.map { page.hitTest($0)?.name }, ["face5", "face6"])
        // Fix 1 hides nothing that is drawn.
        _ = page.typed("1")
        _ = page.hitTest(onButton[0])
        XCTAssertTrue(page.root.sublayers!.first!.sublayers!.allSatisfy { !$0.isHidden })
    }

    /// zPosition changes drawing order, not hit testing.
    func testZPositionToggleKeepsHitTestOrder() {
        let page = ZPositionPage()
        let overlap = CGPoint(x: 200, y: 200)
        XCTAssertEqual(page.hitTest(overlap)?.name, "red")
        XCTAssertTrue(page.typed("z"))
        XCTAssertEqual(page.hitTest(overlap)?.name, "red")
        let green = page.root.sublayers!.first { $0.name == "green" }!
        XCTAssertEqual(green.zPosition, 1)
    }

    /// Listing 6.10: a drag by (−30, −40) scrolls the origin to (30, 40); then `r` shows the
    /// centre tile (305…395 on both axes), whose end 395 is past 30 + 200, so the origin moves
    /// to 395 − 200 = 195 on each axis and the whole tile is visible.
    func testScrollPageDragsAndScrollsToTheCentreTile() {
        let page = ScrollPage()
        XCTAssertTrue(page.dragged(by: CGSize(width: -30, height: -40)))
        XCTAssertEqual(page.scrollLayer.bounds.origin, CGPoint(x: 30, y: 40))
        XCTAssertTrue(page.typed("r"))
        XCTAssertEqual(page.scrollLayer.bounds.origin, CGPoint(x: 195, y: 195))
        XCTAssertEqual(page.centreTile.visibleRect, page.centreTile.bounds)
        // The tile at (5, 5) is out of view now.
        XCTAssertEqual(page.scrollLayer.sublayers?.first?.visibleRect, .zero)
    }

    /// The camera keys step m34's distance through 200…2000 and `0` returns to the corner.
    func testCubeCameraKeys() {
        var camera = CubeCamera()
        XCTAssertEqual(camera.transform, Cube.camera(pitch: -.pi / 4, yaw: -.pi / 4, distance: 500))
        for _ in 0..<10 { _ = camera.typed("+") }
        XCTAssertEqual(camera.distance, 2000)
        for _ in 0..<10 { _ = camera.typed("-") }
        XCTAssertEqual(camera.distance, 200)
        camera.drag(CGSize(width: 20, height: 0))
        XCTAssertNotEqual(camera.yaw, -.pi / 4)
        _ = camera.typed("0")
        XCTAssertEqual(camera.transform, CubeCamera().transform)
    }

    /// The resizing pages follow the pointer with the layer's bottom-right corner.
    func testContentsPagesFollowThePointer() throws {
        let page = try ContentsCenterPage(examples: examples())
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 300, y: 200)))
        XCTAssertEqual(page.layer.frame, CGRect(x: 40, y: 40, width: 260, height: 160))
        XCTAssertTrue(page.typed("c"))
        XCTAssertEqual(page.layer.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    /// The compass arrow turns towards the pointer: straight right of its anchor is 90°.
    func testCompassArrowPointsAtThePointer() throws {
        let page = try CompassPage(examples: examples())
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 250, y: 150)))
        let arrow = page.root.sublayers!.first { $0.name == "arrow" }!
        XCTAssertEqual(arrow.transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
    }

    /// The live drawing page: a pointer move marks only the live layer, the next frame draws
    /// that layer alone, and the line from the live layer's centre (160, 140) to the pointer
    /// covers their midpoint.
    func testLiveDrawingRedrawsOnlyTheMarkedLayer() {
        let page = LiveDrawingPage()
        _ = page.update(clock: DemoClock(frozen: 0))
        let first = render(page.root, page.canvas)
        XCTAssertEqual(page.drawnThisFrame, 2)
        // The pointer at canvas (300, 60) is (280, 40) in the live layer (its origin is (20, 20));
        // the midpoint (220, 90) of the line is canvas pixel (240, 110). Before the move the line
        // runs straight up from the centre, far from it: that pixel is the pale panel.
        let mid = (x: 240, y: 110)
        XCTAssertEqual(first[mid.x, mid.y].r, 237, accuracy: 1)  // 0.93 × 255
        XCTAssertTrue(page.pointerMoved(to: CGPoint(x: 300, y: 60)))
        XCTAssertEqual(page.pointer, CGPoint(x: 280, y: 40))
        XCTAssertTrue(page.live.needsDisplay())
        XCTAssertFalse(page.still.needsDisplay())
        _ = page.update(clock: DemoClock(frozen: 0))
        let moved = render(page.root, page.canvas)
        XCTAssertEqual(page.drawnThisFrame, 1)
        XCTAssertEqual(page.drawCounts, ["live": 2, "still": 1])
        XCTAssertFalse(page.live.needsDisplay())
        // The pixel centre is 0.7 pt from the 4-pt line's axis: covered, the line's red.
        let p = moved[mid.x, mid.y]
        XCTAssertEqual(p.r, 217, accuracy: 3)  // 0.85 × 255
        XCTAssertEqual(p.g, 26, accuracy: 3)  // 0.1 × 255
        // A frame without a move draws nothing; the caption keeps the last redraw's count.
        _ = page.update(clock: DemoClock(frozen: 0))
        _ = render(page.root, page.canvas)
        XCTAssertEqual(page.drawnThisFrame, 0)
        let counter = page.root.sublayers!.last as! CATextLayer
        XCTAssertEqual(counter.string, "Layers drawn at the last redraw: 1. Draws so far: the left layer 2, the chart 1.")
    }

    /// A scene page reloads when its file changes, keeps the old tree when the new one is bad.
    func testScenePageHotReload() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("demo-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.json")
        try sceneText(root: #"{"name": "a", "frame": [0, 0, 10, 10]}"#).write(to: file, atomically: true, encoding: .utf8)
        let page = try ScenePage(path: file.path)
        XCTAssertFalse(try page.reloadIfChanged())
        try sceneText(root: #"{"name": "bb", "frame": [0, 0, 10, 10]}"#).write(to: file, atomically: true, encoding: .utf8)
        XCTAssertTrue(try page.reloadIfChanged())
        XCTAssertEqual(page.root.name, "bb")
        try sceneText(root: #"{"name": "ccc", "frame": [0, 0, 10]}"#).write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try page.reloadIfChanged())
        XCTAssertEqual(page.root.name, "bb")
    }
}
