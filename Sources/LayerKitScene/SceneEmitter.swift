// The fields of an emitterLayer and of its cells (docs/scene-format.md, "emitterLayer"), one
// row each as for the other layer types, and the checks the particle model needs: the
// unsupported shapes and `preservesDepth`, and the bound on particles alive at once.

import Foundation

extension EmitterStyle: SceneDefaults {}
extension EmitterCellProperties: SceneDefaults {}
extension CAEmitterLayerEmitterMode: SceneEnum {}
extension CAEmitterLayerRenderMode: SceneEnum {}

/// Only the shapes the particle model supports; Apple's `cuboid` and `sphere` are refused.
extension CAEmitterLayerEmitterShape: SceneValue {
    init(scene node: SceneNode) throws {
        let s = try String(scene: node)
        guard let shape = Self.supportedCases.first(where: { $0.rawValue == s }) else {
            throw node.error("unknown value \"\(s)\"; expected one of "
                + Self.supportedCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        self = shape
    }

    func sceneJSON() throws -> JSONValue {
        guard Self.supportedCases.contains(self) else {
            throw SceneError(path: "", message: "emitterShape \"\(rawValue)\" has no spelling in scene files")
        }
        return .string(rawValue)
    }
}

/// `seed`: a whole number 0…4294967295.
extension UInt32: SceneValue {
    init(scene node: SceneNode) throws {
        let v = try node.number()
        guard v == v.rounded(), v >= 0, v <= Double(UInt32.max) else {
            throw node.error("must be a whole number from 0 to \(UInt32.max), not \(shortestDecimal(v))")
        }
        self = UInt32(v)
    }
    func sceneJSON() -> JSONValue { .number(Double(self)) }
}

/// `CAEmitterLayer`'s own fields but `emitterCells` (read with the scene's images).
let emitterLayerFields = SceneFieldTable<EmitterStyle>([
    SceneField("birthRate", \.birthRate),
    SceneField("lifetime", \.lifetime),
    SceneField("velocity", \.velocity),
    SceneField("scale", \.scale),
    SceneField("spin", \.spin),
    SceneField("emitterPosition", \.emitterPosition),
    SceneField("emitterZPosition", \.emitterZPosition),
    SceneField("emitterSize", \.emitterSize, EmitterRules.nonNegativeSize),
    SceneField("emitterDepth", \.emitterDepth, Rules.nonNegative),
    SceneField("emitterShape", \.emitterShape),
    SceneField("emitterMode", \.emitterMode),
    SceneField("renderMode", \.renderMode),
    SceneField("preservesDepth", \.preservesDepth) { $0 ? "an emitterLayer with preservesDepth true is not supported" : nil },
    SceneField("seed", \.seed),
])

/// `CAEmitterCell`'s fields but `contents` (an image name).
let emitterCellFields = SceneFieldTable<EmitterCellProperties>([
    SceneField("name", optional: \.name),
    SceneField("isEnabled", \.isEnabled),
    SceneField("birthRate", \.birthRate, Rules.nonNegative),
    SceneField("lifetime", \.lifetime),
    SceneField("lifetimeRange", \.lifetimeRange),
    SceneField("emissionLongitude", \.emissionLongitude),
    SceneField("emissionLatitude", \.emissionLatitude),
    SceneField("emissionRange", \.emissionRange),
    SceneField("velocity", \.velocity),
    SceneField("velocityRange", \.velocityRange),
    SceneField("xAcceleration", \.xAcceleration),
    SceneField("yAcceleration", \.yAcceleration),
    SceneField("zAcceleration", \.zAcceleration),
    SceneField("scale", \.scale),
    SceneField("scaleRange", \.scaleRange),
    SceneField("scaleSpeed", \.scaleSpeed),
    SceneField("spin", \.spin),
    SceneField("spinRange", \.spinRange),
    SceneField("color", \.color),
    SceneField("redRange", \.redRange),
    SceneField("greenRange", \.greenRange),
    SceneField("blueRange", \.blueRange),
    SceneField("alphaRange", \.alphaRange),
    SceneField("redSpeed", \.redSpeed),
    SceneField("greenSpeed", \.greenSpeed),
    SceneField("blueSpeed", \.blueSpeed),
    SceneField("alphaSpeed", \.alphaSpeed),
    SceneField("contentsRect", \.contentsRect, EmitterRules.positiveSize),
    SceneField("contentsScale", \.contentsScale, Rules.positive),
    SceneField("magnificationFilter", \.magnificationFilter),
    SceneField("minificationFilter", \.minificationFilter),
])

private enum EmitterRules {
    static func nonNegativeSize(_ s: CGSize) -> String? {
        s.width >= 0 && s.height >= 0 ? nil : "w and h must be >= 0, not \(shortestDecimal(s.width)) x \(shortestDecimal(s.height))"
    }
    static func positiveSize(_ r: CGRect) -> String? {
        r.size.width > 0 && r.size.height > 0 ? nil
            : "w and h must be > 0, not \(shortestDecimal(r.size.width)) x \(shortestDecimal(r.size.height))"
    }
}

enum SceneEmitter {
    /// The keys of an emitterLayer's own fields.
    static var keys: [String] { emitterLayerFields.keys + ["emitterCells"] }

    /// A new emitter layer with its own fields and cells read from `object`; `image` finds the
    /// scene's images by name. Refuses cells that could have more than
    /// `CAEmitterLayer.maximumLiveParticles` particles alive at once.
    static func makeLayer(reading object: SceneObject, image: (String) -> CGImage?) throws -> CAEmitterLayer {
        let layer = CAEmitterLayer()
        var style = EmitterStyle()
        try emitterLayerFields.read(object, into: &style)
        if let node = object["emitterCells"] {
            style.cells = try node.elements(shape: "an array of emitter cells").map { try readCell($0, image: image) }
            let bound = style.liveParticleBound
            if bound > Double(CAEmitterLayer.maximumLiveParticles) {
                throw node.error("up to \(shortestDecimal(bound)) particles alive at once; at most \(CAEmitterLayer.maximumLiveParticles)")
            }
        }
        layer.style = style
        return layer
    }

    private static func readCell(_ node: SceneNode, image: (String) -> CGImage?) throws -> EmitterCellProperties {
        let object = try node.object(allowing: Set(emitterCellFields.keys + ["contents"]), what: "an emitter cell")
        var cell = EmitterCellProperties()
        try emitterCellFields.read(object, into: &cell)
        if let contentsNode = object["contents"] {
            let name: String = try contentsNode.read()
            guard let image = image(name) else { throw contentsNode.error("no image named \"\(name)\" in images") }
            cell.contents = image
        }
        return cell
    }

    /// The members for an emitter layer's own fields that differ from the defaults; contents
    /// are written by the names in `names`.
    static func members(of layer: CAEmitterLayer, at path: String,
                        names: [ObjectIdentifier: String]) throws -> [(key: String, value: JSONValue)] {
        var members = try emitterLayerFields.members(of: layer.style, at: path)
        let cells = layer.style.cells
        guard !cells.isEmpty else { return members }
        members.append(("emitterCells", .array(try cells.enumerated().map { i, cell in
            let cellPath = "\(path).emitterCells[\(i)]"
            var m = try emitterCellFields.members(of: cell, at: cellPath)
            if let image = cell.contents {
                guard let name = names[ObjectIdentifier(image)] else {
                    throw SceneError(path: "\(cellPath).contents",
                                     message: "the image from \(image.source) is not in the scene's decodedImages, so it has no name")
                }
                m.append(("contents", .string(name)))
            }
            return .object(m)
        })))
        return members
    }
}
