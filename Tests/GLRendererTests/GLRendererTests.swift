import CGL
import CPURenderer
import Foundation
@testable import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// Targeted checks of the GL backend: clipping, limits, caching, counters.
final class GLRendererTests: XCTestCase {
    /// A layer tilted so far under perspective that part of it is behind the eye (w < 0): GL's
    /// clipper and the reference's w = 1e-5 clip must agree, with nothing drawn inverted.
    func testLayerCrossingTheEyePlaneMatchesTheReference() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        var p = CATransform3DIdentity
        p.m34 = -1 / 200
        root.sublayerTransform = p
        let tall = CALayer()
        tall.frame = CGRect(x: 60, y: -400, width: 180, height: 1100)
        tall.contents = checkerImage(width: 64, height: 256)
        tall.borderWidth = 6
        tall.borderColor = rgb(200, 30, 30)
        tall.transform = CATransform3DMakeRotation(1.25, 1, 0, 0)
        root.addSublayer(tall)
        let list = displayList(root, width: 300, height: 300, scale: 1, background: rgb(255, 255, 255))
        // The quad really does cross w = 0.
        let q = try XCTUnwrap(list.canvas.quads.first)
        let ws = [(0.0, 0.0), (180, 0), (180, 1100), (0, 1100)].map { q.transform.apply(x: $0.0, y: $0.1, z: 0).w }
        XCTAssertTrue(ws.contains { $0 < 0 } && ws.contains { $0 > 0 }, "corner w: \(ws)")
        let (d, cpu, gl) = try compareBackends(list, gl: h.renderer, name: "near-plane")
        print("near-plane:", d)
        XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(d)")
        XCTAssertNotEqual(cpu, Bitmap(width: 300, height: 300), "something is drawn")
        XCTAssertGreaterThan(gl.pixels.enumerated().filter { $0.offset % 4 == 0 && $0.element != 255 }.count, 1000)
    }

    /// A layer far larger than the canvas (and than any texture), stretched contents and a
    /// rounded border: only the visible part is rasterised, and it matches the reference.
    func testVeryLargeLayerMatchesTheReference() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        let big = CALayer()
        big.frame = CGRect(x: -30000, y: -20000, width: 60100, height: 40080)
        big.contents = checkerImage(width: 32, height: 32)
        big.borderWidth = 20
        big.borderColor = rgb(0, 0, 200, 0.5)
        big.cornerRadius = 30060
        root.addSublayer(big)
        let list = displayList(root, width: 200, height: 150, scale: 2, background: rgb(255, 255, 255))
        let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "very-large-layer")
        print("very-large-layer:", d)
        XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(d)")
    }

    /// An image wider than GL_MAX_TEXTURE_SIZE is downscaled on upload (with a warning) and still
    /// drawn whole: away from its colour seams it matches the reference.
    func testImageBeyondTheTextureSizeLimitIsDownscaled() throws {
        let h = try GLHarness()
        let limit = h.renderer.maxTextureSize
        let w = limit + 500, ht = 8
        var b = Bitmap(width: w, height: ht)
        for y in 0..<ht {
            for x in 0..<w {
                let c: [UInt8] = x < w / 2 ? [200, 20, 20, 255] : (y < ht / 2 ? [20, 20, 200, 255] : [20, 180, 20, 255])
                for k in 0..<4 { b.pixels[(y * w + x) * 4 + k] = c[k] }
            }
        }
        let image = CGImage(bitmap: b, source: "wide test image")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 100)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 400, height: 100)
        l.contents = image
        root.addSublayer(l)
        let list = displayList(root, width: 400, height: 100)
        let cpu = try CPURenderer().render(list)
        let gl = try h.renderer.render(list)
        let stats = h.renderer.lastFrameStats
        XCTAssertEqual(stats.textureUploads, 1)
        XCTAssertEqual(stats.uploadedBytes, limit * ht * 4, "uploaded at the limit's width")
        for (x, y) in [(50, 20), (150, 80), (300, 20), (380, 80), (250, 30), (250, 70)] {
            XCTAssertEqual(gl.rgba(x, y), cpu.rgba(x, y), "pixel (\(x), \(y))")
        }
        // The same through a lowered limit, at a size where whole-image equivalence is visible.
        h.renderer.textureSizeLimit = 16
        let small = CGImage(bitmap: Self.quadrants(64), source: "quadrants")
        l.contents = small
        let out = try h.renderer.render(displayList(root, width: 400, height: 100))
        XCTAssertEqual(h.renderer.lastFrameStats.uploadedBytes, 16 * 16 * 4)
        let ref = try CPURenderer().render(displayList(root, width: 400, height: 100))
        for (x, y) in [(50, 20), (150, 80), (300, 20), (380, 80)] {
            XCTAssertEqual(out.rgba(x, y), ref.rgba(x, y), "pixel (\(x), \(y))")
        }
    }

    /// 300 layers, each with its own image, in one frame: every texture is uploaded once, draws
    /// follow texture changes, and the next frame uploads nothing.
    func testManyDistinctTexturesInOneFrame() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        for i in 0..<300 {
            var b = Bitmap(width: 4, height: 4)
            for p in 0..<16 {
                b.pixels[p * 4] = UInt8(i % 256)
                b.pixels[p * 4 + 1] = UInt8((i * 7) % 256)
                b.pixels[p * 4 + 2] = UInt8(p * 15)
                b.pixels[p * 4 + 3] = 255
            }
            let l = CALayer()
            l.frame = CGRect(x: Double(i % 20) * 20, y: Double(i / 20) * 20, width: 18, height: 18)
            l.contents = CGImage(bitmap: b, source: "tile \(i)")
            root.addSublayer(l)
        }
        let list = displayList(root, width: 400, height: 300, background: rgb(0, 0, 0))
        let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "300-textures")
        XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(d)")
        let first = h.renderer.lastFrameStats
        print("300 textures, first frame:", first)
        XCTAssertEqual(first.textureUploads, 300)
        XCTAssertEqual(first.uploadedBytes, 300 * 16 * 4)
        XCTAssertEqual(first.drawCalls, 300)
        XCTAssertGreaterThanOrEqual(first.texturesHeld, 300)
        _ = try h.renderer.render(list)
        let second = h.renderer.lastFrameStats
        XCTAssertEqual(second.textureUploads, 0)
        XCTAssertEqual(second.uploadedBytes, 0)
        XCTAssertEqual(second.drawCalls, 0, "the same list again: no damage, nothing drawn")
        h.renderer.tracksDamage = false
        _ = try h.renderer.render(list)
        let third = h.renderer.lastFrameStats
        XCTAssertEqual(third.textureUploads, 0)
        XCTAssertEqual(third.drawCalls, 300)
    }

    /// One renderer across frames whose contents change: a new CGImage is never mistaken for an
    /// old one, even when it reuses the old one's memory, and dead images' textures go.
    func testReuseAcrossFramesWithChangingContents() throws {
        let h = try GLHarness()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.addSublayer(l)
        for frame in 0..<12 {
            let c = [UInt8(frame * 20), UInt8(255 - frame * 20), UInt8((frame * 53) % 256), 255]
            var b = Bitmap(width: 8, height: 8)
            for p in 0..<64 { for k in 0..<4 { b.pixels[p * 4 + k] = c[k] } }
            l.contents = CGImage(bitmap: b, source: "frame \(frame)")  // the previous image dies here
            let out = try h.renderer.render(displayList(root, width: 40, height: 40))
            XCTAssertEqual(out.rgba(20, 20), c, "frame \(frame)")
            XCTAssertEqual(h.renderer.lastFrameStats.textureUploads, 1, "frame \(frame)")
            // Dead images are dropped at the end of the frame after they die: at most the current
            // image and the one just replaced are held, plus the canvas target.
            XCTAssertLessThanOrEqual(h.renderer.lastFrameStats.texturesHeld, 3, "frame \(frame)")
        }
        // The same image drawn again: no upload.
        _ = try h.renderer.render(displayList(root, width: 40, height: 40))
        XCTAssertEqual(h.renderer.lastFrameStats.textureUploads, 0)
    }

    /// Beyond the cache budget, textures not drawn in the current frame are evicted, least
    /// recently used first.
    func testTextureCacheEvictsBeyondItsBudget() throws {
        let h = try GLHarness()
        h.renderer.textureCacheBudget = 3 * 64 * 64 * 4
        // Inked: a transparent image draws nothing and is never uploaded.
        let images = (0..<5).map { i in
            CGImage(bitmap: Bitmap(width: 64, height: 64, pixels: [UInt8](repeating: 255, count: 64 * 64 * 4)), source: "img \(i)")
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let l = CALayer()
        l.frame = root.frame
        root.addSublayer(l)
        for img in images {
            l.contents = img
            _ = try h.renderer.render(displayList(root, width: 20, height: 20))
        }
        XCTAssertLessThanOrEqual(h.renderer.lastFrameStats.textureBytesHeld - 20 * 20 * 4, 3 * 64 * 64 * 4)
        l.contents = images[4]
        _ = try h.renderer.render(displayList(root, width: 20, height: 20))
        XCTAssertEqual(h.renderer.lastFrameStats.textureUploads, 0, "the most recent image stays")
        l.contents = images[0]
        _ = try h.renderer.render(displayList(root, width: 20, height: 20))
        XCTAssertEqual(h.renderer.lastFrameStats.textureUploads, 1, "the oldest was evicted")
    }

    /// Draw calls follow texture changes, not layer count: leaves-100 and leaves-1000 (one
    /// shared image) take the same number of draws.
    func testDrawCallsDoNotGrowWithLayerCount() throws {
        let h = try GLHarness()
        var stats: [String: GLRenderer.FrameStats] = [:]
        for name in ["leaves-100", "leaves-1000", "multiply-1000", "cube-grid-166"] {
            let scene = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("bench/\(name).json").path)
            let list = Compositor.displayList(root: scene.root.snapshot(), width: Double(scene.canvas.width),
                                              height: Double(scene.canvas.height), scale: 1, background: scene.canvas.background)
            _ = try h.renderer.render(list)
            _ = try h.renderer.render(list)  // steady state: nothing to upload
            stats[name] = h.renderer.lastFrameStats
            print("\(name): \(h.renderer.lastFrameStats)")
        }
        let small = try XCTUnwrap(stats["leaves-100"]), large = try XCTUnwrap(stats["leaves-1000"])
        // 3D sorting splits some intersecting leaves, so there are a few more quads than layers.
        XCTAssertGreaterThanOrEqual(small.quads, 100)
        XCTAssertGreaterThanOrEqual(large.quads, 1000)
        XCTAssertEqual(large.drawCalls, small.drawCalls)
        XCTAssertLessThanOrEqual(large.drawCalls, 2)
        XCTAssertEqual(large.textureUploads, 0)
        XCTAssertLessThanOrEqual(large.stateChanges, small.stateChanges + 2)
        XCTAssertLessThanOrEqual(try XCTUnwrap(stats["multiply-1000"]).drawCalls, 2)
    }

    /// A frame that draws exactly what the last one did reuses its quad records (no building,
    /// no upload) and gives the same pixels; any change rebuilds them.
    func testUnchangedFrameReusesItsRecords() throws {
        let h = try GLHarness()
        let scene = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("bench/multiply-100.json").path)
        let first = try h.renderer.render(Compositor.displayList(for: scene))
        XCTAssertFalse(h.renderer.lastFrameStats.recordsReused)
        let second = try h.renderer.render(Compositor.displayList(for: scene))
        XCTAssertTrue(h.renderer.lastFrameStats.recordsReused)
        XCTAssertEqual(first, second)
        scene.root.sublayers![3].position.x += 5
        let moved = try h.renderer.render(Compositor.displayList(for: scene))
        XCTAssertFalse(h.renderer.lastFrameStats.recordsReused)
        XCTAssertEqual(BitmapDifference(moved, try CPURenderer().render(Compositor.displayList(for: scene))).fraction, 0, accuracy: 0.001)
    }

    /// Image quads cut to their ink (`ContentsGeometry.inked`) draw exactly what the uncut quad
    /// draws on GL too, magnified and minified, nearest and linear, rotated and in perspective.
    func testInkCroppedQuadsDrawWhatTheWholeQuadDraws() throws {
        let h = try GLHarness()
        for filter in [CALayerContentsFilter.nearest, .linear] {
            for (size, angle, m34) in [(150.0, 0.3, 0.0), (23.0, 0.0, 0.0), (120.0, 0.7, -1.0 / 300)] {
                let root = CALayer()
                root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
                let l = CALayer()
                l.frame = CGRect(x: 100 - size / 2, y: 100 - size / 2, width: size, height: size)
                var t = CATransform3DMakeRotation(CGFloat(angle), 0, 1, 1)
                t.m34 = CGFloat(m34)
                l.transform = t
                l.contents = BenchmarkScene.leafImage
                l.minificationFilter = filter
                l.magnificationFilter = filter
                root.addSublayer(l)
                let cut = displayList(root, width: 200, height: 200)
                var whole = cut
                guard case .quads(var quads) = whole.passes[0].content else { return XCTFail("no quads") }
                XCTAssertEqual(quads.count, 1)
                XCTAssertLessThan(quads[0].rect.width * quads[0].rect.height, l.bounds.width * l.bounds.height, "cut")
                quads[0].rect = l.bounds
                whole.passes[0].content = .quads(quads)
                let a = try h.renderer.render(cut), b = try h.renderer.render(whole)
                XCTAssertEqual(zip(a.pixels, b.pixels).filter { $0 != $1 }.count, 0, "\(filter) \(size): bytes that differ")
                XCTAssertGreaterThan(a.pixels.filter { $0 != 0 }.count, 400, "something is drawn")
            }
        }
    }

    /// When some quads change and the rest stay, only the changed records are written (and
    /// their rows uploaded); the pixels are exactly those of a renderer that builds them all.
    /// Changes that need room in the clip area, or another pass structure, build them all.
    func testChangedQuadsPatchTheirRecordsOnly() throws {
        let h = try GLHarness()
        // A second context for renderers that build every record, one per frame.
        let reference = try EGLHeadlessContext()
        try h.context.makeCurrent()
        let scene = BenchmarkScene.leaves.make(count: 200)
        let root = scene.root
        _ = try h.renderer.render(Compositor.displayList(for: scene))
        XCTAssertEqual(h.renderer.lastFrameStats.recordsWritten, h.renderer.lastFrameStats.quads, "the first frame builds every record")
        func frame() throws -> (written: Int, quads: Int, exact: Bool) {
            let list = Compositor.displayList(for: scene)
            let patched = try h.renderer.render(list)
            let s = h.renderer.lastFrameStats
            try reference.makeCurrent()
            let fresh = try GLRenderer().render(list)
            try h.context.makeCurrent()
            return (s.recordsWritten, s.quads, patched == fresh)
        }
        // A flat leaf turns: one record (or the few pieces it is split into).
        let flat = root.sublayers!.first { $0.transform.m34 == 0 }!
        flat.transform = CATransform3DRotate(flat.transform, 0.4, 0, 0, 1)
        var f = try frame()
        XCTAssertGreaterThan(f.written, 0)
        XCTAssertLessThan(f.written, 10, "of \(f.quads)")
        XCTAssertTrue(f.exact)
        // Moved off the canvas's visible side entirely, then back: records of nothing, and back.
        let saved = flat.position
        flat.position = CGPoint(x: -5000, y: -5000)
        f = try frame()
        XCTAssertTrue(f.exact)
        flat.position = saved
        f = try frame()
        XCTAssertTrue(f.exact)
        // Behind the eye (w < 0 everywhere): nothing of it may be drawn from its old record.
        let turned = flat.transform
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 800
        flat.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 900), p)
        f = try frame()
        XCTAssertTrue(f.exact)
        flat.transform = turned
        // A rounded clip needs the clip area: a changed quad clipped so builds every record.
        flat.masksToBounds = true
        flat.cornerRadius = 6
        flat.opacity = 1  // no group-opacity pass: the clipped contents quad is on the canvas
        f = try frame()
        XCTAssertTrue(f.exact)
        flat.position.x += 3
        f = try frame()
        XCTAssertEqual(f.written, f.quads, "the changed quad uses the clip loop: a full build")
        XCTAssertTrue(f.exact)
        // Group opacity: the subtree is a pass; turning the layer's opacity rewrites one record.
        flat.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        flat.opacity = 0.8
        f = try frame()
        XCTAssertTrue(f.exact)
        flat.opacity = 0.5
        f = try frame()
        XCTAssertEqual(f.written, 1)
        XCTAssertTrue(f.exact)
    }

    /// `draw(_:into:width:height:)` into a caller's framebuffer gives the same pixels as `render`.
    func testDrawIntoACallersFramebuffer() throws {
        let h = try GLHarness()
        let (name, root, w, ht) = GLRendererEquivalenceTests.handBuiltTrees()[1]
        let list = displayList(root, width: w, height: ht, scale: 1, background: rgb(240, 240, 240))
        let expected = try h.renderer.render(list)
        var rb: GLuint = 0, fb: GLuint = 0
        glGenRenderbuffers(1, &rb)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), rb)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(list.width), GLsizei(list.height))
        glGenFramebuffers(1, &fb)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), rb)
        defer {
            glDeleteFramebuffers(1, &fb)
            glDeleteRenderbuffers(1, &rb)
        }
        glViewport(0, 0, 1, 1)  // state the renderer must not trust
        try h.renderer.draw(list, into: fb, width: list.width, height: list.height)
        var raw = [UInt8](repeating: 0, count: list.width * list.height * 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb)
        glReadPixels(0, 0, GLsizei(list.width), GLsizei(list.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &raw)
        try glCheck("read back")
        var flipped = [UInt8](repeating: 0, count: raw.count)
        let row = list.width * 4
        for y in 0..<list.height { flipped[y * row..<(y + 1) * row] = raw[(list.height - 1 - y) * row..<(list.height - y) * row] }
        XCTAssertEqual(Bitmap(width: list.width, height: list.height, pixels: flipped), expected, name)
    }

    /// The same shaders as GLSL ES 3.00 on an OpenGL ES 3 context, same pixels.
    func testOpenGLES3ContextMatchesTheReference() throws {
        let context = try EGLHeadlessContext(api: .openGLES3)
        let renderer = try GLRenderer()
        XCTAssertTrue(renderer.isES)
        for (name, root, w, ht) in GLRendererEquivalenceTests.handBuiltTrees() {
            let list = displayList(root, width: w, height: ht, scale: 1, background: rgb(240, 240, 240))
            let (d, _, _) = try compareBackends(list, gl: renderer, name: "es-\(name)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(name): \(d)")
        }
        withExtendedLifetime(context) {}
    }

    /// A canvas larger than the texture size limit is refused with a clear error: the library's
    /// canvas limit when the driver allows 16384 px or more (llvmpipe: exactly 16384), else the
    /// driver's.
    func testCanvasBeyondTheTextureSizeLimitThrows() throws {
        let h = try GLHarness()
        let list = DisplayList(passes: [RenderPass(index: 0, purpose: .canvas, width: h.renderer.maxTextureSize + 1, height: 4,
                                                   content: .quads([]), label: "canvas")],
                               width: h.renderer.maxTextureSize + 1, height: 4, background: .clear)
        XCTAssertThrowsError(try h.renderer.render(list)) { error in
            if h.renderer.maxTextureSize >= CanvasSizeError.maximumSide {
                XCTAssertEqual(error as? CanvasSizeError, CanvasSizeError(width: Double(h.renderer.maxTextureSize + 1), height: 4))
            } else {
                guard case .passTooLarge = error as? GLRendererError else { return XCTFail("\(error)") }
            }
        }
        // An offscreen pass over the driver's limit under a small canvas: the driver's error.
        let pass = RenderPass(index: 0, purpose: .groupOpacity, width: h.renderer.maxTextureSize + 1, height: 4,
                              content: .quads([]), label: "wide")
        let canvas = RenderPass(index: 1, purpose: .canvas, width: 4, height: 4, content: .quads([]), label: "canvas")
        XCTAssertThrowsError(try h.renderer.render(DisplayList(passes: [pass, canvas], width: 4, height: 4, background: .clear))) { error in
            guard case .passTooLarge = error as? GLRendererError else { return XCTFail("\(error)") }
        }
        // The renderer still works afterwards.
        let ok = try h.renderer.render(displayList(solidLayer(CGRect(x: 0, y: 0, width: 4, height: 4), rgb(255, 0, 0)),
                                                   width: 4, height: 4))
        XCTAssertEqual(ok.rgba(1, 1), [255, 0, 0, 255])
    }

    /// A 64x64 image in four solid quadrants.
    static func quadrants(_ n: Int) -> Bitmap {
        var b = Bitmap(width: n, height: n)
        let colors: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]
        for y in 0..<n {
            for x in 0..<n {
                let c = colors[(y < n / 2 ? 0 : 2) + (x < n / 2 ? 0 : 1)]
                for k in 0..<4 { b.pixels[(y * n + x) * 4 + k] = c[k] }
            }
        }
        return b
    }
}

/// The shaders embedded in the binary are exactly the files in `Shaders/`.
final class EmbeddedShadersTests: XCTestCase {
    func testEmbeddedShadersMatchTheFiles() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Shaders")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".glsl") }.sorted()
        XCTAssertEqual(files, EmbeddedShaders.all.keys.sorted(), "run Shaders/embed.sh")
        for f in files {
            let text = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
            XCTAssertEqual(EmbeddedShaders.all[f], text, "\(f) differs from its embedded copy: run Shaders/embed.sh")
        }
    }
}
