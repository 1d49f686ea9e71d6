import CGL
import LayerKitCore

/// A `CAOpenGLLayer`'s context and the framebuffer it draws into: an RGBA8 texture of the
/// layer's pixel size behind a framebuffer object, made in the layer's context and remade when
/// the size changes. Used only on the OpenGL-layer thread.
final class OpenGLLayerBacking {
    var pixelFormat: CGLPixelFormatObj?
    var context: CGLContextObj?
    /// No context could be made: the layer draws nothing, and does not try again.
    var isUnavailable = false
    /// Whether a drawing's GL errors have been reported (once per layer).
    var reportedGLError = false
    private var framebuffer: GLuint = 0
    private var texture: GLuint = 0
    private var width = 0, height = 0

    /// Makes (or keeps) a target of `width` x `height` pixels, binds it and sets the viewport
    /// to it. A new target starts transparent black; GL leaves a new texture's texels undefined.
    ///
    /// - Throws: `GLRendererError.passTooLarge` over `GL_MAX_TEXTURE_SIZE`,
    ///   `GLRendererError.framebufferIncomplete`, or `GLError`.
    func prepareTarget(width: Int, height: Int) throws {
        if width != self.width || height != self.height || framebuffer == 0 {
            deleteTarget()
            var limit: GLint = 0
            glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &limit)
            guard width <= Int(limit), height <= Int(limit) else {
                throw GLRendererError.passTooLarge(pass: 0, width: width, height: height, limit: Int(limit))
            }
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            glGenFramebuffers(1, &framebuffer)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
            let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                deleteTarget()
                throw GLRendererError.framebufferIncomplete(width: width, height: height, status: status)
            }
            self.width = width
            self.height = height
            // Cleared with the program's clear colour put back: GL state persists between a
            // layer's drawings, as the program may count on.
            var clearColor: [GLfloat] = [0, 0, 0, 0]
            glGetFloatv(GLenum(GL_COLOR_CLEAR_VALUE), &clearColor)
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            glClearColor(clearColor[0], clearColor[1], clearColor[2], clearColor[3])
            try glCheck("CAOpenGLLayer framebuffer \(width)x\(height)")
        }
        bindTarget()
    }

    /// Binds the target for drawing and sets the viewport to all of it.
    func bindTarget() {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// The target's pixels, rows top-down (GL's last row first).
    func readBack() throws -> Bitmap {
        try GLDevice().readBitmap(framebuffer: framebuffer, width: width, height: height)
    }

    /// Deletes the target; the context must be current.
    private func deleteTarget() {
        if framebuffer != 0 { glDeleteFramebuffers(1, &framebuffer) }
        if texture != 0 { glDeleteTextures(1, &texture) }
        framebuffer = 0
        texture = 0
        width = 0
        height = 0
    }

    /// The layer is gone: deletes the target in its context and drops the context, on the
    /// OpenGL-layer thread, without waiting.
    func retire() {
        guard context != nil else { return }
        GLThread.openGLLayers.async { [self] in
            if (try? context?.makeCurrent()) != nil { deleteTarget() }
            context = nil
        }
    }
}
