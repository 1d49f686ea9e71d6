// The layer fields of scene-format.md, one row each: the reader reads exactly these, the
// writer writes exactly these. `type`, `frame`, `contents`, `mask` and `sublayers` need the
// rest of the scene (other fields, the image table, recursion) and live in the reader and
// writer themselves.

import Foundation

/// The fields every layer type has, on `LayerProperties`. (`frame` is applied after all of
/// them, since it places the layer by its own anchor point.)
let commonLayerFields = SceneFieldTable<LayerProperties>([
    SceneField("name", optional: \.name),
    SceneField("bounds", \.bounds, Rules.nonNegativeSize),
    SceneField("position", \.position),
    SceneField("anchorPoint", \.anchorPoint),
    SceneField("anchorPointZ", \.anchorPointZ),
    SceneField("zPosition", \.zPosition),
    SceneField("transform", \.transform),
    SceneField("sublayerTransform", \.sublayerTransform),
    SceneField("hidden", \.isHidden),
    SceneField("opacity", \.opacity, Rules.unitInterval),
    SceneField("allowsGroupOpacity", \.allowsGroupOpacity),
    SceneField("backgroundColor", \.backgroundColor),
    SceneField("cornerRadius", \.cornerRadius, Rules.nonNegative),
    SceneField("maskedCorners", \.maskedCorners),
    SceneField("cornerCurve", \.cornerCurve),
    SceneField("borderWidth", \.borderWidth, Rules.nonNegative),
    SceneField("borderColor", \.borderColor),
    SceneField("masksToBounds", \.masksToBounds),
    SceneField("doubleSided", \.isDoubleSided),
    SceneField("geometryFlipped", \.isGeometryFlipped),
    SceneField("contentsGravity", \.contentsGravity),
    SceneField("contentsScale", \.contentsScale, Rules.positive),
    SceneField("contentsRect", \.contentsRect),
    SceneField("contentsCenter", \.contentsCenter),
    SceneField("minificationFilter", \.minificationFilter),
    SceneField("magnificationFilter", \.magnificationFilter),
    SceneField("allowsEdgeAntialiasing", \.allowsEdgeAntialiasing),
    SceneField("shadowColor", \.shadowColor),
    SceneField("shadowOpacity", \.shadowOpacity, Rules.unitInterval),
    SceneField("shadowOffset", \.shadowOffset),
    SceneField("shadowRadius", \.shadowRadius, Rules.nonNegative),
    SceneField("shadowPath", path: \.shadowPath),
    SceneField("shouldRasterize", \.shouldRasterize),
    SceneField("rasterizationScale", \.rasterizationScale, Rules.positive),
])

/// `CAShapeLayer`'s own fields.
let shapeLayerFields = SceneFieldTable<ShapeStyle>([
    SceneField("path", path: \.path),
    SceneField("fillColor", \.fillColor),
    SceneField("fillRule", \.fillRule),
    SceneField("strokeColor", \.strokeColor),
    SceneField("lineWidth", \.lineWidth, Rules.nonNegative),
    SceneField("lineCap", \.lineCap),
    SceneField("lineJoin", \.lineJoin),
    SceneField("miterLimit", \.miterLimit, Rules.nonNegative),
    SceneField("lineDashPattern", optional: \.lineDashPattern),
    SceneField("lineDashPhase", \.lineDashPhase),
    SceneField("strokeStart", \.strokeStart, Rules.unitInterval),
    SceneField("strokeEnd", \.strokeEnd, Rules.unitInterval),
])

/// `CAGradientLayer`'s own fields.
let gradientLayerFields = SceneFieldTable<GradientStyle>([
    SceneField("colors", optional: \.colors),
    SceneField("locations", optional: \.locations),
    SceneField("startPoint", \.startPoint),
    SceneField("endPoint", \.endPoint),
    SceneField("gradientType", \.type),
])

/// `CATextLayer`'s own fields.
let textLayerFields = SceneFieldTable<TextStyle>([
    SceneField("string", optional: \.string),
    SceneField("fontSize", \.fontSize, Rules.nonNegative),
    SceneField("font", optional: \.font),
    SceneField("foregroundColor", \.foregroundColor),
    SceneField("alignmentMode", \.alignmentMode),
    SceneField("isWrapped", \.isWrapped),
    SceneField("truncationMode", \.truncationMode),
])

