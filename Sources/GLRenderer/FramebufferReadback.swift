import CGL
import LayerKit

/// Reads `width` x `height` pixels of `framebuffer` (0: the window's back buffer, the frame
/// just drawn and not yet presented) as a premultiplied RGBA8 `Bitmap`, rows top-down.
///
/// GL numbers framebuffer rows bottom-up and LayerKit's bitmaps run top-down, so the rows are
/// flipped here; pixel (0, 0) of the result is the framebuffer's top-left, as `GLRenderer`
/// draws the canvas's top-left there. Leaves `framebuffer` bound for reading.
///
/// - Throws: `GLError` when `glReadPixels` fails (an incomplete framebuffer, a size past its edge).
public func readPixels(framebuffer: GLuint, width: Int, height: Int) throws -> Bitmap {
    glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
    glReadBuffer(GLenum(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0))
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    var raw = [UInt8](repeating: 0, count: width * height * 4)
    glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &raw)
    try glCheck("glReadPixels (framebuffer \(framebuffer), \(width)x\(height))")
    var pixels = [UInt8](repeating: 0, count: raw.count)
    let row = width * 4
    for y in 0..<height {
        let src = (height - 1 - y) * row
        pixels.replaceSubrange(y * row..<(y + 1) * row, with: raw[src..<src + row])
    }
    return Bitmap(width: width, height: height, pixels: pixels)
}
