// The scene format's "Time and animations": layer timing fields and the `animations` array,
// read strictly (every error names its JSON path) and written back. A value's type comes
// from its key path's entry in `AnimatableKeyPath`, the one table of key paths.

import Foundation

extension CAMediaTimingFillMode: SceneEnum {
    /// Every fill mode.
    public static let allCases: [Self] = [.removed, .forwards, .backwards, .both]
}

extension CAAnimationCalculationMode: SceneEnum {
    /// Every calculation mode.
    public static let allCases: [Self] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
}

extension CAAnimationRotationMode: SceneEnum {
    /// Every rotation mode.
    public static let allCases: [Self] = [.rotateAuto, .rotateAutoReverse]
}

/// The layer timing fields (`CAMediaTiming` on `CALayer`), read and written beside the
/// property table since they live on the layer, not in `LayerProperties`.
enum SceneLayerTiming {
    static let keys = ["beginTime", "speed", "timeOffset", "animations"]

    /// Reads the timing fields and animations; `images` resolves `contents` values by name.
    static func read(_ object: SceneObject, into layer: CALayer, images: [String: CGImage]) throws {
        if let v: Double = try object.read("beginTime") { layer.beginTime = v }
        if let v: Float = try object.read("speed") { layer.speed = v }
        if let v: Double = try object.read("timeOffset") { layer.timeOffset = v }
        if let node = object["animations"] {
            for element in try node.elements(shape: "an array of animations") {
                let (key, animation) = try SceneAnimation.read(element, images: images, on: SceneLayerType(of: layer))
                layer.addCopied(animation, forKey: key)
            }
        }
    }

    /// The timing fields and animations as scene members; `names` names `contents` images.
    static func members(of layer: CALayer, at path: String, names: [ObjectIdentifier: String]) throws -> [(key: String, value: JSONValue)] {
        var m: [(key: String, value: JSONValue)] = []
        if layer.beginTime != 0 { m.append(("beginTime", try atPath("\(path).beginTime") { try layer.beginTime.sceneJSON() })) }
        if layer.speed != 1 { m.append(("speed", try atPath("\(path).speed") { try layer.speed.sceneJSON() })) }
        if layer.timeOffset != 0 { m.append(("timeOffset", try atPath("\(path).timeOffset") { try layer.timeOffset.sceneJSON() })) }
        if !layer.animationList.isEmpty {
            m.append(("animations", .array(try layer.animationList.enumerated().map { i, entry in
                try SceneAnimation.json(entry.animation, key: entry.key, at: "\(path).animations[\(i)]", names: names)
            })))
        }
        return m
    }
}

