import CGL
import CPURenderer
import Foundation
@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// `CAOpenGLLayer`: the program's GL drawing becomes the layer's contents, upright, drawn once
/// per change (each frame only while asynchronous), and composited as any layer on both backends.
final class OpenGLLayerTests: XCTestCase {
    /// Clears to `clear` and fills the triangles of `vertices` (clip-space x, y pairs) in
    /// `color`, with a GLSL 3.30 program of its own; counts what it is asked.
    final class ShapeLayer: CAOpenGLLayer {
        var clear: [GLfloat] = [0.2, 0.4, 0.6, 1]
        var color: [GLfloat] = [1, 0, 0, 1]
        var vertices: [GLfloat] = []
        var allowsDrawing = true
        var canDrawAsks = 0, draws = 0
        var viewport: [GLint] = []
        var layerTime: CFTimeInterval?
        weak var context: CGLContextObj?
        var stamp: CVTimeStamp?
        private var program: GLuint = 0, vertexArray: GLuint = 0, buffer: GLuint = 0

        override func canDraw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                              forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) -> Bool {
            canDrawAsks += 1
            return allowsDrawing
        }

        override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                           forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
            draws += 1
            layerTime = t
            context = ctx
            stamp = ts?.pointee
            viewport = [GLint](repeating: 0, count: 4)
            glGetIntegerv(GLenum(GL_VIEWPORT), &viewport)
            glClearColor(clear[0], clear[1], clear[2], clear[3])
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            guard !vertices.isEmpty else { return }
            if program == 0 { setUp() }
            glUseProgram(program)
            glUniform4f(glGetUniformLocation(program, "u_color"), color[0], color[1], color[2], color[3])
            glBindVertexArray(vertexArray)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            glBufferData(GLenum(GL_ARRAY_BUFFER), vertices.count * 4, vertices, GLenum(GL_STREAM_DRAW))
            glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(vertices.count / 2))
            glBindVertexArray(0)
            glUseProgram(0)
        }

        private func setUp() {
            program = linkProgram(vertex: """
                #version 330 core
                layout(location = 0) in vec2 a_position;
                void main() { gl_Position = vec4(a_position, 0.0, 1.0); }
                """, fragment: """
                #version 330 core
                uniform vec4 u_color;
                out vec4 o_color;
                void main() { o_color = u_color; }
                """)
            glGenVertexArrays(1, &vertexArray)
            glGenBuffers(1, &buffer)
            glBindVertexArray(vertexArray)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            glEnableVertexAttribArray(0)
            glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
            glBindVertexArray(0)
        }
    }

    /// Never gets a context, as on a machine without an EGL driver.
    final class NoDriverLayer: CAOpenGLLayer {
        var draws = 0
        override func copyCGLContext(forPixelFormat pf: CGLPixelFormatObj) -> CGLContextObj? { nil }
        override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                           forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) { draws += 1 }
    }

    func shape(_ frame: CGRect = CGRect(x: 10, y: 10, width: 40, height: 40), vertices: [GLfloat]) -> ShapeLayer {
        let l = ShapeLayer()
        l.frame = frame
        l.vertices = vertices
        l.setNeedsDisplay()
        return l
    }

    /// The lower-left half of clip space: GL window pixels (i, j), j up, with i + j < 39.
    static let lowerLeft: [GLfloat] = [-1, -1, 1, -1, -1, 1]

    /// On a white 60 x 60 canvas a 40 x 40 layer at (10, 10) clears to (0.2, 0.4, 0.6) =
    /// (51, 102, 153) and fills clip space's lower-left triangle in red. Upright, picture pixel
    /// (x, y) of the layer (y down) is GL row 39 − y, so it is red where x < y (centres inside
    /// x + 0.5 + 39.5 − y < 40) and clear where x > y; the diagonal is the rasteriser's call.
    /// Both backends composite the same pixels: every channel within 1 of the other's.
    func testATriangleRendersTheSamePixelsOnTheCPUAndGLBackends() throws {
        let root = solidLayer(CGRect(x: 0, y: 0, width: 60, height: 60), CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        root.addSublayer(shape(vertices: Self.lowerLeft))
        let list = displayList(root, width: 60, height: 60)
        let cpu = try CPURenderer().render(list)
        let h = try GLHarness()
        let gl = try h.renderer.render(list)
        for bitmap in [cpu, gl] {
            func px(_ x: Int, _ y: Int) -> [UInt8] {
                let p = bitmap[10 + x, 10 + y]
                return [p.r, p.g, p.b, p.a]
            }
            for (x, y) in [(0, 39), (5, 30), (0, 1), (38, 39)] { XCTAssertEqual(px(x, y), [255, 0, 0, 255], "(\(x), \(y))") }
            for (x, y) in [(39, 0), (30, 5), (1, 0), (39, 38)] { XCTAssertEqual(px(x, y), [51, 102, 153, 255], "(\(x), \(y))") }
            XCTAssertEqual(px(-5, -5), [255, 255, 255, 255], "outside the layer")
        }
        var maxDifference = 0
        for (a, b) in zip(cpu.pixels, gl.pixels) { maxDifference = max(maxDifference, abs(Int(a) - Int(b))) }
        XCTAssertLessThanOrEqual(maxDifference, 1)
    }

    /// A quad over the top half of clip space (y 0…1) is the top half of the picture: rows
    /// 0–19 of a 40 x 40 layer green, rows 20–39 the clear colour.
    func testTheTopOfClipSpaceIsTheTopOfTheLayer() throws {
        let l = shape(CGRect(x: 0, y: 0, width: 40, height: 40), vertices: [-1, 0, 1, 0, 1, 1, -1, 0, 1, 1, -1, 1])
        l.color = [0, 1, 0, 1]
        l.displayIfNeeded()
        let image = try XCTUnwrap(l.contents)
        for y in [0, 10, 19] { XCTAssertTrue(image.bitmap[20, y] == (0, 255, 0, 255), "row \(y): \(image.bitmap[20, y])") }
        for y in [20, 30, 39] { XCTAssertTrue(image.bitmap[20, y] == (51, 102, 153, 255), "row \(y): \(image.bitmap[20, y])") }
    }

    /// Drawn at the commit after each change — a mark, a new size, a new scale — and at no
    /// other; a move is not a change of the drawing.
    func testDrawIsCalledOncePerChangeNotEachFrame() {
        let root = CALayer()
        let l = shape(vertices: Self.lowerLeft)
        root.addSublayer(l)
        XCTAssertEqual(l.draws, 0, "drawing waits for the commit")
        for _ in 0..<3 { _ = root.snapshot() }
        XCTAssertEqual(l.draws, 1)
        let first = l.contents
        l.position = CGPoint(x: 100, y: 100)
        for _ in 0..<2 { _ = root.snapshot() }
        XCTAssertEqual(l.draws, 1, "moving redraws nothing")
        XCTAssertTrue(l.contents === first)
        l.setNeedsDisplay()
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 2)
        XCTAssertFalse(l.contents === first, "a drawing is a new image")
        l.bounds.size = CGSize(width: 30, height: 20)
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 3)
        XCTAssertEqual(l.contents.map { [$0.width, $0.height] }, [30, 20])
        l.contentsScale = 2
        _ = root.snapshot()
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 4)
    }

    /// While asynchronous, each commit asks `canDraw` and draws when it says yes; turned off,
    /// the drawing stops.
    func testAnAsynchronousLayerDrawsEachFrame() {
        let root = CALayer(), middle = CALayer()
        let l = shape(vertices: Self.lowerLeft)
        root.addSublayer(middle)
        middle.addSublayer(l)
        _ = root.snapshot()
        XCTAssertEqual(l.draws, 1)
        l.isAsynchronous = true
        for _ in 0..<4 { _ = root.snapshot() }
        XCTAssertEqual(l.draws, 5)
        XCTAssertEqual(l.canDrawAsks, 5)
        l.allowsDrawing = false
        for _ in 0..<2 { _ = root.snapshot() }
        XCTAssertEqual([l.draws, l.canDrawAsks], [5, 7], "asked each frame, drawn only when it may")
        l.isAsynchronous = false
        l.allowsDrawing = true
        for _ in 0..<3 { _ = root.snapshot() }
        XCTAssertEqual(l.draws, 6, "the mark left by the last asynchronous frame, then nothing")
    }

    /// `canDraw` saying no keeps the last drawing: the same image, not redrawn.
    func testCanDrawFalseKeepsThePreviousContents() {
        let l = shape(vertices: Self.lowerLeft)
        l.displayIfNeeded()
        let first = l.contents
        XCTAssertNotNil(first)
        l.allowsDrawing = false
        l.color = [0, 0, 1, 1]
        l.setNeedsDisplay()
        l.displayIfNeeded()
        XCTAssertEqual([l.canDrawAsks, l.draws], [2, 1])
        XCTAssertTrue(l.contents === first)
    }

    /// At `contentsScale` 2 a 40 x 30 layer draws into an 80 x 60 framebuffer, the viewport all
    /// of it, and its contents are 80 x 60 pixels.
    func testContentsScaleTwoGivesATwiceAsLargeFramebuffer() throws {
        let l = shape(CGRect(x: 0, y: 0, width: 40, height: 30), vertices: Self.lowerLeft)
        l.contentsScale = 2
        l.displayIfNeeded()
        XCTAssertEqual(l.viewport, [0, 0, 80, 60])
        let image = try XCTUnwrap(l.contents)
        XCTAssertEqual([image.width, image.height], [80, 60])
        // The triangle at full resolution: picture (x, y) red where x / 80 < y / 60 well inside.
        XCTAssertTrue(image.bitmap[10, 50] == (255, 0, 0, 255))
        XCTAssertTrue(image.bitmap[70, 10] == (51, 102, 153, 255))
    }

    /// A layer at speed 0 and time offset 5 is at local time 5 whatever the clock says: that
    /// is `forLayerTime`; the time stamp carries the media time in nanoseconds.
    func testTheLayerTimeIsTheLayersLocalTime() throws {
        let l = shape(vertices: Self.lowerLeft)
        l.speed = 0
        l.timeOffset = 5
        let before = CACurrentMediaTime()
        l.displayIfNeeded()
        let after = CACurrentMediaTime()
        XCTAssertEqual(l.layerTime, 5)
        let stamp = try XCTUnwrap(l.stamp)
        XCTAssertEqual(stamp.flags, kCVTimeStampVideoTimeValid | kCVTimeStampHostTimeValid)
        XCTAssertEqual(stamp.videoTimeScale, 1_000_000_000)
        XCTAssertGreaterThanOrEqual(Double(stamp.hostTime) / 1e9, before - 1e-6)
        XCTAssertLessThanOrEqual(Double(stamp.hostTime) / 1e9, after + 1e-6)
    }

    /// The drawing composites as any layer's contents: a GL layer at opacity 0.5 turned 90°
    /// renders exactly as a plain layer with its image, geometry and opacity, on both backends.
    func testATransformedTranslucentLayerCompositesLikeAnyLayer() throws {
        func tree(_ layer: CALayer) -> CALayer {
            let root = solidLayer(CGRect(x: 0, y: 0, width: 60, height: 60), CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            layer.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
            layer.opacity = 0.5
            layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
            root.addSublayer(layer)
            return root
        }
        let gl = shape(vertices: Self.lowerLeft)
        let glTree = tree(gl)
        let glList = displayList(glTree, width: 60, height: 60)
        let plain = CALayer()
        plain.contents = gl.contents
        let plainList = displayList(tree(plain), width: 60, height: 60)
        let cpu = try CPURenderer().render(glList)
        XCTAssertTrue(cpu == (try CPURenderer().render(plainList)))
        let h = try GLHarness()
        XCTAssertTrue(try h.renderer.render(glList) == (try h.renderer.render(plainList)))
        // Turned 90° clockwise on screen (y down), the red lower-left half goes to the upper
        // left: layer pixel (5, 30) lands at (39 − 30, 5) = (9, 5); half red over white is
        // (255, 128 ± 1, 128 ± 1) opaque.
        let p = cpu[10 + 9, 10 + 5]
        XCTAssertEqual(p.r, 255)
        XCTAssertEqual(Double(p.g), 127.5, accuracy: 1)
        XCTAssertEqual(p.b, p.g)
        XCTAssertEqual(p.a, 255)
    }

    /// Without a context (no EGL driver) the layer shows nothing, never calls `draw`, and an
    /// asynchronous one stops asking to be displayed.
    func testWithoutAContextTheLayerDrawsNothing() {
        let l = NoDriverLayer()
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.contents = solidImage(width: 1, height: 1, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        l.isAsynchronous = true
        l.displayIfNeeded()
        XCTAssertNil(l.contents)
        XCTAssertEqual(l.draws, 0)
        XCTAssertFalse(l.needsDisplay())
    }

    /// A layer over 16,384 pixels a side is not drawn, says so, and an asynchronous one stops
    /// asking to be displayed; at 16,384 it is drawn.
    func testAnOverLargeLayerIsNotDrawnAndSaysSo() {
        let wide = shape(CGRect(x: 0, y: 0, width: 8_192.5, height: 1), vertices: Self.lowerLeft)
        wide.name = "wide"
        wide.contentsScale = 2
        wide.isAsynchronous = true
        let said = standardError { wide.displayIfNeeded() }
        XCTAssertEqual(said, "LayerKit: warning: layer 'wide': its drawing would be 16385 x 2 pixels (bounds x contentsScale), "
                       + "over 16384 a side; it is not drawn\n")
        XCTAssertNil(wide.contents)
        XCTAssertEqual(wide.draws, 0)
        XCTAssertFalse(wide.needsDisplay())
        wide.bounds.size.width = 8_192
        XCTAssertTrue(wide.needsDisplay(), "a new size tries again")
        wide.displayIfNeeded()
        XCTAssertEqual(wide.contents.map { [$0.width, $0.height] }, [16_384, 2])
    }

    /// Makes a GL error after drawing: `glEnable` of no capability.
    final class ErringLayer: CAOpenGLLayer {
        override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                           forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
            glClearColor(0, 1, 0, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            glEnable(0)
        }
    }

    /// A drawing that leaves a GL error is warned about once per layer, naming the error, and
    /// still shown.
    func testAGLErrorInTheDrawingIsReportedOnce() {
        let l = ErringLayer()
        l.name = "erring"
        l.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        let said = standardError {
            for _ in 0..<2 {
                l.setNeedsDisplay()
                l.displayIfNeeded()
            }
        }
        XCTAssertEqual(said, "LayerKit: warning: layer 'erring': draw(inCGLContext:pixelFormat:forLayerTime:displayTime:) "
                       + "failed: GL_INVALID_ENUM (0x500)\n")
        XCTAssertTrue(l.contents.map { $0.bitmap[0, 0] == (0, 255, 0, 255) } == true)
    }

    /// A freed layer's context goes with it (on the layers' thread, after what was queued), as
    /// soon as the program lets go of the layer: the drawing's job on the layers' thread must not
    /// keep the layer alive after `display` returned, or the layer would die on that thread later,
    /// after a `sync` that should have seen its context go (a race the suite lost once in a while
    /// in its own process; 50 rounds make it show).
    func testAFreedLayersContextIsReleased() {
        for round in 0..<50 {
            weak var context: CGLContextObj?
            do {
                let l = shape(vertices: Self.lowerLeft)
                l.displayIfNeeded()
                context = l.context
                XCTAssertNotNil(context)
            }
            GLThread.openGLLayers.sync {}
            XCTAssertNil(context, "round \(round)")
        }
    }

    /// Asks for OpenGL ES 3, notes the context it gets, and clears to red.
    final class ESLayer: CAOpenGLLayer {
        var version = "", api: CGLPixelFormatObj?
        override func copyCGLPixelFormat(forDisplayMask mask: UInt32) -> CGLPixelFormatObj { .openGLES3 }
        override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                           forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
            api = ctx.api
            version = glGetString(GLenum(GL_VERSION)).map { String(cString: $0) } ?? ""
            glClearColor(1, 0, 0, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    /// A program written for OpenGL ES gets an ES context from its pixel format.
    func testAnOpenGLESPixelFormatGetsAnESContext() {
        let l = ESLayer()
        l.frame = CGRect(x: 0, y: 0, width: 2, height: 2)
        l.setNeedsDisplay()
        l.displayIfNeeded()
        XCTAssertEqual(l.api, .openGLES3)
        XCTAssertTrue(l.version.hasPrefix("OpenGL ES 3"), l.version)
        XCTAssertTrue(l.contents.map { $0.bitmap[1, 1] == (255, 0, 0, 255) } == true)
    }

    /// Layers of no pixels draw nothing and get no contents.
    func testAnEmptyLayerGetsNoContents() {
        let l = shape(CGRect(x: 0, y: 0, width: 0, height: 10), vertices: Self.lowerLeft)
        l.displayIfNeeded()
        XCTAssertNil(l.contents)
        XCTAssertEqual(l.draws, 0)
    }
}

/// Compiles and links a GLSL program, failing the test with the driver's log if it does not build.
func linkProgram(vertex: String, fragment: String) -> GLuint {
    func compile(_ source: String, _ type: Int32) -> GLuint {
        let shader = glCreateShader(GLenum(type))
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            var log = [GLchar](repeating: 0, count: 1024)
            glGetShaderInfoLog(shader, 1024, nil, &log)
            XCTFail("shader: " + String(cString: log))
        }
        return shader
    }
    let program = glCreateProgram()
    glAttachShader(program, compile(vertex, GL_VERTEX_SHADER))
    glAttachShader(program, compile(fragment, GL_FRAGMENT_SHADER))
    glLinkProgram(program)
    return program
}
