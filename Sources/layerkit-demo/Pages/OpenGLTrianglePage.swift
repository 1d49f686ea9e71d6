import CGL
import Foundation
import GLRenderer
import LayerKitCore

/// Listing 6.14's triangle (blue, green and red corners, figure 6.16) drawn with OpenGL into a
/// `CAOpenGLLayer`, turning a quarter turn a second: the layer is asynchronous, so it is asked
/// `canDraw` at every frame and draws when the angle moved. It composites as any layer, here
/// with rounded, clipped corners and a border. `a` switches `isAsynchronous` (off, the triangle
/// stops where it is: nothing marks the layer). The caption counts the layer's drawings.
final class OpenGLTrianglePage: Page {
    /// The page's GL layer.
    let triangle = SpinningTriangleLayer()
    private let label = Page.caption(canvasWidth: 400, y: 360)
    private var spinning = true

    init() {
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        triangle.name = "triangle"
        triangle.frame = CGRect(x: 50, y: 30, width: 300, height: 300)
        triangle.cornerRadius = 24
        triangle.masksToBounds = true
        triangle.borderWidth = 2
        triangle.borderColor = CGColor(gray: 0.6, alpha: 1)
        triangle.setNeedsDisplay()
        root.addSublayer(triangle)
        label.foregroundColor = CGColor(gray: 0.85, alpha: 1)
        root.addSublayer(label)
        super.init(id: "6.14-opengl", title: "6.14 CAOpenGLLayer: a triangle drawn with OpenGL",
                   canvas: Canvas(width: 400, height: 400, background: CGColor(gray: 0.12, alpha: 1)), root: root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "a", action: "switch isAsynchronous (the triangle spins while it is on)")] }

    override func typed(_ c: Character) -> Bool {
        guard c == "a" else { return false }
        spinning.toggle()
        return true
    }

    override func update(clock: DemoClock) -> Redraw {
        // Frozen (--time), the angle is the time's and the layer draws once for it.
        triangle.isAsynchronous = spinning && !clock.isFrozen
        let angle = Float((clock.mediaTime * .pi / 2).truncatingRemainder(dividingBy: 2 * .pi))
        if spinning && angle != triangle.angle {
            triangle.angle = angle
            if !triangle.isAsynchronous { triangle.setNeedsDisplay() }
        }
        label.string = "\(triangle.draws) OpenGL drawings, \(triangle.canDrawAsks) canDraw asks; "
            + "isAsynchronous \(triangle.isAsynchronous) (a: switch)"
        return triangle.isAsynchronous ? .everyFrame : .onInput
    }
}

/// The book's triangle turned by `angle` about the centre, with a GLSL 3.30 program (what
/// GLKBaseEffect's default does: positions through, a colour per corner).
final class SpinningTriangleLayer: CAOpenGLLayer {
    /// The turn, radians anticlockwise, read when the layer draws.
    var angle: Float = 0
    /// Drawings made, and `canDraw` questions answered.
    private(set) var draws = 0, canDrawAsks = 0
    private var drawnAngle: Float?
    private var program: GLuint = 0, vertexArray: GLuint = 0, buffer: GLuint = 0

    /// Only when the angle moved: an unchanged frame keeps the last drawing.
    override func canDraw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                          forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) -> Bool {
        canDrawAsks += 1
        return angle != drawnAngle
    }

    override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                       forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
        draws += 1
        drawnAngle = angle
        if program == 0 { setUp() }
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glUseProgram(program)
        glUniform1f(glGetUniformLocation(program, "u_angle"), angle)
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glBindVertexArray(0)
        glUseProgram(0)
    }

    private func setUp() {
        program = glCreateProgram()
        for (type, source) in [(GL_VERTEX_SHADER, """
            #version 330 core
            layout(location = 0) in vec2 position;
            layout(location = 1) in vec4 color;
            uniform float u_angle;
            out vec4 v_color;
            void main() {
                float c = cos(u_angle), s = sin(u_angle);
                gl_Position = vec4(c * position.x - s * position.y, s * position.x + c * position.y, 0.0, 1.0);
                v_color = color;
            }
            """), (GL_FRAGMENT_SHADER, """
            #version 330 core
            in vec4 v_color;
            out vec4 fragColor;
            void main() { fragColor = v_color; }
            """)] {
            let shader = glCreateShader(GLenum(type))
            source.withCString { text in
                var pointer: UnsafePointer<GLchar>? = text
                glShaderSource(shader, 1, &pointer, nil)
            }
            glCompileShader(shader)
            glAttachShader(program, shader)
            glDeleteShader(shader)
        }
        glLinkProgram(program)
        // x, y, then r, g, b, a per corner: the listing's vertices and colours.
        let corners: [GLfloat] = [
            -0.5, -0.5, 0, 0, 1, 1,
            0.0, 0.5, 0, 1, 0, 1,
            0.5, -0.5, 1, 0, 0, 1,
        ]
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &buffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), corners.count * 4, corners, GLenum(GL_STATIC_DRAW))
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 24, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 24, UnsafeRawPointer(bitPattern: 8))
        glBindVertexArray(0)
    }
}