/// One animation object of a scene file.
enum SceneAnimation {
    private static let timingKeys: Set<String> = [
        "type", "key", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
        "autoreverses", "fillMode", "removedOnCompletion", "timingFunction",
    ]
    private static let propertyKeys = timingKeys.union(["keyPath", "additive", "cumulative"])
    private static let allowedKeys: [String: Set<String>] = [
        "basic": propertyKeys.union(["fromValue", "toValue", "byValue"]),
        "spring": propertyKeys.union(["fromValue", "toValue", "byValue", "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"]),
        "keyframe": propertyKeys.union(["values", "path", "rotationMode", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues", "biasValues"]),
        "group": timingKeys.union(["animations"]),
    ]

    /// Every field an animation of some type may have.
    static var allFields: [String] { allowedKeys.values.reduce(into: Set<String>()) { $0.formUnion($1) }.sorted() }

    /// Reads an animation of a layer of `layerType` and its key. The key path must be a property of
    /// the type, and a value that replaces the property (`fromValue`, `toValue`, `values` of an
    /// animation that is not additive; not `byValue`, a change) must keep the rule of the
    /// property's field: the same check, so an opacity of 5 is refused in both places.
    static func read(_ node: SceneNode, images: [String: CGImage], on layerType: SceneLayerType) throws -> (String?, CAAnimation) {
        let object = try node.object(allowing: nil, what: "an animation")
        let type: String = try object.required("type", in: node.path)
        guard let allowed = allowedKeys[type] else {
            throw object["type"]!.error("unknown animation type \"\(type)\"; expected one of basic, group, keyframe, spring")
        }
        try object.rejectUnknownKeys(allowed: allowed, what: "a \(type) animation")
        let animation: CAAnimation
        switch type {
        case "basic": animation = CABasicAnimation()
        case "spring": animation = CASpringAnimation()
        case "keyframe": animation = CAKeyframeAnimation()
        default: animation = CAAnimationGroup()
        }
        try readTiming(object, into: animation)
        if let property = animation as? CAPropertyAnimation {
            let keyPathNode = try object.required("keyPath", in: node.path)
            let keyPath: String = try keyPathNode.read()
            guard let entry = AnimatableKeyPath.named(keyPath) else {
                throw keyPathNode.error("unknown or not yet animatable key path \"\(keyPath)\"")
            }
            if let problem = layerType.problem(animating: keyPath, entry) { throw keyPathNode.error(problem) }
            property.keyPath = keyPath
            property.isAdditive = try object.read("additive") ?? false
            property.isCumulative = try object.read("cumulative") ?? false
            let additive = property.isAdditive
            /// A value the property takes as it is (checked against the field's rule).
            func absolute(_ node: SceneNode) throws -> Any {
                let v = try value(node, entry.kind, images)
                if !additive, let converted = entry.kind.convert(v), let problem = layerType.problem(animating: keyPath, entry, to: converted) {
                    throw node.error(problem)
                }
                return v
            }
            if let basic = property as? CABasicAnimation {
                basic.fromValue = try object["fromValue"].map(absolute)
                basic.toValue = try object["toValue"].map(absolute)
                basic.byValue = try object["byValue"].map { try value($0, entry.kind, images) }
            }
            if let spring = property as? CASpringAnimation { try readSpring(object, into: spring) }
            if let keyframe = property as? CAKeyframeAnimation { try readKeyframes(object, node, entry.kind, absolute, into: keyframe) }
        }
        if let group = animation as? CAAnimationGroup, let children = object["animations"] {
            group.animations = try children.elements(shape: "an array of animations").map { try read($0, images: images, on: layerType).1 }
        }
        return (try object.read("key"), animation)
    }

    private static func readTiming(_ object: SceneObject, into a: CAAnimation) throws {
        a.beginTime = try object.read("beginTime") ?? 0
        a.duration = try object.read("duration", Rules.nonNegative) ?? 0
        a.speed = try object.read("speed") ?? 1
        a.timeOffset = try object.read("timeOffset") ?? 0
        if let node = object["repeatCount"] {
            if case .string("infinity") = node.value { a.repeatCount = .infinity } else {
                guard case .number = node.value else { throw node.mismatch("a number or \"infinity\"") }
                a.repeatCount = try node.read(Rules.nonNegative)
            }
        }
        a.repeatDuration = try object.read("repeatDuration", Rules.nonNegative) ?? 0
        a.autoreverses = try object.read("autoreverses") ?? false
        a.fillMode = try object.read("fillMode") ?? .removed
        a.isRemovedOnCompletion = try object.read("removedOnCompletion") ?? true
        a.timingFunction = try object["timingFunction"].map(timingFunction)
    }

    private static func timingFunction(_ node: SceneNode) throws -> CAMediaTimingFunction {
        if case .string(let name) = node.value {
            let n = CAMediaTimingFunctionName(rawValue: name)
            guard CAMediaTimingFunctionName.controlPoints[n] != nil else {
                throw node.error("unknown timing function \"\(name)\"; expected one of default, easeIn, easeInEaseOut, easeOut, linear, or [c1x, c1y, c2x, c2y]")
            }
            return CAMediaTimingFunction(name: n)
        }
        let p = try node.numbers(4, shape: "a timing function name or [c1x, c1y, c2x, c2y]")
        for i in [0, 2] where !(0...1).contains(p[i]) {
            throw SceneError(path: "\(node.path)[\(i)]", message: "a control point's x must be in 0...1, found \(shortestDecimal(p[i]))")
        }
        // CAMediaTimingFunction keeps Floats: a y beyond Float's range would become infinite.
        for i in [1, 3] where !Float(p[i]).isFinite {
            throw SceneError(path: "\(node.path)[\(i)]",
                             message: "a control point's y must be within ±\(Float.greatestFiniteMagnitude) (a Float), found \(shortestDecimal(p[i]))")
        }
        return CAMediaTimingFunction(controlPoints: Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    private static func readSpring(_ object: SceneObject, into s: CASpringAnimation) throws {
        s.mass = try object.read("mass", Rules.positive) ?? 1
        s.stiffness = try object.read("stiffness", Rules.positive) ?? 100
        s.damping = try object.read("damping", Rules.nonNegative) ?? 10
        s.initialVelocity = try object.read("initialVelocity") ?? 0
        s.allowsOverdamping = try object.read("allowsOverdamping") ?? false
    }

    /// `value` reads one keyframe value.
    private static func readKeyframes(_ object: SceneObject, _ node: SceneNode, _ kind: AnimatedValueKind, _ value: (SceneNode) throws -> Any,
                                      into k: CAKeyframeAnimation) throws {
        k.calculationMode = try object.read("calculationMode") ?? .linear
        let keyframes: Int
        if let pathNode = object["path"] {
            // A path replaces the values: its keyframes are its start and each segment's end.
            guard kind == .point else { throw pathNode.error("a path animates point key paths only (position, anchorPoint, …)") }
            let path = try CGPath.read(scene: pathNode)
            keyframes = KeyframeCurve(path: path).keyframes.count
            guard keyframes > 1 else { throw pathNode.error("a keyframe path needs at least one line or curve after its move-to") }
            k.path = path
        } else {
            let valuesNode = try object.required("values", in: node.path)
            let values = try valuesNode.elements(shape: "an array of values").map(value)
            guard !values.isEmpty else { throw valuesNode.error("a keyframe animation needs at least one value") }
            k.values = values
            keyframes = values.count
        }
        if let modeNode = object["rotationMode"] {
            guard k.path != nil else { throw modeNode.error("rotationMode turns the layer along a path, and this animation has none") }
            k.rotationMode = try modeNode.read()
        }
        let noun = k.path == nil ? "values" : "path keyframes", one = k.path == nil ? "value" : "keyframe"
        let segments = k.calculationMode == .discrete ? keyframes : keyframes - 1
        if let timesNode = object["keyTimes"] {
            let times = try timesNode.elements(shape: "an array of key times").map { try $0.number() }
            guard times.count == segments + 1 else {
                throw timesNode.error("expected \(segments + 1) key times for \(keyframes) \(noun) (\(k.calculationMode.rawValue)), found \(times.count)")
            }
            for (i, t) in times.enumerated() {
                if !(0...1).contains(t) { throw SceneError(path: "\(timesNode.path)[\(i)]", message: "a key time must be in 0...1, found \(shortestDecimal(t))") }
                if i > 0, t < times[i - 1] { throw SceneError(path: "\(timesNode.path)[\(i)]", message: "key times must not decrease (\(shortestDecimal(times[i - 1])) before \(shortestDecimal(t)))") }
            }
            if times.first != 0 || times.last != 1 { throw timesNode.error("key times must start at 0 and end at 1") }
            k.keyTimes = times.map { NSNumber(value: $0) }
        }
        for (name, key) in [("tensionValues", \CAKeyframeAnimation.tensionValues), ("continuityValues", \.continuityValues), ("biasValues", \.biasValues)] {
            guard let listNode = object[name] else { continue }
            let list = try listNode.elements(shape: "an array of numbers").map { try $0.number() }
            guard list.count == keyframes else {
                throw listNode.error("expected \(keyframes) numbers (one per \(one)), found \(list.count)")
            }
            k[keyPath: key] = list.map { NSNumber(value: $0) }
        }
        if let functionsNode = object["timingFunctions"] {
            let functions = try functionsNode.elements(shape: "an array of timing functions").map(timingFunction)
            guard functions.count == max(segments, 1) else {
                throw functionsNode.error("expected \(max(segments, 1)) timing functions (one per segment), found \(functions.count)")
            }
            k.timingFunctions = functions
        }
    }

    /// A value of `kind` as the API holds it (`CGFloat`, `CGPoint`, …); `images` resolves
    /// `contents` image names.
    static func value(_ node: SceneNode, _ kind: AnimatedValueKind, _ images: [String: CGImage] = [:]) throws -> Any {
        switch kind {
        case .number: return try node.read() as CGFloat
        case .point: return try node.read() as CGPoint
        case .size: return try node.read() as CGSize
        case .rect: return try node.read() as CGRect
        case .color: return try node.read() as CGColor
        case .transform: return try node.read() as CATransform3D
        case .bool: return try node.read() as Bool
        case .path: return try CGPath.read(scene: node)
        case .colors: return try node.read() as [CGColor]
        case .numbers: return try node.read() as [CGFloat]
        case .string: return try node.read() as String
        case .image:
            let name: String = try node.read()
            guard let image = images[name] else { throw node.error("no image named \"\(name)\" in images") }
            return image
        }
    }

    /// A value of `kind` as scene JSON; `names` names `contents` images.
    static func valueJSON(_ v: Any, _ kind: AnimatedValueKind, at path: String, names: [ObjectIdentifier: String] = [:]) throws -> JSONValue {
        switch (kind, v) {
        case (.path, let p as CGPath): return try atPath(path) { try p.sceneJSON() }
        case (.colors, let c as [CGColor]): return try atPath(path) { try c.sceneJSON() }
        case (.image, let i as CGImage):
            guard let name = names[ObjectIdentifier(i)] else {
                throw SceneError(path: path, message: "the image from \(i.source) is not in the scene's decodedImages, so it has no name")
            }
            return .string(name)
        default: break
        }
        let value = kind.convert(v)
        if let x = value?.components {
            return kind == .number ? try atPath(path) { try jsonNumber(x[0]) } : try atPath(path) { try jsonNumbers(x.map { CGFloat($0) }) }
        }
        switch value {
        case .transform(let t)?: return try atPath(path) { try t.sceneJSON() }
        case .bool(let b)?: return .bool(b)
        case .number?, .vector?, .path?, .image?, .string?, nil: throw SceneError(path: path, message: "the value \(v) is not of the key path's type")
        }
    }

    private static func timingFunctionJSON(_ f: CAMediaTimingFunction) throws -> JSONValue {
        if let name = CAMediaTimingFunctionName.controlPoints.first(where: { $0.value == f.points })?.key { return .string(name.rawValue) }
        return .array(try f.points.map { try jsonNumber($0) })
    }

    /// The animation as a scene object.
    static func json(_ a: CAAnimation, key: String?, at path: String, names: [ObjectIdentifier: String]) throws -> JSONValue {
        // A transition's old rendering is a second state of the layer, which a scene file has
        // no place for yet.
        if a is CATransition { throw SceneError(path: path, message: "a CATransition cannot be written (scene files have no transitions)") }
        var m: [(key: String, value: JSONValue)] = []
        let type = a is CASpringAnimation ? "spring" : a is CABasicAnimation ? "basic" : a is CAKeyframeAnimation ? "keyframe" : "group"
        m.append(("type", .string(type)))
        if let key { m.append(("key", .string(key))) }
        func number(_ name: String, _ v: Double, default d: Double) throws {
            if v != d { m.append((name, try atPath("\(path).\(name)") { try jsonNumber(v) })) }
        }
        try number("beginTime", a.beginTime, default: 0)
        try number("duration", a.duration, default: 0)
        try number("speed", Double(a.speed), default: 1)
        try number("timeOffset", a.timeOffset, default: 0)
        if a.repeatCount == .infinity { m.append(("repeatCount", .string("infinity"))) } else { try number("repeatCount", Double(a.repeatCount), default: 0) }
        try number("repeatDuration", a.repeatDuration, default: 0)
        if a.autoreverses { m.append(("autoreverses", .bool(true))) }
        if a.fillMode != .removed { m.append(("fillMode", a.fillMode.sceneJSON())) }
        if !a.isRemovedOnCompletion { m.append(("removedOnCompletion", .bool(false))) }
        if let f = a.timingFunction { m.append(("timingFunction", try timingFunctionJSON(f))) }
        if let p = a as? CAPropertyAnimation, let keyPath = p.keyPath, let entry = AnimatableKeyPath.named(keyPath) {
            m.append(("keyPath", .string(keyPath)))
            if p.isAdditive { m.append(("additive", .bool(true))) }
            if p.isCumulative { m.append(("cumulative", .bool(true))) }
            if let b = p as? CABasicAnimation {
                for (name, v) in [("fromValue", b.fromValue), ("toValue", b.toValue), ("byValue", b.byValue)] {
                    if let v { m.append((name, try valueJSON(v, entry.kind, at: "\(path).\(name)", names: names))) }
                }
            }
            if let s = p as? CASpringAnimation {
                try number("mass", Double(s.mass), default: 1)
                try number("stiffness", Double(s.stiffness), default: 100)
                try number("damping", Double(s.damping), default: 10)
                try number("initialVelocity", Double(s.initialVelocity), default: 0)
                if s.allowsOverdamping { m.append(("allowsOverdamping", .bool(true))) }
            }
            if let k = p as? CAKeyframeAnimation {
                if let kp = k.path, entry.kind == .point {
                    m.append(("path", try atPath("\(path).path") { try kp.sceneJSON() }))
                    if let mode = k.rotationMode { m.append(("rotationMode", mode.sceneJSON())) }
                } else {
                    m.append(("values", .array(try (k.values ?? []).enumerated().map { try valueJSON($1, entry.kind, at: "\(path).values[\($0)]", names: names) })))
                }
                if let times = k.keyTimes { m.append(("keyTimes", .array(try times.map { try jsonNumber($0.doubleValue) }))) }
                if let fs = k.timingFunctions { m.append(("timingFunctions", .array(try fs.map(timingFunctionJSON)))) }
                if k.calculationMode != .linear { m.append(("calculationMode", k.calculationMode.sceneJSON())) }
                for (name, list) in [("tensionValues", k.tensionValues), ("continuityValues", k.continuityValues), ("biasValues", k.biasValues)] {
                    if let list { m.append((name, .array(try list.map { try jsonNumber($0.doubleValue) }))) }
                }
            }
        } else if a is CAPropertyAnimation {
            throw SceneError(path: "\(path).keyPath", message: "no key path, or one LayerKit cannot animate")
        }
        if let g = a as? CAAnimationGroup, let children = g.animations, !children.isEmpty {
            m.append(("animations", .array(try children.enumerated().map { try json($1, key: nil, at: "\(path).animations[\($0)]", names: names) })))
        }
        return .object(m)
    }
}
