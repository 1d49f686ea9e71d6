import Foundation

// What the typed layers draw, as values: the style of a `CAShapeLayer`, `CAGradientLayer` or
// `CATextLayer` with Core Animation's defaults. They live with the drawing code that renders
// them (`TypedContent`), below the layer model, which stores them and snapshots them.

/// The fill rule of a shape (`CAShapeLayerFillRule`).
public enum CAShapeLayerFillRule: String, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (the default).
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd
}

/// How open stroke ends are drawn (`CAShapeLayerLineCap`).
public enum CAShapeLayerLineCap: String, Sendable, CaseIterable {
    /// Flat, ending at the end point (the default).
    case butt
    /// A half disc around the end point.
    case round
    /// A half square around the end point.
    case square
}

/// How stroke corners are drawn (`CAShapeLayerLineJoin`).
public enum CAShapeLayerLineJoin: String, Sendable, CaseIterable {
    /// A sharp corner, bevelled past `miterLimit` (the default).
    case miter
    /// A rounded corner.
    case round
    /// A cut corner.
    case bevel
}

/// Everything a `CAShapeLayer` adds to a layer, with Core Animation's defaults.
public struct ShapeStyle: Equatable, Sendable {
    /// The path drawn, in the layer's bounds space. Stored as an immutable copy, as Core
    /// Animation copies it: changing a `CGMutablePath` after assigning it changes nothing here.
    public var path: CGPath? = nil { didSet { path = path?.copy() } }
    /// Fill colour; `nil` fills nothing.
    public var fillColor: CGColor? = .black
    /// Which regions count as inside.
    public var fillRule: CAShapeLayerFillRule = .nonZero
    /// Stroke colour; `nil` strokes nothing.
    public var strokeColor: CGColor? = nil
    /// Stroke width in points.
    public var lineWidth: CGFloat = 1
    /// End caps of open subpaths.
    public var lineCap: CAShapeLayerLineCap = .butt
    /// Corner joins.
    public var lineJoin: CAShapeLayerLineJoin = .miter
    /// Longest miter join, as a multiple of the line width; longer ones are bevelled.
    public var miterLimit: CGFloat = 10
    /// Dash and gap lengths; `nil` draws a solid line.
    public var lineDashPattern: [CGFloat]? = nil
    /// How far into the dash pattern the stroke starts.
    public var lineDashPhase: CGFloat = 0
    /// Start of the stroked part of the path, as a fraction of its length.
    public var strokeStart: CGFloat = 0
    /// End of the stroked part of the path, as a fraction of its length.
    public var strokeEnd: CGFloat = 1
    /// Core Animation's defaults.
    public init() {}
}

/// The geometry of a gradient (`CAGradientLayerType`).
public enum CAGradientLayerType: String, Sendable, CaseIterable {
    /// Colours vary along the line from `startPoint` to `endPoint` (the default).
    case axial
    /// Colours vary with distance from `startPoint`; `endPoint` sets the ellipse's radii.
    case radial
    /// Colours vary with the angle about `startPoint`, starting towards `endPoint`.
    case conic
}

/// Everything a `CAGradientLayer` adds to a layer, with Core Animation's defaults.
public struct GradientStyle: Equatable, Sendable {
    /// The colours, in order.
    public var colors: [CGColor]? = nil
    /// Where each colour sits, 0…1; `nil` spaces them evenly.
    public var locations: [CGFloat]? = nil
    /// Start of the gradient in unit coordinates of the bounds.
    public var startPoint = CGPoint(x: 0.5, y: 0)
    /// End of the gradient in unit coordinates of the bounds.
    public var endPoint = CGPoint(x: 0.5, y: 1)
    /// Axial, radial or conic.
    public var type: CAGradientLayerType = .axial
    /// Core Animation's defaults.
    public init() {}
}

/// Horizontal text alignment (`CATextLayerAlignmentMode`).
public enum CATextLayerAlignmentMode: String, Sendable, CaseIterable {
    /// The script's natural alignment (left for Latin text; the default).
    case natural
    /// Flush left.
    case left
    /// Flush right.
    case right
    /// Centred.
    case center
    /// Stretched to both edges (except a paragraph's last line).
    case justified
}

/// Where text that does not fit is cut (`CATextLayerTruncationMode`).
public enum CATextLayerTruncationMode: String, Sendable, CaseIterable {
    /// Not truncated (the default): the text is clipped.
    case none
    /// An ellipsis replaces the start.
    case start
    /// An ellipsis replaces the middle.
    case middle
    /// An ellipsis replaces the end.
    case end
}

/// Everything a `CATextLayer` adds to a layer, with Core Animation's defaults.
public struct TextStyle: Equatable, Sendable {
    /// The text drawn.
    public var string: String? = nil
    /// A font family name or a font file path; `nil` is the default font.
    public var font: String? = nil
    /// Font size in points.
    public var fontSize: CGFloat = 36
    /// Text colour.
    public var foregroundColor: CGColor? = .white
    /// Horizontal alignment.
    public var alignmentMode: CATextLayerAlignmentMode = .natural
    /// Whether lines wrap at the bounds' width.
    public var isWrapped = false
    /// Where text that does not fit is cut.
    public var truncationMode: CATextLayerTruncationMode = .none
    /// Core Animation's defaults.
    public init() {}
}
