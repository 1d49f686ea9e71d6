import Foundation
import LayerKitCore
import LayerKitTestSupport
import XCTest
@testable import layerkit_demo

/// The `b` key in a real window (under Xvfb when there is no display): the next frame the GL
/// backend draws into the window carries the blended-layers tints, and `b` again takes them
/// away. Each pixel is worked out by hand from the tint rule (alpha 102/255: each channel
/// becomes `tint + pixel × 153/255`), within 2/255 for GL's rounding.
final class DemoDebugOverlayWindowTests: WindowTestCase {
    func testTheBKeyTintsTheNextFrame() throws {
        try requireDisplay()
        // A white 300x300 canvas, white at alpha ½ over its top-left 100x100, opaque blue at
        // (150, 150).
        let (canvas, root) = Page.whiteCanvas(300, 300)
        root.addSublayer(solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), rgb(255, 255, 255, 0.5)))
        root.addSublayer(solidLayer(CGRect(x: 150, y: 150, width: 100, height: 100), rgb(0, 0, 255)))
        let page = Page(id: "overlay", title: "overlay", canvas: canvas, root: root)
        let window = try Window(width: 300, height: 300, title: "DemoDebugOverlayWindowTests")
        let demo = try Demo(window: window, pages: [page], pageIndex: 0,
                            options: Demo.Options(clock: DemoClock(frozen: 0), scale: 1, hud: false, captions: false))

        window.post(.character("b"))
        try demo.runPass()
        XCTAssertEqual(demo.debugOverlays.overlay, .blended)
        let tinted = try XCTUnwrap(try demo.runScripted(frames: 1, readBack: true))
        // White under green: (153, 255, 153). The translucent white over that is (204, 255,
        // 204) (128 + 153 × 127/255 = 204.2), under red (102 + 204 × 0.6, 255 × 0.6, 204 × 0.6).
        // Blue under green: (0, 102, 153).
        for (x, y, want) in [(200, 50, [153, 255, 153]), (50, 50, [224, 153, 122]), (200, 200, [0, 102, 153])] {
            let got = tinted.rgba(x, y)
            for c in 0..<3 { XCTAssertEqual(Double(got[c]), Double(want[c]), accuracy: 2, "(\(x), \(y)): \(got)") }
        }

        window.post(.character("b"))
        try demo.runPass()
        XCTAssertNil(demo.debugOverlays.overlay)
        let plain = try XCTUnwrap(try demo.runScripted(frames: 1, readBack: true))
        XCTAssertEqual(plain.rgba(200, 50), [255, 255, 255, 255])
        XCTAssertEqual(plain.rgba(200, 200), [0, 0, 255, 255])
    }
}
