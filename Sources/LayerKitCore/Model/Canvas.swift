import Foundation

/// The surface a layer tree is drawn on, as a window is to Core Animation: its size in points,
/// pixels per point and background. A frame loop draws on one (`FrameLoop`); a scene file
/// describes one (`Canvas`); a display list is composited for one.
public struct Canvas: Equatable, Sendable {
    /// Width in points.
    public var width: CGFloat
    /// Height in points.
    public var height: CGFloat
    /// Pixels per point: the output image is `width*scale` x `height*scale` pixels (rounded).
    public var scale: CGFloat
    /// What the canvas is cleared to; `nil` is transparent.
    public var background: CGColor?

    /// A canvas of the given size in points.
    public init(width: CGFloat, height: CGFloat, scale: CGFloat = 1, background: CGColor? = nil) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
    }

    /// The output image's width in pixels (for a canvas within `CanvasSizeError`'s limits).
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    /// The output image's height in pixels (for a canvas within `CanvasSizeError`'s limits).
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}
