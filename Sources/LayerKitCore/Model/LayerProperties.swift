import Foundation

/// How layer contents are fitted into the bounds (`CALayerContentsGravity`).
///
/// As in `CALayer.h`, "bottom" means minimum y and "top" maximum y, so on the y-down canvas
/// the `top…` gravities sit at the visual bottom of the layer.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling, e.g. `"resizeAspect"`.
    public let rawValue: String
    /// Wraps a raw value; unknown values are kept and treated as `resize` by renderers.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Centred at its natural size.
    public static let center = Self(rawValue: "center")
    /// Natural size, centred horizontally, at maximum y.
    public static let top = Self(rawValue: "top")
    /// Natural size, centred horizontally, at minimum y.
    public static let bottom = Self(rawValue: "bottom")
    /// Natural size, centred vertically, at minimum x.
    public static let left = Self(rawValue: "left")
    /// Natural size, centred vertically, at maximum x.
    public static let right = Self(rawValue: "right")
    /// Natural size at minimum x, maximum y.
    public static let topLeft = Self(rawValue: "topLeft")
    /// Natural size at maximum x, maximum y.
    public static let topRight = Self(rawValue: "topRight")
    /// Natural size at minimum x, minimum y.
    public static let bottomLeft = Self(rawValue: "bottomLeft")
    /// Natural size at maximum x, minimum y.
    public static let bottomRight = Self(rawValue: "bottomRight")
    /// Stretched to fill the bounds (the default).
    public static let resize = Self(rawValue: "resize")
    /// Scaled uniformly to fit inside the bounds, centred.
    public static let resizeAspect = Self(rawValue: "resizeAspect")
    /// Scaled uniformly to cover the bounds, centred (may overflow them).
    public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")

    /// Every gravity Core Animation defines.
    public static let allCases: [Self] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                          .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
}

/// How contents are sampled when scaled (`CALayerContentsFilter`).
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The scene-file and Core Animation spelling.
    public let rawValue: String
    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Bilinear interpolation (the default).
    public static let linear = Self(rawValue: "linear")
    /// Nearest texel.
    public static let nearest = Self(rawValue: "nearest")
    /// Bilinear between mipmap levels (minification only).
    public static let trilinear = Self(rawValue: "trilinear")
    /// Every filter Core Animation defines.
    public static let allCases: [Self] = [.linear, .nearest, .trilinear]
}

/// Every property a `CALayer` has, with Core Animation's defaults, as one value.
///
/// `CALayer` stores its state in one of these, so a snapshot of a tree is a cheap copy of
/// values, and the scene reader, writer and renderers all agree on one list of properties.
///
/// A plain value: it checks nothing. `CALayer`'s setters are where values are checked (a
/// non-finite number is ignored, opacities are clamped to 0…1); code that fills this struct
/// directly owns that check, as the scene reader does by refusing such numbers with their JSON
/// path. The renderers skip a layer whose geometry is not finite rather than crash.
public struct LayerProperties: Equatable, Sendable {
    /// A name for probes, errors and profiles.
    public var name: String? = nil
    /// The layer's own coordinate space: origin shifts the sublayers, size is what it draws.
    public var bounds: CGRect = .zero
    /// Where the anchor point sits in the superlayer's bounds space.
    public var position: CGPoint = .zero
    /// The pivot of `transform` and the point placed at `position`, in unit coordinates.
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// The anchor point's z.
    public var anchorPointZ: CGFloat = 0
    /// A z translation applied after `transform`.
    public var zPosition: CGFloat = 0
    /// The transform about the anchor point.
    public var transform: CATransform3D = .identity
    /// The transform applied to the sublayers, about this layer's anchor point.
    public var sublayerTransform: CATransform3D = .identity
    /// Whether the layer and its subtree are skipped when drawing and hit testing.
    public var isHidden = false
    /// Opacity, 0…1.
    public var opacity: Float = 1
    /// Whether opacity fades the composited subtree as one group (true) or each layer alone.
    public var allowsGroupOpacity = true
    /// The fill behind the contents.
    public var backgroundColor: CGColor? = nil
    /// Radius of the rounded corners of background and border (and of the clip with
    /// `masksToBounds`).
    public var cornerRadius: CGFloat = 0
    /// Which corners `cornerRadius` rounds; the others stay square.
    public var maskedCorners: CACornerMask = .all
    /// The curve of the rounded corners.
    public var cornerCurve: CALayerCornerCurve = .circular
    /// Width of the border, drawn inside the bounds above the sublayers.
    public var borderWidth: CGFloat = 0
    /// Colour of the border.
    public var borderColor: CGColor? = .black
    /// Whether contents and sublayers are clipped to the (rounded) bounds.
    public var masksToBounds = false
    /// Whether the layer is drawn when it faces away from the viewer.
    public var isDoubleSided = true
    /// Whether the sublayers' geometry is mirrored vertically about the bounds.
    public var isGeometryFlipped = false
    /// The image drawn in the bounds.
    public var contents: CGImage? = nil
    /// How the contents are fitted into the bounds.
    public var contentsGravity: CALayerContentsGravity = .resize
    /// Image pixels per point of the contents.
    public var contentsScale: CGFloat = 1
    /// The part of the image shown, in unit coordinates; outside 0…1 extends the edge pixels.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// The stretchable centre of a nine-slice image, in unit coordinates.
    public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Filter used when the contents are drawn smaller than their pixels.
    public var minificationFilter: CALayerContentsFilter = .linear
    /// Filter used when the contents are drawn larger than their pixels.
    public var magnificationFilter: CALayerContentsFilter = .linear
    /// Whether straight edges are antialiased.
    public var allowsEdgeAntialiasing = false
    /// Colour of the shadow.
    public var shadowColor: CGColor? = .black
    /// Opacity of the shadow, 0…1; 0 draws none.
    public var shadowOpacity: Float = 0
    /// Offset of the shadow in the layer's space (y down, so the default moves it up).
    public var shadowOffset = CGSize(width: 0, height: -3)
    /// Gaussian sigma of the shadow blur, in points.
    public var shadowRadius: CGFloat = 3
    /// The shape of the shadow, instead of the composited alpha. Stored as an immutable copy,
    /// as Core Animation copies it: changing a `CGMutablePath` after assigning it changes
    /// nothing here.
    public var shadowPath: CGPath? = nil { didSet { shadowPath = shadowPath?.copy() } }
    /// Whether the subtree is rendered to a bitmap and reused.
    public var shouldRasterize = false
    /// Pixels per point of that bitmap (relative to layer space).
    public var rasterizationScale: CGFloat = 1

    /// Core Animation's defaults.
    public init() {}
}
