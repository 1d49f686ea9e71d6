// CAOpenGLLayer: the program's own OpenGL drawing as a layer's contents.
//
// How a drawing gets on screen
// ----------------------------
// The layer draws when it is displayed, at the commit (the snapshot) after `setNeedsDisplay()`,
// a change of its bounds' size or `contentsScale`, and at every commit while `isAsynchronous`.
// On the layers' own thread (OpenGLLayerThread.swift) it makes its context current — its own,
// from `copyCGLContext(forPixelFormat:)`, made the first time it draws — binds a framebuffer
// object over an RGBA8 texture of bounds × contentsScale pixels, sets the viewport to it, and
// asks `canDraw(…)`; when that says yes it calls `draw(…)` and reads the pixels back (rows
// flipped: GL's rows run bottom-up, so what the program draws at the top of clip space is the
// top of the picture) into a new `CGImage`, which becomes `contents`. From there both backends
// composite it as any layer's contents, with the layer's transform, opacity, masks and all;
// a commit where nothing changed reads nothing back and draws nothing.
//
// Why the GL backend gets a read-back image too, not the texture: the renderer's context and
// the layer's cannot share objects in general (the demo's window context is GLX, the layer's
// EGL), and drawing the layer in the renderer's context would need the display list to carry
// a drawing instead of an image. The readback happens once per drawing, not per frame (the
// renderer uploads the new image once and keeps it while it is the contents).

import CGL
import Foundation
import LayerKitCore

/// A layer whose contents a program draws with OpenGL: macOS's `CAOpenGLLayer` (the book's
/// `CAEAGLLayer` on iOS), over headless EGL instead of CGL.
///
/// Subclass it and override `draw(inCGLContext:pixelFormat:forLayerTime:displayTime:)`: it is
/// called with the layer's context current, a framebuffer of the layer's size in pixels
/// (bounds × `contentsScale`) bound, and the viewport set to it; clip space's top (+y) is the
/// layer's top. What it leaves in the framebuffer becomes the layer's contents, taken as
/// premultiplied RGBA in sRGB, as every `contents` image is. It is called at the commit after
/// `setNeedsDisplay()`, after the bounds' size or `contentsScale` change, and at every commit
/// (each frame) while `isAsynchronous` — each time only if `canDraw(…)` says yes; otherwise
/// the last drawing stays.
///
/// The context is desktop OpenGL 3.3 core profile unless `copyCGLPixelFormat(forDisplayMask:)`
/// says otherwise, the layer's own, and current only on LayerKit's OpenGL-layer thread: the
/// drawing methods run there (as Core Animation calls them on a thread of its own), while the
/// thread that commits waits for them, so they may read the layer's properties. Where no
/// OpenGL context can be made (no EGL driver), the layer says so once on standard error and
/// shows nothing. It has no scene-file type: its drawing is code.
open class CAOpenGLLayer: CALayer {
    /// Whether the layer draws at every commit (each frame), asking `canDraw(…)` first each
    /// time, rather than only when marked (default `false`, static content).
    open var isAsynchronous = false {
        didSet { if isAsynchronous && !oldValue { setNeedsDisplay() } }
    }

    /// The colour space Apple's layer draws in; LayerKit keeps it and takes the drawing as
    /// sRGB whatever it says, as it takes every `contents` image.
    open var colorspace: CGColorSpace?

    /// Whether the drawing may hold extended-dynamic-range values (default `false`); kept, not
    /// drawn: the framebuffer is 8 bits a channel.
    open var wantsExtendedDynamicRangeContent = false

    /// The layer's GL objects, touched only on the OpenGL-layer thread.
    private let backing = OpenGLLayerBacking()

    /// An OpenGL layer of Core Animation's defaults, except `needsDisplayOnBoundsChange`,
    /// which is `true`: its drawing is made for its size.
    public override init() {
        super.init()
        needsDisplayOnBoundsChange = true
    }

