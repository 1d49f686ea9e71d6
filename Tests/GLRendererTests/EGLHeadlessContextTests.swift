import CGL
import GLRenderer
import XCTest

final class EGLHeadlessContextTests: XCTestCase {
    func testClearsAnOffscreenFramebufferAndReadsItBack() throws {
        let context = try EGLHeadlessContext()
        var renderbuffer: GLuint = 0, framebuffer: GLuint = 0
        glGenRenderbuffers(1, &renderbuffer)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), 4, 4)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0),
                                  GLenum(GL_RENDERBUFFER), renderbuffer)
        defer {
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteRenderbuffers(1, &renderbuffer)
        }
        XCTAssertEqual(glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)), GLenum(GL_FRAMEBUFFER_COMPLETE))

        glViewport(0, 0, 4, 4)
        glClearColor(1, 0.5, 0.25, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, 4, 4, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        try glCheck("clear and read back a 4x4 RGBA8 framebuffer")

        // 0.5 and 0.25 fall between two 8-bit values; drivers may round either way.
        let expected: [Int] = [255, 128, 64, 255]
        for (index, value) in pixels.enumerated() {
            XCTAssertLessThanOrEqual(abs(Int(value) - expected[index % 4]), 1, "byte \(index): \(value)")
        }
        withExtendedLifetime(context) {}
    }

    func testGLCheckNamesTheCallAndTheError() throws {
        let context = try EGLHeadlessContext()
        glBindTexture(0x1234, 0)
        XCTAssertThrowsError(try glCheck("glBindTexture")) { error in
            XCTAssertEqual(error as? GLError, .gl(call: "glBindTexture", codes: [GLenum(GL_INVALID_ENUM)]))
            XCTAssertEqual("\(error)", "glBindTexture failed: GL_INVALID_ENUM (0x500)")
        }
        XCTAssertNoThrow(try glCheck("nothing"), "glCheck clears the error flags it reports")
        withExtendedLifetime(context) {}
    }
}
