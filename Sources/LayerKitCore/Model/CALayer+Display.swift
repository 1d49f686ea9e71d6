import Foundation
import Synchronization

extension CALayer {
    /// Marks the layer's contents as needing to be redrawn: the next snapshot (the frame's
    /// commit) calls `displayIfNeeded()`. A new layer is not marked, as in Core Animation. The
    /// whole layer is redrawn, whatever rectangles `setNeedsDisplay(_:)` marked.
    public func setNeedsDisplay() {
        markForDisplay(nil)
    }

    /// Marks the region within `rect` (bounds space) as needing to be redrawn. Marks add up
    /// (their union) until the layer is displayed; then `draw(in:)` draws into the layer's
    /// previous contents, clipped to that union rounded outward to whole pixels (the context's
    /// `boundingBoxOfClipPath`), and pixels outside keep what they were. The whole layer is
    /// drawn instead when it was also marked by `setNeedsDisplay()`, when its bounds or
    /// `contentsScale` changed since the last drawing, or when its `contents` are not that
    /// drawing's image. An empty rectangle marks nothing; one with non-finite numbers marks
    /// the whole layer.
    public func setNeedsDisplay(_ rect: CGRect) {
        guard [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite) else { return markForDisplay(nil) }
        guard !rect.isEmpty else { return }
        markForDisplay(rect.standardized)
    }

    /// Marks the layer for display, adding `rect` to the region to redraw (`nil`: all of it).
    private func markForDisplay(_ rect: CGRect?) {
        if displayPending {
            dirtyRect = rect.flatMap { r in dirtyRect.map { $0.union(r) } }
        } else {
            dirtyRect = rect
            displayPending = true
        }
        // A kept snapshot of this layer or an ancestor would skip the walk down to it.
        snapshotChanged()
    }

    /// Whether the layer is marked as needing display.
    public func needsDisplay() -> Bool { displayPending }

    /// Calls `display()` if the layer is marked, and clears the mark.
    public func displayIfNeeded() {
        guard displayPending else { return }
        displayPending = false
        redrawRect = dirtyRect
        dirtyRect = nil
        CALayer.displayCount.add(1, ordering: .relaxed)
        display()
        redrawRect = nil
    }

    /// Draws the layer's contents (`draw(in:)`) into a context of `bounds.size × contentsScale`
    /// pixels whose user space is the bounds with y down, and makes it the `contents`. When
    /// `contentsAreFlipped()` the user space is flipped (y up on the image), since the image
    /// displays upright whatever the flips, and the drawing must land in the flipped geometry
    /// as the layer's sublayers do. A layer
    /// with no pixels to draw (an empty or over-large size) gets no contents; an over-large one
    /// (over 16,384 pixels a side) says so on standard error, as Core Graphics logs to the
    /// console, since a drawing that vanishes without a word looks like a bug in `draw(in:)`.
    /// A redraw of part
    /// of the layer (`redrawRect`) starts from a copy of the last drawing's pixels, so an image
    /// shared with other layers or kept by the caller never changes.
    func displayByDrawing() {
        // A tiled layer draws tile by tile as frames need them: displaying drops the tiles.
        if let tiled = self as? CATiledLayer { return tiled.invalidateTiles(redrawRect) }
        let scale = contentsScale > 0 ? contentsScale : 1
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        guard w >= 1, h >= 1, w <= CGFloat(CanvasSizeError.maximumSide), h <= CGFloat(CanvasSizeError.maximumSide),
              let ctx = CGContext(data: nil, width: Int(w), height: Int(h), bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            if w > CGFloat(CanvasSizeError.maximumSide) || h > CGFloat(CanvasSizeError.maximumSide) {
                let size = [w, h].map { Int(exactly: $0).map(String.init) ?? "\($0)" }
                FileHandle.standardError.write(Data(("LayerKit: warning: \(debugName): its drawing would be \(size[0]) x \(size[1]) pixels "
                    + "(bounds x contentsScale), over \(CanvasSizeError.maximumSide) a side; it is not drawn\n").utf8))
            }
            contents = nil
            drawnBacking = nil
            return
        }
        let flipped = contentsAreFlipped()
        if let region = redrawRect, let last = drawnBacking, last.image === contents, last.bounds == bounds,
           last.scale == scale, last.flipped == flipped, let data = ctx.data {
            last.image.bitmap.pixels.withUnsafeBytes { pixels in
                for y in 0..<ctx.height {
                    (data + y * ctx.bytesPerRow).copyMemory(from: pixels.baseAddress! + y * ctx.width * 4, byteCount: ctx.width * 4)
                }
            }
            // In device space (pixels, y up), before the CTM: the region's pixels, rounded outward.
            let r = region.offsetBy(dx: -bounds.minX, dy: -bounds.minY)
            let x0 = max((r.minX * scale).rounded(.down), 0), x1 = min((r.maxX * scale).rounded(.up), w)
            let y0 = max((r.minY * scale).rounded(.down), 0), y1 = min((r.maxY * scale).rounded(.up), h)
            ctx.clip(to: CGRect(x: x0, y: flipped ? y0 : h - y1, width: max(x1 - x0, 0), height: max(y1 - y0, 0)))
        }
        if flipped {
            ctx.scaleBy(x: scale, y: scale)
        } else {
            // Flip Core Graphics' y-up device space so that the bounds' top left is at the top.
            ctx.translateBy(x: 0, y: h)
            ctx.scaleBy(x: scale, y: -scale)
        }
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        ctx.baseTransform = CGAffineTransform(scaleX: scale, y: -scale)
        draw(in: ctx)
        let image = ctx.makeImage()
        contents = image
        drawnBacking = image.map { ($0, bounds, scale, flipped) }
    }
}