    /// A copy of `layer`'s state (see `CALayer.init(layer:)`), with its own context to come.
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let layer = layer as? CAOpenGLLayer else { return }
        isAsynchronous = layer.isAsynchronous
        colorspace = layer.colorspace
        wantsExtendedDynamicRangeContent = layer.wantsExtendedDynamicRangeContent
    }

    /// An OpenGL layer of the defaults; nothing is read from `coder`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        needsDisplayOnBoundsChange = true
    }

    deinit { backing.retire() }

    /// `true` for `contentsScale`, whose change resizes the drawing; the others as for `CALayer`.
    open override class func needsDisplay(forKey key: String) -> Bool {
        key == "contentsScale" || super.needsDisplay(forKey: key)
    }

    // MARK: What the program overrides

    /// Whether to draw now, asked before each drawing with the context current and the
    /// framebuffer bound; `false` keeps the last drawing. `true` by default.
    ///
    /// - Parameters:
    ///   - ctx: the layer's context.
    ///   - pf: the pixel format it was made for.
    ///   - t: the layer's local time of the frame (its media time converted by `convertTime`).
    ///   - ts: the frame's time stamp.
    open func canDraw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                      forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) -> Bool {
        true
    }

    /// Draws the layer's contents with OpenGL into the bound framebuffer, whose viewport is set
    /// to the layer's pixels; no other state is defined, and features it enables it should
    /// disable. The default flushes the context, as Apple's does, and draws nothing.
    ///
    /// - Parameters: as for `canDraw(inCGLContext:pixelFormat:forLayerTime:displayTime:)`.
    open func draw(inCGLContext ctx: CGLContextObj, pixelFormat pf: CGLPixelFormatObj,
                   forLayerTime t: CFTimeInterval, displayTime ts: UnsafePointer<CVTimeStamp>?) {
        glFlush()
    }

    /// The pixel format the layer's context is made for, asked once, before its first drawing
    /// (`mask`, a display mask on macOS, is 0): desktop OpenGL 3.3 core profile by default;
    /// `.openGLES3` for a program written for OpenGL ES, as the book's iOS listings are.
    open func copyCGLPixelFormat(forDisplayMask mask: UInt32) -> CGLPixelFormatObj {
        .openGL33Core
    }

    /// The context the layer draws in, asked once, before its first drawing, on the
    /// OpenGL-layer thread: by default a new headless context for `pf`, sharing nothing, as
    /// Apple's makes one; `nil` (after a warning on standard error naming EGL's error) where
    /// none can be made. An override may return a context of its own making (it is made
    /// current on that thread for each drawing).
    open func copyCGLContext(forPixelFormat pf: CGLPixelFormatObj) -> CGLContextObj? {
        do {
            return try EGLHeadlessContext(api: pf)
        } catch {
            warn("no OpenGL context could be made (\(error)); it draws nothing")
            return nil
        }
    }

    /// Apple's hook for releasing the context. LayerKit releases a layer's context by dropping
    /// its reference when the layer goes (an `EGLHeadlessContext` is destroyed with its last
    /// reference) and does not call this: it cannot call an override from `CAOpenGLLayer`'s
    /// `deinit`, which runs after the subclass's stored properties are gone.
    open func releaseCGLContext(_ ctx: CGLContextObj) {}

    /// Apple's hook for releasing the pixel format: a value here, with nothing to release;
    /// not called, as `releaseCGLContext(_:)` is not.
    open func releaseCGLPixelFormat(_ pf: CGLPixelFormatObj) {}

    // MARK: Display

    /// Draws the layer with OpenGL (see the class's description) and makes the pixels its
    /// `contents`, without an implicit animation: a new drawing replaces the last at once.
    open override func display() {
        let scale = contentsScale > 0 ? contentsScale : 1
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        let side = CGFloat(CanvasSizeError.maximumSide)
        guard w >= 1, h >= 1, w <= side, h <= side else {
            if w > side || h > side {
                let size = [w, h].map { Int(exactly: $0).map(String.init) ?? "\($0)" }
                warn("its drawing would be \(size[0]) x \(size[1]) pixels (bounds x contentsScale), over "
                     + "\(CanvasSizeError.maximumSide) a side; it is not drawn")
            }
            show(nil)
            return
        }
        let now = AnimationClock.shared.now
        let layerTime = convertTime(now, from: nil)
        let stamp = CVTimeStamp(mediaTime: now)
        let outcome = withUnsafePointer(to: stamp) { ts in
            GLThread.openGLLayers.sync { self.drawFrame(width: Int(w), height: Int(h), time: layerTime, displayTime: ts) }
        }
        switch outcome {
        case .drawn(let image): show(image)
        case .kept: break
        case .nothing:
            // Not marked again: the failure would recur (and be warned about) every frame; a
            // new size or a mark tries again.
            show(nil)
            return
        }
        // Marked again at once, so that the next commit displays it again.
        if isAsynchronous { setNeedsDisplay() }
    }

    private enum Outcome {
        /// Drawn and read back.
        case drawn(CGImage)
        /// `canDraw` said no: the last drawing stays.
        case kept
        /// Nothing can be drawn (no context, a framebuffer GL refuses).
        case nothing
    }

    private func show(_ image: CGImage?) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        contents = image
        CATransaction.commit()
    }

    /// On the OpenGL-layer thread: one drawing of `width` x `height` pixels.
    private func drawFrame(width: Int, height: Int, time: CFTimeInterval, displayTime: UnsafePointer<CVTimeStamp>) -> Outcome {
        let b = backing
        if b.isUnavailable { return .nothing }
        if b.context == nil {
            let pf = copyCGLPixelFormat(forDisplayMask: 0)
            guard let ctx = copyCGLContext(forPixelFormat: pf) else {
                b.isUnavailable = true
                return .nothing
            }
            b.pixelFormat = pf
            b.context = ctx
        }
        guard let ctx = b.context, let pf = b.pixelFormat else { return .nothing }
        do {
            try ctx.makeCurrent()
            try b.prepareTarget(width: width, height: height)
        } catch {
            warn("\(error); it is not drawn")
            return .nothing
        }
        guard canDraw(inCGLContext: ctx, pixelFormat: pf, forLayerTime: time, displayTime: displayTime) else { return .kept }
        // canDraw may have bound a framebuffer or set a viewport of its own.
        b.bindTarget()
        draw(inCGLContext: ctx, pixelFormat: pf, forLayerTime: time, displayTime: displayTime)
        do {
            try glCheck("draw(inCGLContext:pixelFormat:forLayerTime:displayTime:)")
        } catch {
            // Once: a drawing that fails each frame would fill the terminal.
            if !b.reportedGLError { warn("\(error)") }
            b.reportedGLError = true
        }
        do {
            let pixels = try b.readBack()
            return .drawn(CGImage(bitmap: pixels, source: "CAOpenGLLayer (\(debugName))"))
        } catch {
            warn("its drawing could not be read back (\(error)); it is not drawn")
            return .nothing
        }
    }

    /// Says `message` about this layer on standard error.
    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("LayerKit: warning: \(debugName): \(message)\n".utf8))
    }
}
