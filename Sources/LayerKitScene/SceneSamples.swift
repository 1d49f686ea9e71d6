// The scene format's "Checking an animated scene": `samples` (presentation values a scene
// expects at scene times) and probes with a `time` (hit tests against the presentation tree).

import Foundation

extension Scene {
    /// A presentation value a scene expects: the `keyPath` of the layer named `layer`, as
    /// `presentation()` would show it at scene time `time`.
    public struct Sample {
        /// The scene time in seconds.
        public var time: Double
        /// The `name` of the layer (the first one in reading order with that name).
        public var layer: String
        /// An animatable key path (`position`, `transform.rotation.z`, `backgroundColor`, …).
        public var keyPath: String
        /// The expected value, typed as an animation's `toValue` of that key path
        /// (`CGFloat`, `CGPoint`, `CGRect`, `CGColor`, `CATransform3D`, `Bool`).
        public var value: Any

        /// A sample expecting `value` for `keyPath` of layer `layer` at scene time `time`.
        public init(time: Double, layer: String, keyPath: String, value: Any) {
            self.time = time
            self.layer = layer
            self.keyPath = keyPath
            self.value = value
        }
    }

    /// What one sample found.
    public struct SampleResult: CustomStringConvertible {
        /// The expectation.
        public let sample: Sample
        /// The expected value as text (numbers as written; colours as straight [r, g, b, a]).
        public let expected: String
        /// The presentation value found, as text, or why there is none.
        public let actual: String
        /// Whether every component is within 1e-4 relative or 1e-6 absolute, whichever is
        /// larger, of the expected one (booleans: equal).
        public let passed: Bool

        /// One line: `sample LAYER.KEYPATH at T s: expected E, got A: ok` (or `FAIL`).
        public var description: String {
            "sample \(sample.layer).\(sample.keyPath) at \(shortestDecimal(sample.time)) s: expected \(expected), got \(actual): \(passed ? "ok" : "FAIL")"
        }
    }

    /// The first layer named `name`, in reading order (a layer, its mask, its sublayers).
    public func layer(named name: String) -> CALayer? { Self.layer(named: name, in: root) }

