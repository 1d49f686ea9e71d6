import CGL
import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// A window stand-in: a renderbuffer of its own as the framebuffer frames are presented in.
private final class TestWindow: GLWindowSurface {
    let framebufferSize: (width: Int, height: Int)
    private(set) var framebuffer: GLuint = 0
    private var renderbuffer: GLuint = 0
    private(set) var swaps = 0

    init(width: Int, height: Int) {
        framebufferSize = (width, height)
        glGenRenderbuffers(1, &renderbuffer)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        // What the window showed before: the first frame must cover it.
        glClearColor(1, 0, 1, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    func swapBuffers() { swaps += 1 }

    /// What the window shows, rows top-down.
    func pixels() throws -> Bitmap {
        try readPixels(framebuffer: framebuffer, width: framebufferSize.width, height: framebufferSize.height)
    }

    func release() {
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteRenderbuffers(1, &renderbuffer)
    }
}

/// The GL frame type the commands and the demo share: headless (read back, or finished for
/// timing) and presenting in a window (the canvas copied to the window's top-left, damage
/// tracked as offscreen, read back for screenshots).
final class GLFrameRendererTests: XCTestCase {
    private let red = rgb(255, 0, 0), blue = rgb(0, 0, 255), grey = rgb(240, 240, 240)

    /// A 20x10 canvas on grey with a red 8x4 layer at (2, 3) and a blue 4x4 one at (12, 2).
    private func scene(blueAt x: CGFloat = 12) -> DisplayList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        let a = solidLayer(CGRect(x: 2, y: 3, width: 8, height: 4), red)
        let b = solidLayer(CGRect(x: x, y: 2, width: 4, height: 4), blue)
        root.addSublayer(a)
        root.addSublayer(b)
        return displayList(root, width: 20, height: 10, scale: 1, background: grey)
    }

    func testAWindowShowsTheCanvasAtItsTopLeftOnTheBackground() throws {
        let context = try EGLHeadlessContext()
        defer { withExtendedLifetime(context) {} }
        let window = TestWindow(width: 30, height: 16)
        defer { window.release() }
        let renderer = try GLFrameRenderer(window: window)
        let profiler = FrameProfiler()
        profiler.beginFrame()
        let returned = try renderer.render(scene(), profiler: profiler)
        profiler.endFrame()
        XCTAssertEqual(returned.width, 0, "nothing read back unless asked")
        XCTAssertEqual(window.swaps, 1)
        XCTAssertTrue(profiler.phaseNames.contains("present"), "\(profiler.phaseNames)")
        let shown = try window.pixels()
        // The canvas, exactly as the CPU reference draws these pixel-aligned rectangles.
        let reference = try CPURenderer().render(scene())
        for y in 0..<10 { for x in 0..<20 { XCTAssertEqual(shown.rgba(x, y), reference.rgba(x, y), "(\(x), \(y))") } }
        XCTAssertEqual(shown.rgba(3, 4), [255, 0, 0, 255])
        XCTAssertEqual(shown.rgba(13, 3), [0, 0, 255, 255])
        // Beyond the canvas: the background, not what the window held before.
        XCTAssertEqual(shown.rgba(25, 5), [240, 240, 240, 255])
        XCTAssertEqual(shown.rgba(5, 12), [240, 240, 240, 255])
        withExtendedLifetime(renderer) {}
    }

    func testAWindowFrameLikeTheLastRedrawsOnlyItsDamageAndReadsBackForAScreenshot() throws {
        let context = try EGLHeadlessContext()
        defer { withExtendedLifetime(context) {} }
        let window = TestWindow(width: 20, height: 10)
        defer { window.release() }
        let renderer = try GLFrameRenderer(window: window)
        _ = try renderer.render(scene(), profiler: nil)
        XCTAssertEqual(renderer.renderer.lastRedrawnPixels, 200)
        // The blue square moves 2 px right: its old place x 12..16, y 2..6 and its new one
        // x 14..18, each grown by a pixel for antialiased fringes and one more for the GL
        // rasterizer's rounding (x 10..18 and 12..20, y 0..8), meet and merge: 10 x 8 pixels.
        renderer.readsBack = true
        let screenshot = try renderer.render(scene(blueAt: 14), profiler: nil)
        XCTAssertEqual(renderer.renderer.lastRedrawnPixels, 80)
        let reference = try CPURenderer().render(scene(blueAt: 14))
        XCTAssertEqual(screenshot, reference)
        XCTAssertEqual(try window.pixels(), reference, "the window shows the whole frame, damage and the rest")
        XCTAssertEqual(window.swaps, 2)
        withExtendedLifetime(renderer) {}
    }

    func testHeadlessFramesReadBackOrFinish() throws {
        let renderer = try GLFrameRenderer()
        XCTAssertEqual(try renderer.render(scene(), profiler: nil), try CPURenderer().render(scene()))
        renderer.readsBack = false
        let profiler = FrameProfiler()
        profiler.beginFrame()
        let returned = try renderer.render(scene(blueAt: 14), profiler: profiler)
        profiler.endFrame()
        XCTAssertEqual(returned.width, 0)
        XCTAssertTrue(profiler.phaseNames.contains("finish"), "\(profiler.phaseNames)")
        XCTAssertFalse(profiler.phaseNames.contains("present"))
        renderer.finishGPUTimes(profiler: profiler)
    }
}
