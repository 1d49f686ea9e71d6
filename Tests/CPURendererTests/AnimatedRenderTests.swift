import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// Drawing the presentation tree: a scene's animation sampled at a scene time, and the frame
/// loop's presentation source, checked against pixels worked out by hand.
final class AnimatedRenderTests: XCTestCase {
    /// A red 10x10 layer over an opaque blue canvas, its opacity animated 0 → 1 over 1 s.
    private let fading = sceneText(root: #"""
        {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
         "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}
        """#).replacingOccurrences(of: #""height": 100}"#, with: ##""height": 100, "background": "#0000FF"}"##)

    private func pixel(_ list: DisplayList, _ x: Int, _ y: Int) throws -> [Int] {
        let p = try CPURenderer().render(list, profiler: nil)[x, y]
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    private func assertPixel(_ got: [Int], _ want: [Double], file: StaticString = #filePath, line: UInt = #line) {
        for (g, w) in zip(got, want) { XCTAssertEqual(Double(g), w, accuracy: 1, "\(got)", file: file, line: line) }
    }

    func testSceneTimeSamplesTheAnimation() throws {
        let scene = try readScene(fading)
        // t = 0.5: opacity ½, red over blue: (127.5, 0, 127.5, 255).
        assertPixel(try pixel(Compositor.displayList(for: scene, time: 0.5), 5, 5), [127.5, 0, 127.5, 255])
        // t = 0.25: opacity ¼: (63.75, 0, 191.25).
        assertPixel(try pixel(Compositor.displayList(for: scene, time: 0.25), 5, 5), [63.75, 0, 191.25, 255])
        // The scene's default time 0: opacity 0, only blue; after the end, the model opacity 1.
        assertPixel(try pixel(Compositor.displayList(for: scene), 5, 5), [0, 0, 255, 255])
        assertPixel(try pixel(Compositor.displayList(for: scene, time: 2), 5, 5), [255, 0, 0, 255])
        // Outside the layer the canvas shows.
        assertPixel(try pixel(Compositor.displayList(for: scene, time: 0.5), 50, 50), [0, 0, 255, 255])
    }

    func testPresentationSourceDrawsEachFramesTime() throws {
        let scene = try readScene(fading)
        let loop = FrameLoop(renderer: CPURenderer())
        let source = PresentationTreeSource(scene.root)
        let frame = try loop.drawFrame(source, at: 0.75, canvas: scene.canvas)
        let p = frame.pixels[5, 5]
        assertPixel([Int(p.r), Int(p.g), Int(p.b), Int(p.a)], [191.25, 0, 63.75, 255])
    }
}
