import Foundation
import Synchronization

extension CALayer {
    /// Marks the layer's contents as needing to be redrawn: the next snapshot (the frame's
    /// commit) calls `displayIfNeeded()`. A new layer is not marked, as in Core Animation.
    public func setNeedsDisplay() {
        displayPending = true
        // A kept snapshot of this layer or an ancestor would skip the walk down to it.
        snapshotChanged()
    }

    /// Marks the layer as needing display. The whole layer is redrawn: LayerKit does not keep
    /// dirty rectangles, which Core Animation may also merge into the whole bounds.
    public func setNeedsDisplay(_ rect: CGRect) { setNeedsDisplay() }

    /// Whether the layer is marked as needing display.
    public func needsDisplay() -> Bool { displayPending }

    /// Calls `display()` if the layer is marked, and clears the mark.
    public func displayIfNeeded() {
        guard displayPending else { return }
        displayPending = false
        CALayer.displayCount.add(1, ordering: .relaxed)
        display()
    }

    /// How many times `displayIfNeeded()` has redrawn a layer in this process: the frame loop
    /// counts a frame's redraws (`displays`) as the difference across its commit, which shows
    /// that a layer not marked for display is never redrawn.
    package static let displayCount = Atomic<Int>(0)

    /// Draws the layer's contents (`draw(in:)`) into a context of `bounds.size × contentsScale`
    /// pixels whose user space is the bounds with y down, and makes it the `contents`; a layer
    /// with no pixels to draw (an empty or over-large size) gets no contents.
    func displayByDrawing() {
        let scale = contentsScale > 0 ? contentsScale : 1
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        guard w >= 1, h >= 1, w <= CGFloat(CanvasSizeError.maximumSide), h <= CGFloat(CanvasSizeError.maximumSide),
              let ctx = CGContext(data: nil, width: Int(w), height: Int(h), bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            contents = nil
            return
        }
        // Flip Core Graphics' y-up device space so that the bounds' top left is at the top.
        ctx.translateBy(x: 0, y: h)
        ctx.scaleBy(x: scale, y: -scale)
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        ctx.baseTransform = CGAffineTransform(scaleX: scale, y: -scale)
        draw(in: ctx)
        contents = ctx.makeImage()
    }
}