/// `CAReplicatorLayer`'s own fields.
let replicatorLayerFields = SceneFieldTable<ReplicatorStyle>([
    SceneField("instanceCount", \.instanceCount, Rules.nonNegativeWhole),
    SceneField("instanceDelay", \.instanceDelay),
    SceneField("instanceTransform", \.instanceTransform),
    SceneField("instanceColor", \.instanceColor),
    SceneField("instanceRedOffset", \.instanceRedOffset),
    SceneField("instanceGreenOffset", \.instanceGreenOffset),
    SceneField("instanceBlueOffset", \.instanceBlueOffset),
    SceneField("instanceAlphaOffset", \.instanceAlphaOffset),
    SceneField("preservesDepth", \.preservesDepth),
])

/// `CAScrollLayer`'s own fields: its mode, and the scrolls the reader makes once the layer is
/// built (they are not properties, so the writer writes the bounds they made instead).
let scrollLayerFields = ["scrollMode", "scrollToPoint", "scrollToRect"]

/// Fields a transformLayer accepts but ignores, since it draws nothing of its own; the reader
/// warns about each one present.
let fieldsIgnoredByTransformLayers: Set<String> = [
    "backgroundColor", "contents", "drawing", "borderWidth", "borderColor", "mask", "masksToBounds",
    "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath",
]

/// The `type` of a layer in a scene file: which Core Animation class it is.
enum SceneLayerType: String, SceneEnum {
    case layer, transformLayer, shapeLayer, gradientLayer, textLayer, replicatorLayer, scrollLayer, tiledLayer, emitterLayer

    /// The type of an existing layer (a subclass counts as the class it extends).
    init(of layer: CALayer) {
        switch layer {
        case is CATransformLayer: self = .transformLayer
        case is CAShapeLayer: self = .shapeLayer
        case is CAGradientLayer: self = .gradientLayer
        case is CATextLayer: self = .textLayer
        case is CAReplicatorLayer: self = .replicatorLayer
        case is CAScrollLayer: self = .scrollLayer
        case is CATiledLayer: self = .tiledLayer
        case is CAEmitterLayer: self = .emitterLayer
        default: self = .layer
        }
    }

    /// Every field a layer of this type may have.
    var allowedFields: Set<String> { Self.allowedFieldsByType[self]! }

    private static let allowedFieldsByType: [SceneLayerType: Set<String>] = {
        let common = ["type", "frame", "contents", "mask", "sublayers"] + SceneLayerTiming.keys + commonLayerFields.keys
        // `drawing` makes the contents of a layer without a typed drawing of its own by its
        // draw(in:); a typed layer draws its own.
        return [.layer: Set(common + ["drawing"]), .transformLayer: Set(common),
                .shapeLayer: Set(common + shapeLayerFields.keys),
                .gradientLayer: Set(common + gradientLayerFields.keys),
                .textLayer: Set(common + textLayerFields.keys),
                .replicatorLayer: Set(common + ["drawing"] + replicatorLayerFields.keys),
                .scrollLayer: Set(common + ["drawing"] + scrollLayerFields),
                .tiledLayer: Set(common + ["drawing"] + SceneTiledLayer.keys),
                .emitterLayer: Set(common + SceneEmitter.keys)]
    }()

    /// A new layer of this type with the type's own fields read from `object` (`image` finds
    /// the scene's images by name, for `drawing`).
    func makeLayer(reading object: SceneObject, image: (String) -> CGImage?) throws -> CALayer {
        let drawing = try object["drawing"].map { node in
            if let contents = object["contents"] { throw contents.error("not allowed together with drawing (drawing makes the contents)") }
            return try node.elements(shape: "an array of drawing operations").map { try DrawingCall(scene: $0, image: image) }
        }
        switch self {
        case .layer: return CALayer().drawing(drawing)
        case .transformLayer: return CATransformLayer()
        case .shapeLayer: let l = CAShapeLayer()
            try shapeLayerFields.read(object, into: &l.style)
            return l
        case .gradientLayer: let l = CAGradientLayer()
            try gradientLayerFields.read(object, into: &l.style)
            return l
        case .textLayer: let l = CATextLayer()
            try textLayerFields.read(object, into: &l.style)
            return l
        case .replicatorLayer: let l = CAReplicatorLayer().drawing(drawing)
            try replicatorLayerFields.read(object, into: &l.style)
            return l
        case .scrollLayer: let l = CAScrollLayer().drawing(drawing)
            l.scrollMode = try object.read("scrollMode") ?? .both
            return l
        case .tiledLayer: let l = CATiledLayer().drawing(drawing)
            try SceneTiledLayer.read(object, into: l)
            return l
        case .emitterLayer: return try SceneEmitter.makeLayer(reading: object, image: image)
        }
    }

