import CGL
import QuartzCore

// Listing 6.14 draws a triangle with OpenGL ES into a CAEAGLLayer: the view controller makes an
// EAGLContext, a framebuffer and renderbuffer "from the drawable", a GLKBaseEffect, and draws
// a frame. On Linux the layer is CAOpenGLLayer (macOS's), which owns the context and the
// framebuffer, so `setUpBuffers` and `presentRenderbuffer` go, and `drawFrame` becomes the
// layer's `draw(inCGLContext:…)`. `import CGL` stands for `import GLKit`: OpenGL's C API.
// The context is OpenGL 3.3 core, which draws from buffer objects, not client memory, and has
// no fixed-function pipeline, so the vertices go into buffers and `BaseEffect` below does what
// GLKBaseEffect's default does (position through, colour per vertex). The rest is the book's.

/// GLKit's attribute indices, as the book's code names them.
let GLKVertexAttribPosition: GLuint = 0
let GLKVertexAttribColor: GLuint = 2

/// GLKBaseEffect with its defaults (identity transforms, no lighting, no texture): a program
/// that passes the position through and colours by the vertex colour.
final class BaseEffect {
    private var program: GLuint = 0

    /// Makes the program current, building it the first time.
    func prepareToDraw() {
        if program == 0 {
            program = glCreateProgram()
            for (type, source) in [(GL_VERTEX_SHADER, """
                #version 330 core
                layout(location = 0) in vec4 position;
                layout(location = 2) in vec4 color;
                out vec4 v_color;
                void main() { gl_Position = position; v_color = color; }
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
            }
            glLinkProgram(program)
        }
        glUseProgram(program)
    }
}

/// The book's `glLayer` with its `drawFrame`.
final class TriangleLayer: CAOpenGLLayer {
    let effect = BaseEffect()
    private var vertexArray: GLuint = 0
    private var buffers: [GLuint] = [0, 0]

    override func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                       forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
        // bind framebuffer & set viewport: the layer has done both

        // bind shader program
        effect.prepareToDraw()

        // clear the screen
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT)); glClearColor(0.0, 0.0, 0.0, 1.0)

        // set up vertices
        let vertices: [GLfloat] = [
            -0.5, -0.5, -1.0, 0.0, 0.5, -1.0, 0.5, -0.5, -1.0,
        ]

        // set up colors
        let colors: [GLfloat] = [
            0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
        ]

        // draw triangle (from buffers: a core-profile context draws from no client memory)
        if vertexArray == 0 {
            glGenVertexArrays(1, &vertexArray)
            glGenBuffers(2, &buffers)
        }
        glBindVertexArray(vertexArray)
        glEnableVertexAttribArray(GLKVertexAttribPosition)
        glEnableVertexAttribArray(GLKVertexAttribColor)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffers[0])
        glBufferData(GLenum(GL_ARRAY_BUFFER), vertices.count * 4, vertices, GLenum(GL_STATIC_DRAW))
        glVertexAttribPointer(GLKVertexAttribPosition, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffers[1])
        glBufferData(GLenum(GL_ARRAY_BUFFER), colors.count * 4, colors, GLenum(GL_STATIC_DRAW))
        glVertexAttribPointer(GLKVertexAttribColor, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)

        // present render buffer: the layer reads the framebuffer when this returns
        glBindVertexArray(0)
    }
}

/// The view controller's `viewDidLoad`: the GL layer fills the 200 x 200 `glView` and draws its
/// frame at the next commit.
func makeGLView() -> (view: CALayer, glLayer: TriangleLayer) {
    let glView = CALayer()
    glView.frame = CGRect(x: 0, y: 0, width: 200, height: 200)

    // set up layer
    let glLayer = TriangleLayer()
    glLayer.frame = glView.bounds
    glView.addSublayer(glLayer)

    // draw frame
    glLayer.setNeedsDisplay()
    return (glView, glLayer)
}
