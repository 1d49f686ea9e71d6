// The scene format's "Time and animations": layer timing fields and the `animations` array,
// read strictly (every error names its JSON path) and written back. A value's type comes
// from its key path's entry in `AnimatableKeyPath`, the one table of key paths.

import Foundation

extension CAMediaTimingFillMode: SceneEnum {
    /// Every fill mode.
    public static let allCases: [Self] = [.removed, .forwards, .backwards, .both]
}

extension CAAnimationCalculationMode: SceneEnum {
    /// The modes a scene may name (`cubicPaced` is not evaluated as Core Animation does yet,
    /// so the reader refuses it).
    public static let allCases: [Self] = [.linear, .discrete, .paced, .cubic]
}

/// The layer timing fields (`CAMediaTiming` on `CALayer`), read and written beside the
/// property table since they live on the layer, not in `LayerProperties`.
enum SceneLayerTiming {
    static let keys = ["beginTime", "speed", "timeOffset", "animations"]

    static func read(_ object: SceneObject, into layer: CALayer) throws {
        if let v: Double = try object.read("beginTime") { layer.beginTime = v }
        if let v: Float = try object.read("speed") { layer.speed = v }
        if let v: Double = try object.read("timeOffset") { layer.timeOffset = v }
        if let node = object["animations"] {
            for element in try node.elements(shape: "an array of animations") {
                let (key, animation) = try SceneAnimation.read(element)
                layer.addCopied(animation, forKey: key)
            }
        }
    }

    static func members(of layer: CALayer, at path: String) throws -> [(key: String, value: JSONValue)] {
        var m: [(key: String, value: JSONValue)] = []
        if layer.beginTime != 0 { m.append(("beginTime", try atPath("\(path).beginTime") { try layer.beginTime.sceneJSON() })) }
        if layer.speed != 1 { m.append(("speed", try atPath("\(path).speed") { try layer.speed.sceneJSON() })) }
        if layer.timeOffset != 0 { m.append(("timeOffset", try atPath("\(path).timeOffset") { try layer.timeOffset.sceneJSON() })) }
        if !layer.animationList.isEmpty {
            m.append(("animations", .array(try layer.animationList.enumerated().map { i, entry in
                try SceneAnimation.json(entry.animation, key: entry.key, at: "\(path).animations[\(i)]")
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
        "keyframe": propertyKeys.union(["values", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues", "biasValues"]),
        "group": timingKeys.union(["animations"]),
    ]

    /// Every field an animation of some type may have.
    static var allFields: [String] { allowedKeys.values.reduce(into: Set<String>()) { $0.formUnion($1) }.sorted() }

    /// Reads an animation and its key.
    static func read(_ node: SceneNode) throws -> (String?, CAAnimation) {
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
            property.keyPath = keyPath
            property.isAdditive = try object.read("additive") ?? false
            property.isCumulative = try object.read("cumulative") ?? false
            if let basic = property as? CABasicAnimation {
                basic.fromValue = try object["fromValue"].map { try value($0, entry.kind) }
                basic.toValue = try object["toValue"].map { try value($0, entry.kind) }
                basic.byValue = try object["byValue"].map { try value($0, entry.kind) }
            }
            if let spring = property as? CASpringAnimation { try readSpring(object, into: spring) }
            if let keyframe = property as? CAKeyframeAnimation { try readKeyframes(object, node, entry.kind, into: keyframe) }
        }
        if let group = animation as? CAAnimationGroup, let children = object["animations"] {
            group.animations = try children.elements(shape: "an array of animations").map { try read($0).1 }
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
        return CAMediaTimingFunction(controlPoints: Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    private static func readSpring(_ object: SceneObject, into s: CASpringAnimation) throws {
        s.mass = try object.read("mass", Rules.positive) ?? 1
        s.stiffness = try object.read("stiffness", Rules.positive) ?? 100
        s.damping = try object.read("damping", Rules.nonNegative) ?? 10
        s.initialVelocity = try object.read("initialVelocity") ?? 0
        s.allowsOverdamping = try object.read("allowsOverdamping") ?? false
    }

    private static func readKeyframes(_ object: SceneObject, _ node: SceneNode, _ kind: AnimatedValueKind, into k: CAKeyframeAnimation) throws {
        k.calculationMode = try object.read("calculationMode") ?? .linear
        let valuesNode = try object.required("values", in: node.path)
        let values = try valuesNode.elements(shape: "an array of values").map { try value($0, kind) }
        guard !values.isEmpty else { throw valuesNode.error("a keyframe animation needs at least one value") }
        k.values = values
        let segments = k.calculationMode == .discrete ? values.count : values.count - 1
        if let timesNode = object["keyTimes"] {
            let times = try timesNode.elements(shape: "an array of key times").map { try $0.number() }
            guard times.count == segments + 1 else {
                throw timesNode.error("expected \(segments + 1) key times for \(values.count) values (\(k.calculationMode.rawValue)), found \(times.count)")
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
            guard list.count == values.count else {
                throw listNode.error("expected \(values.count) numbers (one per value), found \(list.count)")
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

    /// A value of `kind` as the API holds it (`CGFloat`, `CGPoint`, …).
    static func value(_ node: SceneNode, _ kind: AnimatedValueKind) throws -> Any {
        switch kind {
        case .number: return try node.read() as CGFloat
        case .point: return try node.read() as CGPoint
        case .size: return try node.read() as CGSize
        case .rect: return try node.read() as CGRect
        case .color: return try node.read() as CGColor
        case .transform: return try node.read() as CATransform3D
        case .bool: return try node.read() as Bool
        }
    }

    static func valueJSON(_ v: Any, _ kind: AnimatedValueKind, at path: String) throws -> JSONValue {
        switch kind.convert(v) {
        case .vector(let x)?:
            return kind == .number ? try atPath(path) { try jsonNumber(x[0]) } : try atPath(path) { try jsonNumbers(x.map { CGFloat($0) }) }
        case .transform(let t)?: return try atPath(path) { try t.sceneJSON() }
        case .bool(let b)?: return .bool(b)
        case nil: throw SceneError(path: path, message: "the value \(v) is not of the key path's type")
        }
    }

    private static func timingFunctionJSON(_ f: CAMediaTimingFunction) throws -> JSONValue {
        if let name = CAMediaTimingFunctionName.controlPoints.first(where: { $0.value == f.points })?.key { return .string(name.rawValue) }
        return .array(try f.points.map { try jsonNumber($0) })
    }

    /// The animation as a scene object.
    static func json(_ a: CAAnimation, key: String?, at path: String) throws -> JSONValue {
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
                    if let v { m.append((name, try valueJSON(v, entry.kind, at: "\(path).\(name)"))) }
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
                m.append(("values", .array(try (k.values ?? []).enumerated().map { try valueJSON($1, entry.kind, at: "\(path).values[\($0)]") })))
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
            m.append(("animations", .array(try children.enumerated().map { try json($1, key: nil, at: "\(path).animations[\($0)]") })))
        }
        return .object(m)
    }
}