    /// The state of a new layer of this type, with Core Animation's defaults.
    private var defaultState: AnimatedLayerState {
        let kind: LayerSnapshot.Kind
        switch self {
        case .layer: kind = .layer
        case .transformLayer: kind = .transformLayer
        case .shapeLayer: kind = .shape(ShapeStyle())
        case .gradientLayer: kind = .gradient(GradientStyle())
        case .textLayer: kind = .text(TextStyle())
        case .replicatorLayer: kind = .replicator(ReplicatorStyle())
        case .scrollLayer: kind = .scroll(.both)
        case .tiledLayer: kind = .tiled(TiledLayerStyle(tiles: TileStore()))
        case .emitterLayer: kind = .emitter(EmitterStyle())
        }
        return AnimatedLayerState(properties: LayerProperties(), kind: kind)
    }

    /// Why an animation of `keyPath` (whose entry is `entry`) cannot be on a layer of this
    /// type, or cannot take `value` there: the layer type has no such property, or the value,
    /// written into a new layer's property, breaks the rule its static field has (the same
    /// check, so a value refused as a field is refused as an animation value). `nil` when
    /// neither; `value` `nil` checks the key path alone.
    func problem(animating keyPath: String, _ entry: AnimatableKeyPath, to value: AnimatedValue? = nil) -> String? {
        // `bounds.size.width` animates the field `bounds`, `transform.scale` the field `transform`.
        let field = String(keyPath.prefix { $0 != "." })
        guard allowedFields.contains(field) else {
            let owners = SceneLayerType.allCases.filter { $0.allowedFields.contains(field) }.map { "a \($0.rawValue)" }
            return "a \(rawValue) has no property \"\(keyPath)\"" + (owners.isEmpty ? "" : " (\(owners.joined(separator: " or ")) has)")
        }
        if self == .emitterLayer, SceneEmitter.keys.contains(field) { return "an emitterLayer's own fields are not animatable in scene files" }
        guard let value else { return nil }
        var state = defaultState
        entry.write(&state, value)
        if let problem = commonLayerFields.problem(field, in: state.properties) { return problem }
        switch state.kind {
        case .shape(let style): return shapeLayerFields.problem(field, in: style)
        case .gradient(let style): return gradientLayerFields.problem(field, in: style)
        case .text(let style): return textLayerFields.problem(field, in: style)
        case .replicator(let style): return replicatorLayerFields.problem(field, in: style)
        case .layer, .transformLayer, .scroll, .tiled, .emitter: return nil
        }
    }

    /// The members for the type's own fields of `layer` that differ from the defaults.
    static func ownMembers(of layer: CALayer, at path: String, names: [ObjectIdentifier: String]) throws -> [(key: String, value: JSONValue)] {
        switch layer {
        case let l as CAEmitterLayer: return try SceneEmitter.members(of: l, at: path, names: names)
        case let l as CATiledLayer: return try SceneTiledLayer.members(of: l, at: path)
        case let l as CAShapeLayer: return try shapeLayerFields.members(of: l.style, at: path)
        case let l as CAGradientLayer: return try gradientLayerFields.members(of: l.style, at: path)
        case let l as CATextLayer: return try textLayerFields.members(of: l.style, at: path)
        case let l as CAReplicatorLayer: return try replicatorLayerFields.members(of: l.style, at: path)
        case let l as CAScrollLayer:
            // A scroll layer clips unless the file says otherwise: its default differs from a layer's.
            var members = l.masksToBounds ? [] : [(key: "masksToBounds", value: JSONValue.bool(false))]
            if l.scrollMode != .both { members.append(("scrollMode", l.scrollMode.sceneJSON())) }
            return members
        default: return []
        }
    }
}
