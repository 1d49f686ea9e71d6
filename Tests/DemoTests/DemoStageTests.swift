import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The stage without a window: how it fits, clips and captions a page, what the HUD reports, and
/// what the hit outline lets through. Pixels are the CPU reference's render of the stage tree.
final class DemoStageTests: XCTestCase {
    private func examples() throws -> Examples { try Examples(directory: examplesDirectory) }

    /// The stage's tree drawn at its size.
    private func render(_ stage: Stage) -> Bitmap {
        renderCPU(stage.root, width: Double(stage.size.width), height: Double(stage.size.height))
    }

    /// The RGBA bytes of pixel (x, y).
    private func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        Array(b.pixels[(y * b.width + x) * 4..<(y * b.width + x) * 4 + 4])
    }

    /// The stage's backdrop, grey 0.82: 209 in every channel.
    private let backdrop: [UInt8] = [209, 209, 209, 255]

    /// A 400 x 440 canvas in a 300 x 200 window is scaled by 200/440 (height binds) and centred:
    /// x = (300 − 400·200/440) / 2 = 59.09…, snapped down to 59; nothing is cropped.
    func testASmallWindowScalesTheCanvasDownToFitKeepingItsAspect() throws {
        let page = try CubePage(examples: examples())
        let stage = Stage()
        stage.isHUDVisible = false
        stage.showsCaption = false
        stage.show(page)
        stage.layout(size: CGSize(width: 300, height: 200), scale: 1)
        XCTAssertEqual(stage.canvasScale, 200.0 / 440, accuracy: 1e-12)
        XCTAssertEqual(stage.canvas.position, CGPoint(x: 59, y: 0))
        // The canvas's far corner lands at (59 + 400·k, 440·k) = (240.8…, 200): inside the window.
        let corner = stage.canvas.convert(CGPoint(x: 400, y: 440), to: nil)
        XCTAssertEqual(corner.x, 59 + 400 * 200.0 / 440, accuracy: 1e-9)
        XCTAssertEqual(corner.y, 200, accuracy: 1e-9)
        // A window point maps back to the canvas point it shows (clicks hit what is under them).
        let p = stage.canvasPoint(CGPoint(x: 59 + 100 * 200.0 / 440, y: 50 * 200.0 / 440))
        XCTAssertEqual(p.x, 100, accuracy: 1e-9)
        XCTAssertEqual(p.y, 50, accuracy: 1e-9)
        // A window as large as the canvas leaves it unscaled, so screenshots are scene renders.
        stage.layout(size: CGSize(width: 400, height: 440), scale: 1)
        XCTAssertEqual(stage.canvasScale, 1)
        XCTAssertEqual(stage.canvas.position, .zero)
    }

    /// At m34 = −1/200 (the nearest `-` reaches) the cube's near corner reaches past its canvas;
    /// the canvas clips it, as a scene render would: every pixel outside the canvas is backdrop.
    func testTheCanvasClipsAPageThatReachesPastIt() throws {
        let page = try CubePage(examples: examples())
        for _ in 0..<20 { _ = page.typed("-") }
        _ = page.update(clock: DemoClock(frozen: 0))
        let stage = Stage()
        stage.isHUDVisible = false
        stage.showsCaption = false
        stage.show(page)
        stage.layout(size: CGSize(width: 600, height: 640), scale: 1)
        XCTAssertEqual(stage.canvas.position, CGPoint(x: 100, y: 100))
        // Unclipped, the page draws outside its 400 x 440 canvas (what the test is about).
        let alone = renderCPU(page.root, width: 600, height: 640)
        XCTAssertTrue((0..<640).contains { y in (0..<600).contains { x in (x >= 400 || y >= 440) && pixel(alone, x, y)[3] != 0 } },
                      "the cube at m34 = -1/200 should reach past the canvas")
        let b = render(stage)
        for y in 0..<640 {
            for x in 0..<600 where !(100..<500).contains(x) || !(100..<540).contains(y) {
                guard pixel(b, x, y) == backdrop else { return XCTFail("pixel (\(x), \(y)) outside the canvas is \(pixel(b, x, y))") }
            }
        }
    }

    /// Every page says what it shows: scene pages and the compass under the canvas, from
    /// Examples/README.md's table; the other live pages in a caption layer of their own.
    func testEveryGalleryPageHasACaption() throws {
        let pages = try Gallery.pages(examples: examples())
        for page in pages {
            let own = page.root.sublayers?.contains { $0.name == "caption" } ?? false
            XCTAssertTrue(own || !(page.caption ?? "").isEmpty, "\(page.id) has no caption")
        }
        let corner = try XCTUnwrap(pages.first { $0.id == "5.9-cube-corner" })
        XCTAssertEqual(corner.caption, "the same cube with the camera turned by the sublayerTransform (−45° about X, "
                       + "−45° about Y): faces 1, 2, 3 visible, face 3 carries the \"button\"; probes")
        let compass = try XCTUnwrap(pages.first { $0.id == "compass-pointer" })
        XCTAssertEqual(compass.caption?.hasSuffix("; the arrow turns towards the pointer"), true)
    }

    func testCaptionsAreReadFromTheExamplesTable() {
        let table = """
            | scene | what it shows | book section |
            |---|---|---|
            | `a.json` | the **first** `thing` | ch. 1 |
            | `b.png` | not a scene | x |

            ## Live pages (`layerkit-demo`)

            | page | what it shows | listing |
            |---|---|---|
            | `8.4-clock` | ticks *animate* | 8.4 |

            ## Images
            | `c.png` | not a page | x |
            """
        XCTAssertEqual(Examples.captions(inMarkdown: table), ["a.json": "the first thing", "8.4-clock": "ticks *animate*"])
    }

    /// The caption sits in a band under the canvas, which the canvas leaves free: a 400 x 400
    /// canvas in a 400 x 452 window keeps scale 1 only because the band is 52 points.
    func testTheCaptionBandSitsUnderTheCanvas() throws {
        let page = try ScenePage(path: examplesDirectory.appendingPathComponent("seeds/5.9-cube-corner.json").path)
        page.caption = "a caption"
        let stage = Stage()
        stage.isHUDVisible = false
        stage.show(page)
        stage.layout(size: CGSize(width: 400, height: 452), scale: 1)
        XCTAssertFalse(stage.caption.isHidden)
        XCTAssertEqual(stage.canvasScale, 1)
        XCTAssertEqual(stage.canvas.position, .zero)
        XCTAssertEqual(stage.caption.frame, CGRect(x: 12, y: 406, width: 376, height: 42))
        stage.layout(size: CGSize(width: 400, height: 426), scale: 1)
        XCTAssertEqual(stage.canvasScale, 374.0 / 400, accuracy: 1e-12)
        stage.showsCaption = false
        XCTAssertTrue(stage.caption.isHidden)
    }

    /// After a click on the button (fix 2 puts face 3 on top, so the button is what is hit) the
    /// button shows its tapped blue, (0.35, 0.6, 1) = (89, 153, 255), through the hit outline.
    func testTheHitOutlineLetsTheTappedButtonShow() throws {
        let page = try CubeButtonPage(examples: examples())
        XCTAssertTrue(page.typed("2"))
        _ = page.update(clock: DemoClock(frozen: 0))
        let button = try XCTUnwrap(page.root.sublayers?.first?.sublayers?.flatMap { $0.sublayers ?? [] }.first { $0.name == "face3-button" })
        let stage = Stage()
        stage.isHUDVisible = false
        stage.showsCaption = false
        stage.show(page)
        stage.layout(size: CGSize(width: 400, height: 460), scale: 1)
        let centre = button.convert(CGPoint(x: 50, y: 20), to: nil)
        let hit = page.hitTest(stage.canvasPoint(centre))
        XCTAssertTrue(hit === button, "the click reaches \(hit?.name ?? "nothing")")
        page.clicked(hit, at: stage.canvasPoint(centre))
        stage.outline.target = hit
        _ = page.update(clock: DemoClock(frozen: 0))
        stage.updateOutline()
        XCTAssertFalse(stage.outline.layer.isHidden)
        XCTAssertEqual(pixel(render(stage), Int(centre.x), Int(centre.y)), [89, 153, 255, 255])
    }

    /// The HUD's timings show the whole frame and the present phase (where llvmpipe draws), not
    /// only the CPU's share: a present that sleeps 30 ms reads as at least 30 ms in both.
    func testTheHUDShowsPresentAndWholeFrameTimes() throws {
        let profiler = FrameProfiler()
        for _ in 0..<3 {
            profiler.beginFrame()
            profiler.measure("draw") {}
            _ = profiler.measure("present") { usleep(30_000) }
            profiler.endFrame()
        }
        let text = HUD.timings(profiler.frames[...], animating: false)
        func number(after label: String) -> Double? {
            guard let r = text.range(of: label + " ") else { return nil }
            return Double(text[r.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(number(after: "present"), text), 30)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(number(after: "frame"), text), 30)
        XCTAssertLessThan(try XCTUnwrap(number(after: "CPU"), text), 30, "CPU leaves present out")
    }
}
