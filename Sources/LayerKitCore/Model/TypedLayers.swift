import Foundation

/// A layer that does not flatten its sublayers: Core Animation's `CATransformLayer`.
///
/// Its sublayers share its parent's 3D space, so nested 3D transforms compose instead of being
/// projected onto a plane. It draws nothing of its own (background, contents, border, mask,
/// shadow and `masksToBounds` are ignored) and its opacity multiplies into each sublayer.
/// Hit testing passes through it to its sublayers.
open class CATransformLayer: CALayer {
    /// `.transformLayer`.
    public override var snapshotKind: LayerSnapshot.Kind { .transformLayer }
}

/// A layer that draws a path: Core Animation's `CAShapeLayer`.
///
/// Its numeric setters follow `CALayer`'s rule: non-finite values (in a path, a dash pattern)
/// are ignored; `strokeStart` and `strokeEnd` keep finite values as given and are drawn clamped
/// to 0…1.
open class CAShapeLayer: CALayer {
    /// The shape's style as one value (the properties below read and write it).
    public var style = ShapeStyle() { didSet { snapshotChanged() } }
    /// `.shape` with this layer's style.
    public override var snapshotKind: LayerSnapshot.Kind { .shape(style) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .shape(let s) = kind { style = s } }
    override class var defaultKind: LayerSnapshot.Kind { .shape(ShapeStyle()) }
    /// The path drawn, in the layer's bounds space.
    public var path: CGPath? { get { style.path } set { changeAnimatable("path") { setIfFinite(&style.path, newValue) } } }
    /// Fill colour; `nil` fills nothing.
    public var fillColor: CGColor? { get { style.fillColor } set { changeAnimatable("fillColor") { assignIfChanged(&style.fillColor, newValue) } } }
    /// Which regions count as inside.
    public var fillRule: CAShapeLayerFillRule { get { style.fillRule } set { style.fillRule = newValue } }
    /// Stroke colour; `nil` strokes nothing.
    public var strokeColor: CGColor? { get { style.strokeColor } set { changeAnimatable("strokeColor") { assignIfChanged(&style.strokeColor, newValue) } } }
    /// Stroke width in points.
    public var lineWidth: CGFloat { get { style.lineWidth } set { changeAnimatable("lineWidth") { setIfFinite(&style.lineWidth, newValue) } } }
    /// End caps of open subpaths.
    public var lineCap: CAShapeLayerLineCap { get { style.lineCap } set { style.lineCap = newValue } }
    /// Corner joins.
    public var lineJoin: CAShapeLayerLineJoin { get { style.lineJoin } set { style.lineJoin = newValue } }
    /// Longest miter join, as a multiple of the line width; longer ones are bevelled.
    public var miterLimit: CGFloat { get { style.miterLimit } set { changeAnimatable("miterLimit") { setIfFinite(&style.miterLimit, newValue) } } }
    /// Dash and gap lengths; `nil` draws a solid line. Apple's type (`[NSNumber]`, so that
    /// `lineDashPattern = [4, 2]` compiles as on iOS); kept as `CGFloat`s (`style`).
    public var lineDashPattern: [NSNumber]? {
        get { style.lineDashPattern?.map { NSNumber(value: Double($0)) } }
        set { setIfFinite(&style.lineDashPattern, newValue?.map { CGFloat($0.doubleValue) }) }
    }
    /// How far into the dash pattern the stroke starts.
    public var lineDashPhase: CGFloat { get { style.lineDashPhase } set { changeAnimatable("lineDashPhase") { setIfFinite(&style.lineDashPhase, newValue) } } }
    /// Start of the stroked part, as a fraction of the path's length.
    public var strokeStart: CGFloat { get { style.strokeStart } set { changeAnimatable("strokeStart") { setIfFinite(&style.strokeStart, newValue) } } }
    /// End of the stroked part, as a fraction of the path's length.
    public var strokeEnd: CGFloat { get { style.strokeEnd } set { changeAnimatable("strokeEnd") { setIfFinite(&style.strokeEnd, newValue) } } }
}

