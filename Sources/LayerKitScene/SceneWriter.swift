// Writing scene files. Only fields that differ from Core Animation's defaults are written;
// transforms as exact matrices, colours as exact [r, g, b, a], paths as SVG path data, and
// every number in the shortest form that reads back to the same bits. So reading what was
// written gives an equal tree, and writing that again gives the same bytes.

import Foundation

extension Scene {
    /// The scene as a scene file: UTF-8 JSON, keys sorted, two-space indent.
    ///
    /// Layer contents are written by the name under which `decodedImages` holds that very
    /// `CGImage`; `images` is written as it is.
    ///
    /// - Throws: `SceneError` naming the JSON path of a value that has no spelling or that
    ///   the reader would refuse: a NaN, an opacity of 2, contents not in `decodedImages`.
    public func jsonData() throws -> Data {
        do {
            return Data(try sceneJSON().serialized())
        } catch var e as SceneError {
            e.file = fileName
            throw e
        }
    }

    private func sceneJSON() throws -> JSONValue {
        // An image listed under two names is written as the first name in sorted order.
        let names = Dictionary(decodedImages.map { (ObjectIdentifier($0.value), $0.key) }, uniquingKeysWith: min)
        var canvasMembers: [(key: String, value: JSONValue)] = [
            ("width", try atPath("canvas.width") { try canvas.width.sceneJSON() }),
            ("height", try atPath("canvas.height") { try canvas.height.sceneJSON() }),
        ]
        if canvas.scale != 1 { canvasMembers.append(("scale", try atPath("canvas.scale") { try canvas.scale.sceneJSON() })) }
        if let background = canvas.background { canvasMembers.append(("background", try background.sceneJSON())) }
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string("layerkit-scene")),
            ("version", .number(Double(Scene.version))),
            ("canvas", .object(canvasMembers)),
            ("root", try layerJSON(root, at: "root", names: names)),
        ]
        if time != 0 { members.append(("time", try atPath("time") { try time.sceneJSON() })) }
        if let timeline {
            members.append(("timeline", .object([("duration", try atPath("timeline.duration") { try timeline.duration.sceneJSON() }),
                                                  ("fps", try atPath("timeline.fps") { try timeline.fps.sceneJSON() })])))
        }
        if !images.isEmpty { members.append(("images", .object(images.map { ($0.key, .string($0.value)) }))) }
        if !probes.isEmpty {
            members.append(("probes", .array(try probes.enumerated().map { i, probe in
                .object([("point", try atPath("probes[\(i)].point") { try probe.point.sceneJSON() }),
                         ("hit", probe.hit.map { .string($0) } ?? .null)]
                        + (try probe.time.map { t in [("time", try atPath("probes[\(i)].time") { try jsonNumber(t) })] } ?? []))
            })))
        }
        if !samples.isEmpty {
            members.append(("samples", .array(try samples.enumerated().map { try SceneSamples.json($1, at: "samples[\($0)]") })))
        }
        return .object(members)
    }

    private func layerJSON(_ layer: CALayer, at path: String, names: [ObjectIdentifier: String]) throws -> JSONValue {
        guard TreeRecursion.hasRoom else { return try TreeRecursion.onFreshStack { try layerJSON(layer, at: path, names: names) } }
        let type = SceneLayerType(of: layer)
        var members = try commonLayerFields.members(of: layer.properties, at: path)
            + SceneLayerType.ownMembers(of: layer, at: path, names: names)
        if type != .layer { members.append(("type", type.sceneJSON())) }
        members += try SceneLayerTiming.members(of: layer, at: path, names: names)
        if let drawing = layer.sceneDrawing {
            // Its contents are what the drawing made, written as the drawing.
            members.append(("drawing", .array(try drawing.enumerated().map { i, call in
                try atPath("\(path).drawing[\(i)]") { try call.sceneJSON() }
            })))
        } else if let image = layer.contents {
            guard let name = names[ObjectIdentifier(image)] else {
                throw SceneError(path: "\(path).contents",
                                 message: "the image from \(image.source) is not in the scene's decodedImages, so it has no name")
            }
            members.append(("contents", .string(name)))
        }
        if let mask = layer.mask {
            members.append(("mask", try layerJSON(mask, at: "\(path).mask", names: names)))
        }
        let sublayers = layer.sublayerListStorage
        if !sublayers.isEmpty {
            members.append(("sublayers", .array(try sublayers.enumerated().map { i, sublayer in
                try layerJSON(sublayer, at: "\(path).sublayers[\(i)]", names: names)
            })))
        }
        return .object(members)
    }
}
