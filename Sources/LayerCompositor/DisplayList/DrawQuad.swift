// The one primitive a pass draws: every layer's background, contents, border and offscreen
// pass reaches the backends as such a quad, so each backend has one per-pixel path.
import Foundation
import LayerKitCore

/// One textured quad: a rectangle in a layer's bounds space, its transform to pass pixels, its
/// coverage rule, fill, opacity and clips.
public struct DrawQuad: Equatable, Sendable {
    /// Which part of coverage the quad's rect takes.
    public enum Shape: Equatable, Sendable {
        /// The rectangle with its corners rounded as `corners` say.
        case rect(corners: Corners)
        /// A ring inside the rectangle of `width`, following `corners` on the outside and the
        /// same corners with the radius less `width` (not below 0) on the inside (a border).
        case border(width: Double, corners: Corners)
    }

    /// Local (bounds space) → pass pixels; backends upload it as is.
    public var transform: CATransform3D
    /// Pass pixels → the local plane (inverse of `transform`'s plane homography).
    public var inverse: PlaneMap
    /// The quad's extent in local coordinates.
    public var rect: CGRect
    /// Coverage within `rect`.
    public var shape: Shape
    /// What is drawn.
    public var fill: Fill
    /// Multiplies the fill.
    public var opacity: Float
    /// Whether the straight edges of `rect` are antialiased (curves always are).
    public var antialiased: Bool
    /// Regions outside which nothing is drawn.
    public var clips: [Clip]
    /// The layer, for dumps and profiles.
    public var label: String
    /// On the first quad of a replicated run, the run: the quads after it are copies of the
    /// first ones (`CopyRun`), which a backend may draw instanced.
    package var copyRun: CopyRun?

    /// Whether the quad's own coverage (clips aside) is only ever 0 or 1: straight edges aliased
    /// and corners square, so a pixel counts exactly when its centre is inside.
    public var hasBinaryCoverage: Bool {
        switch shape {
        case .rect(let corners), .border(_, let corners): return !antialiased && corners.isSquare
        }
    }

    /// Creates a quad.
    public init(transform: CATransform3D, inverse: PlaneMap, rect: CGRect, shape: Shape, fill: Fill,
                opacity: Float, antialiased: Bool, clips: [Clip], label: String) {
        self.transform = transform
        self.inverse = inverse
        self.rect = rect
        self.shape = shape
        self.fill = fill
        self.opacity = opacity
        self.antialiased = antialiased
        self.clips = clips
        self.label = label
    }
}