/// A layer that fills its bounds with a colour gradient: Core Animation's `CAGradientLayer`.
///
/// Its numeric setters follow `CALayer`'s rule: non-finite points or locations are ignored.
open class CAGradientLayer: CALayer {
    /// The gradient as one value (the properties below read and write it).
    public var style = GradientStyle() { didSet { snapshotChanged() } }
    /// `.gradient` with this layer's style.
    public override var snapshotKind: LayerSnapshot.Kind { .gradient(style) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .gradient(let s) = kind { style = s } }
    override class var defaultKind: LayerSnapshot.Kind { .gradient(GradientStyle()) }
    /// The colours, in order: `CGColor`s, typed `[Any]` as Apple types them (so that
    /// `colors = [red.cgColor, blue.cgColor]` compiles as on iOS). A list with an element that
    /// is not a `CGColor` is refused and reported to `valueTypeErrorHandler`.
    public var colors: [Any]? {
        get { style.colors }
        set {
            let colors = newValue?.compactMap { $0 as? CGColor }
            guard colors?.count == newValue?.count else {
                let bad = newValue!.first { !($0 is CGColor) }
                return valueTypeErrorHandler(CAValueTypeError(keyPath: "colors", source: "CAGradientLayer.colors",
                                                              valueType: "an array with \(AnimatedValueKind.typeDescription(bad))",
                                                              expected: AnimatedValueKind.colors.expectedDescription))
            }
            changeAnimatable("colors") { assignIfChanged(&style.colors, colors) }
        }
    }
    /// Where each colour sits, 0…1; `nil` spaces them evenly. Apple's type (`[NSNumber]`, so
    /// that `locations = [0, 0.5, 1]` compiles as on iOS); kept as `CGFloat`s (`style`).
    public var locations: [NSNumber]? {
        get { style.locations?.map { NSNumber(value: Double($0)) } }
        set { changeAnimatable("locations") { setIfFinite(&style.locations, newValue?.map { CGFloat($0.doubleValue) }) } }
    }
    /// Start of the gradient in unit coordinates of the bounds.
    public var startPoint: CGPoint { get { style.startPoint } set { changeAnimatable("startPoint") { setIfFinite(&style.startPoint, newValue) } } }
    /// End of the gradient in unit coordinates of the bounds.
    public var endPoint: CGPoint { get { style.endPoint } set { changeAnimatable("endPoint") { setIfFinite(&style.endPoint, newValue) } } }
    /// Axial, radial or conic.
    public var type: CAGradientLayerType { get { style.type } set { style.type = newValue } }
}

/// A layer that draws a string: Core Animation's `CATextLayer`.
///
/// Its `fontSize` setter follows `CALayer`'s rule: a non-finite size is ignored.
open class CATextLayer: CALayer {
    /// The text style as one value (the properties below read and write it).
    public var style = TextStyle() { didSet { snapshotChanged() } }
    /// `.text` with this layer's style.
    public override var snapshotKind: LayerSnapshot.Kind { .text(style) }
    override func adoptStyle(of kind: LayerSnapshot.Kind) { if case .text(let s) = kind { style = s } }
    override class var defaultKind: LayerSnapshot.Kind { .text(TextStyle()) }
    /// The text drawn.
    public var string: String? { get { style.string } set { style.string = newValue } }
    /// A font family name or a font file path; `nil` is the default font.
    public var font: String? { get { style.font } set { style.font = newValue } }
    /// Font size in points.
    public var fontSize: CGFloat { get { style.fontSize } set { changeAnimatable("fontSize") { setIfFinite(&style.fontSize, newValue) } } }
    /// Text colour.
    public var foregroundColor: CGColor? { get { style.foregroundColor } set { changeAnimatable("foregroundColor") { assignIfChanged(&style.foregroundColor, newValue) } } }
    /// Horizontal alignment.
    public var alignmentMode: CATextLayerAlignmentMode { get { style.alignmentMode } set { style.alignmentMode = newValue } }
    /// Whether lines wrap at the bounds' width.
    public var isWrapped: Bool { get { style.isWrapped } set { style.isWrapped = newValue } }
    /// Where text that does not fit is cut.
    public var truncationMode: CATextLayerTruncationMode { get { style.truncationMode } set { style.truncationMode = newValue } }
}