    /// The first layer named `name` in the tree of `root`, in reading order.
    private static func layer(named name: String, in root: CALayer) -> CALayer? {
        func find(_ l: CALayer) -> CALayer? {
            guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { find(l) } }
            if l.name == name { return l }
            for child in (l.maskStorage.map { [$0] } ?? []) + l.sublayerListStorage {
                if let found = find(child) { return found }
            }
            return nil
        }
        return find(root)
    }

    /// Compares one sample with the presentation value: the layer's model value with its
    /// animations applied at its own time for scene time `sample.time`.
    public func check(_ sample: Sample) -> SampleResult {
        if sample.keyPath == SceneSamples.visibleRect { return checkVisibleRect(sample) }
        guard let entry = AnimatableKeyPath.named(sample.keyPath), let expected = entry.kind.convert(sample.value) else {
            return SampleResult(sample: sample, expected: "\(sample.value)", actual: "no value of key path \(sample.keyPath)", passed: false)
        }
        guard let layer = layer(named: sample.layer) else {
            return SampleResult(sample: sample, expected: Self.text(expected), actual: "no layer named \(sample.layer)", passed: false)
        }
        let actual = entry.read(layer.presentationState(atLocalTime: layer.localTime(fromMedia: sample.time)))
        return SampleResult(sample: sample, expected: Self.text(expected), actual: Self.text(actual),
                            passed: Self.matches(actual, expected))
    }

    /// A `visibleRect` sample: read off the presentation tree of the whole scene at the
    /// sample's time, since the nearest scroll layer above the layer moves it.
    private func checkVisibleRect(_ sample: Sample) -> SampleResult {
        guard let expected = AnimatedValueKind.rect.convert(sample.value) else {
            return SampleResult(sample: sample, expected: "\(sample.value)", actual: "not a rectangle", passed: false)
        }
        // Held until read: a layer's superlayer is weak, and the scroll layer is above it.
        let shown = root.presentation(atTime: sample.time)
        guard let layer = Self.layer(named: sample.layer, in: shown) else {
            return SampleResult(sample: sample, expected: Self.text(expected), actual: "no layer named \(sample.layer)", passed: false)
        }
        let r = withExtendedLifetime(shown) { layer.visibleRect }
        let actual = AnimatedValue.vector([r.origin.x, r.origin.y, r.size.width, r.size.height].map(Double.init))
        return SampleResult(sample: sample, expected: Self.text(expected), actual: Self.text(actual),
                            passed: Self.matches(actual, expected))
    }

    private static func matches(_ actual: AnimatedValue, _ expected: AnimatedValue) -> Bool {
        func close(_ a: [Double], _ e: [Double]) -> Bool {
            a.count == e.count && zip(a, e).allSatisfy { abs($0 - $1) <= max(1e-4 * abs($1), 1e-6) }
        }
        switch (actual, expected) {
        case let (.number(a), .number(e)): return close([a], [e])
        case let (.vector(a), .vector(e)): return close(a, e)
        case let (.transform(a), .transform(e)): return close(a.entries.map(Double.init), e.entries.map(Double.init))
        case let (.bool(a), .bool(e)): return a == e
        case let (.path(a), .path(e)): return a == e
        case let (.image(a), .image(e)): return a === e
        default: return false
        }
    }

    private static func text(_ v: AnimatedValue) -> String {
        // Up to 7 significant digits: enough to see a miss, short enough to read.
        func number(_ x: Double) -> String { shortestDecimal(Double(String(format: "%.7g", x)) ?? x) }
        switch v {
        case .number(let x): return number(x)
        case .vector(let x): return "[" + x.map(number).joined(separator: ", ") + "]"
        case .transform(let t): return "[" + t.entries.map { number(Double($0)) }.joined(separator: ", ") + "]"
        case .bool(let b): return "\(b)"
        case .path(let p): return p.map { "a path of \($0.elements.count) elements" } ?? "no path"
        case .image(let i): return i.map { "the image from \($0.source)" } ?? "no image"
        case .string(let x): return x.map { "\"\($0)\"" } ?? "no string"
        }
    }
}

/// Reading and writing `samples` entries.
enum SceneSamples {
    /// Reads a `samples` entry; the layer must exist in `scene` and the value must be of the
    /// key path's type.
    static func read(_ node: SceneNode, in scene: Scene) throws -> Scene.Sample {
        let object = try node.object(allowing: ["time", "layer", "keyPath", "value"], what: "a sample")
        let time: Double = try object.required("time", in: node.path)
        let layerNode = try object.required("layer", in: node.path)
        let layer: String = try layerNode.read()
        guard scene.layer(named: layer) != nil else { throw layerNode.error("no layer named \"\(layer)\" in the scene") }
        let keyPathNode = try object.required("keyPath", in: node.path)
        let keyPath: String = try keyPathNode.read()
        guard let kind = kind(of: keyPath) else {
            throw keyPathNode.error("unknown or not yet animatable key path \"\(keyPath)\"")
        }
        let value = try SceneAnimation.value(try object.required("value", in: node.path), kind, scene.decodedImages)
        return Scene.Sample(time: time, layer: layer, keyPath: keyPath, value: value)
    }

    /// A sample as a scene object.
    static func json(_ s: Scene.Sample, at path: String) throws -> JSONValue {
        guard let kind = kind(of: s.keyPath) else {
            throw SceneError(path: "\(path).keyPath", message: "unknown or not yet animatable key path \"\(s.keyPath)\"")
        }
        return .object([("time", try atPath("\(path).time") { try jsonNumber(s.time) }), ("layer", .string(s.layer)),
                        ("keyPath", .string(s.keyPath)), ("value", try SceneAnimation.valueJSON(s.value, kind, at: "\(path).value"))])
    }

    /// The read-only key path samples take besides the animatable ones: `CALayer.visibleRect`.
    static let visibleRect = "visibleRect"

    /// The kind of value a sample of `keyPath` holds; `nil` for a key path samples do not take.
    private static func kind(of keyPath: String) -> AnimatedValueKind? {
        keyPath == visibleRect ? .rect : AnimatableKeyPath.named(keyPath)?.kind
    }
}
