// Reading scene files. The reader is strict: anything it does not understand (an unknown
// field, a wrong type, a value out of range, a newer version) is an error naming the JSON
// path, never a guess. Images are decoded once per name and shared by the layers that show
// them, so renderers cache one texture each.

import Foundation

extension Scene {
    /// Reads the scene file at `path`; image paths are relative to its directory. A scene whose
    /// estimated memory for `use` is over what the process may use is refused before it is
    /// parsed or built (`Scene.estimatedMemory`).
    ///
    /// - Throws: `SceneError`, whose description is one line: `FILE: JSON.PATH: rule broken`
    ///   (`FILE: no such file`, `FILE: cannot read: not a regular file` for a directory, a
    ///   device or a pipe, as for images).
    public init(contentsOfFile path: String, memoryUse use: MemoryUse = .reading) throws {
        let bytes: [UInt8]
        do {
            bytes = try readRegularFile(path)
        } catch let error as ImageError {
            throw SceneError(file: path, path: "", message: error.problem)
        }
        try self.init(bytes: bytes, baseDirectory: (path as NSString).deletingLastPathComponent, fileName: path, memoryUse: use)
    }

    /// Reads a scene from the bytes of a file; `baseDirectory` is where relative image paths
    /// start ("" for the current directory) and `fileName` is what messages call the file.
    ///
    /// - Throws: `SceneError` naming `fileName` and the JSON path.
    public init(data: Data, baseDirectory: String, fileName: String, memoryUse use: MemoryUse = .reading) throws {
        try self.init(bytes: [UInt8](data), baseDirectory: baseDirectory, fileName: fileName, memoryUse: use)
    }

    // The file's bytes are handed on, not copied: two copies of a large file cost more than its layers.
    private init(bytes: [UInt8], baseDirectory: String, fileName: String, memoryUse use: MemoryUse) throws {
        var reader = SceneReader(baseDirectory: baseDirectory, use: use)
        // A scene states its animations itself: building its tree must not run actions (the
        // layers are new, so none would animate, but a delegate or class action could run).
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        do {
            self = try reader.read(bytes)
        } catch var e as SceneError {
            e.file = fileName
            throw e
        }
        self.fileName = fileName
        self.baseDirectory = baseDirectory
        warnings = reader.warnings.map { w in
            var w = w
            w.file = fileName
            return w.description
        }
    }
}

/// The state of one reading: the decoded images and the warnings.
private struct SceneReader {
    let baseDirectory: String
    var decodedImages: [String: CGImage] = [:]
    var warnings: [SceneError] = []
    /// The pixels of the drawings' bitmaps read so far (`Scene.maximumDrawingPixels`).
    var drawingPixels = 0

    /// What the command does with the scene, for the memory budget.
    let use: Scene.MemoryUse

    init(baseDirectory: String, use: Scene.MemoryUse) {
        self.baseDirectory = baseDirectory
        self.use = use
    }

    mutating func read(_ bytes: [UInt8]) throws -> Scene {
        try Scene.checkMemory(Scene.estimatedMemory(fileBytes: bytes.count, layers: 0, imagePixels: 0, canvasPixels: 0, use: use),
                              for: "\(bytes.count) bytes of JSON")
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch let e as JSONSyntaxError {
            throw SceneError(path: "", message: "not valid JSON: line \(e.line), column \(e.column): \(e.message)")
        }
        let top = try SceneNode(value: json, path: "").object(allowing: nil, what: "a scene")

        // Format and version come first: a newer version may have fields this reader lacks.
        let format: String = try top.required("format", in: "")
        guard format == "layerkit-scene" else {
            throw top["format"]!.error("expected \"layerkit-scene\", found \"\(format)\"")
        }
        let version: Double = try top.required("version", in: "")
        guard version == version.rounded(), version >= 1 else {
            throw top["version"]!.error("expected a whole number >= 1, found \(shortestDecimal(version))")
        }
        guard version <= Double(Scene.version) else {
            throw top["version"]!.error("version \(shortestDecimal(version)) is newer than this reader (\(Scene.version))")
        }
        try top.rejectUnknownKeys(allowed: ["format", "version", "canvas", "images", "root", "probes", "time", "timeline", "samples"], what: "a scene")

        let canvas = try readCanvas(top)
        var images: [String: String] = [:]
        if let node = top["images"] {
            let object = try node.object(allowing: nil, what: "the images (name to file path)")
            for (name, image) in zip(object.keys, object.members) {
                let path: String = try image.read()
                images[name] = path
                decodedImages[name] = try decode(path, at: image)
            }
        }
        let rootNode = try top.required("root", in: "")
        let layers = try checkTreeLimits(rootNode)
        let imagePixels = decodedImages.values.reduce(0) { $0 + $1.width * $1.height }
        try Scene.checkMemory(Scene.estimatedMemory(fileBytes: bytes.count, layers: layers, imagePixels: imagePixels,
                                                    canvasPixels: canvas.pixelWidth * canvas.pixelHeight, use: use),
                              for: counted(layers, "layer"))
        let root = try readLayer(rootNode)
        let probes = try top["probes"].map { try $0.elements(shape: "an array of probes").map(readProbe) } ?? []
        var scene = Scene(canvas: canvas, root: root, images: images, decodedImages: decodedImages, probes: probes)
        scene.time = try top.read("time") ?? 0
        if let node = top["timeline"] {
            let object = try node.object(allowing: ["duration", "fps"], what: "the timeline")
            scene.timeline = Scene.Timeline(duration: try object.required("duration", in: node.path, Rules.nonNegative),
                                            fps: try object.required("fps", in: node.path, Rules.positive))
        }
        if let node = top["samples"] {
            scene.samples = try node.elements(shape: "an array of samples").map { try SceneSamples.read($0, in: scene) }
        }
        return scene
    }

    func readCanvas(_ top: SceneObject) throws -> Canvas {
        let object = try top.required("canvas", in: "").object(allowing: ["width", "height", "scale", "background"], what: "the canvas")
        let canvas = Canvas(width: try object.required("width", in: "canvas", Rules.positive),
                                  height: try object.required("height", in: "canvas", Rules.positive),
                                  scale: try object.read("scale", Rules.positive) ?? 1,
                                  background: try object.read("background") ?? nil)
        for (key, side) in [("width", canvas.width), ("height", canvas.height)] {
            let pixels = (side * canvas.scale).rounded()
            let size = "\(shortestDecimal(side)) pt at scale \(shortestDecimal(canvas.scale))"
            guard pixels <= CGFloat(Scene.maximumCanvasPixels) else {
                throw object[key]!.error("\(size) is \(shortestDecimal(pixels)) px; at most \(Scene.maximumCanvasPixels) px a side")
            }
            guard pixels >= 1 else { throw object[key]!.error("\(size) rounds to 0 px") }
        }
        return canvas
    }

    /// Decodes the PNG or JPEG at `path` (relative to the scene's directory unless absolute).
    func decode(_ path: String, at node: SceneNode) throws -> CGImage {
        let resolved = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
        do {
            return try CGImage(contentsOfFile: resolved)
        } catch {
            throw node.error("\(error)")
        }
    }

    /// Refuses a tree over `Scene.maximumLayerCount` layers or `Scene.maximumDepth` levels from
    /// the JSON alone, before a single layer is made: building a million layers to throw them
    /// away would take seconds. Layers are visited in the order `readLayer` reads them (each
    /// layer, then its mask, then its sublayers), so the path named is the first layer over a
    /// limit; what is not a layer or an array here is left for `readLayer` to report. Returns
    /// the number of layers, for the memory budget.
    func checkTreeLimits(_ root: SceneNode) throws -> Int {
        var count = 0
        // The path is built only for the error: one string per layer would cost more than the walk.
        var steps: [Int] = []  // -1 for `.mask`, else a sublayer index
        // Each layer counts once per copy of every replicator above it (`copies`), so a million
        // copies are refused here rather than drawn.
        func visit(_ value: JSONValue, copies: Int) throws {
            guard TreeRecursion.hasRoom else { return try TreeRecursion.onFreshStack { try visit(value, copies: copies) } }
            count += copies
            if steps.count >= Scene.maximumDepth || count > Scene.maximumLayerCount {
                let path = root.path + steps.map { $0 < 0 ? ".mask" : ".sublayers[\($0)]" }.joined()
                throw SceneError(path: path, message: steps.count >= Scene.maximumDepth
                                 ? "layers nest more than \(Scene.maximumDepth) deep"
                                 : "more than \(Scene.maximumLayerCount) layers in the scene" + (copies > 1 ? ", counting replicated copies" : ""))
            }
            guard case .object(let members) = value else { return }
            if let mask = members.first(where: { $0.key == "mask" }) {
                steps.append(-1)
                try visit(mask.value, copies: copies)
                steps.removeLast()
            }
            if let sublayers = members.first(where: { $0.key == "sublayers" }), case .array(let elements) = sublayers.value {
                let each = copies * Self.instanceCount(members)
                for (i, element) in elements.enumerated() {
                    steps.append(i)
                    try visit(element, copies: each)
                    steps.removeLast()
                }
            }
        }
        try visit(root.value, copies: 1)
        return count
    }

    /// How many copies of its sublayers a layer's JSON members ask for: a replicatorLayer's
    /// `instanceCount` (held within 0…`Scene.maximumLayerCount` + 1, enough to pass the limit);
    /// 1 for any other layer, and for a count that is not a number, which `readLayer` reports.
    private static func instanceCount(_ members: [(key: String, value: JSONValue)]) -> Int {
        guard members.contains(where: { member in
            if case .string(SceneLayerType.replicatorLayer.rawValue) = member.value { member.key == "type" } else { false }
        }) else { return 1 }
        guard let n = members.first(where: { $0.key == "instanceCount" }) else { return 1 }
        guard case .number(let v) = n.value, v.isFinite else { return 1 }
        return Int(min(max(v, 0), Double(Scene.maximumLayerCount + 1)))
    }

    /// Reads a layer and, depth first, its mask and sublayers. Only this function recurses, and
    /// it keeps little on the stack: the layer's own fields are read in `readOwnFields`, whose
    /// large frame is gone before the descent. (Reading them here took over 8 KB a level in a
    /// debug build under the address sanitizer, and a tree 1000 deep overflowed the 8 MB stack.)
    mutating func readLayer(_ node: SceneNode) throws -> CALayer {
        guard TreeRecursion.hasRoom else { return try TreeRecursion.onFreshStack { try readLayer(node) } }
        let object = try node.object(allowing: nil, what: "a layer")
        let layer = try readOwnFields(object)
        if let maskNode = object["mask"] {
            layer.mask = try readLayer(maskNode)
        }
        if let sublayersNode = object["sublayers"] {
            layer.sublayers = try sublayersNode.elements(shape: "an array of layers").map { try readLayer($0) }
        }
        return layer
    }

    /// A layer of the object's `type` with every field but `mask` and `sublayers` read.
    @inline(never)
    mutating func readOwnFields(_ object: SceneObject) throws -> CALayer {
        let type: SceneLayerType = try object.read("type") ?? .layer
        try object.rejectUnknownKeys(allowed: type.allowedFields, what: "a \(type.rawValue)")

        var properties = LayerProperties()
        properties.masksToBounds = type == .scrollLayer  // CAScrollLayer()'s default
        try commonLayerFields.read(object, into: &properties)
        if let frameNode = object["frame"] {
            if let clash = ["bounds", "position"].first(where: { object[$0] != nil }) {
                throw frameNode.error("not allowed together with \(clash) (frame sets both bounds and position)")
            }
            // frame's setter with an identity transform, about the layer's own anchor point.
            let frame: CGRect = try frameNode.read(Rules.nonNegativeSize)
            properties.bounds = CGRect(origin: .zero, size: frame.size)
            properties.position = CGPoint(x: frame.origin.x + properties.anchorPoint.x * frame.size.width,
                                          y: frame.origin.y + properties.anchorPoint.y * frame.size.height)
        }
        if let contentsNode = object["contents"] {
            let name: String = try contentsNode.read()
            guard let image = decodedImages[name] else { throw contentsNode.error("no image named \"\(name)\" in images") }
            properties.contents = image
        }
        let layer = try type.makeLayer(reading: object) { decodedImages[$0] }
        let drawsNothing = type == .transformLayer ? "a transformLayer draws nothing of its own"
            : (layer as? CAReplicatorLayer)?.preservesDepth == true ? "a replicatorLayer with preservesDepth draws nothing of its own"
            : nil
        if let drawsNothing {
            for (key, member) in zip(object.keys, object.members) where fieldsIgnoredByTransformLayers.contains(key) {
                warnings.append(member.error("ignored: \(drawsNothing)"))
            }
        }
        layer.properties = properties
        if let scroll = layer as? CAScrollLayer { try readScrolls(object, into: scroll) }
        // Drawn at the first frame's commit, as a layer marked by setNeedsDisplay().
        if layer.sceneDrawing != nil {
            // A tiled layer's finest level, level 0, magnifies by 2^levelsOfDetailBias.
            try countDrawingPixels(of: properties, levelsOfDetailBias: (layer as? CATiledLayer)?.levelsOfDetailBias, at: object["drawing"]!)
            layer.setNeedsDisplay()
        }
        try SceneLayerTiming.read(object, into: layer, images: decodedImages)
        return layer
    }

    /// Scrolls a scroll layer as its `scrollToPoint` or `scrollToRect` says, once every other
    /// field is set.
    func readScrolls(_ object: SceneObject, into layer: CAScrollLayer) throws {
        if let pointNode = object["scrollToPoint"] {
            if object["scrollToRect"] != nil { throw object["scrollToRect"]!.error("not allowed together with scrollToPoint") }
            layer.scroll(to: try pointNode.read() as CGPoint)
        } else if let rectNode = object["scrollToRect"] {
            layer.scroll(to: try rectNode.read(Rules.nonNegativeSize) as CGRect)
        }
    }

    /// Adds the pixels of the bitmap a drawing with these properties is drawn into (as
    /// `CALayer.display()` makes it: bounds x contentsScale, rounded up; for a tiled layer,
    /// its finest level's, that times 2^`levelsOfDetailBias`) to `drawingPixels`,
    /// refusing a side over `Scene.maximumCanvasPixels` and a total over
    /// `Scene.maximumDrawingPixels`.
    mutating func countDrawingPixels(of p: LayerProperties, levelsOfDetailBias bias: Int? = nil, at node: SceneNode) throws {
        let scale = Double(p.contentsScale) * exp2(Double(bias ?? 0))
        let w = (Double(p.bounds.width) * scale).rounded(.up), h = (Double(p.bounds.height) * scale).rounded(.up)
        let size = "\(shortestDecimal(w)) x \(shortestDecimal(h)) pixels (bounds x contentsScale\(bias == nil ? "" : " x 2^levelsOfDetailBias"))"
        guard w <= Double(Scene.maximumCanvasPixels), h <= Double(Scene.maximumCanvasPixels) else {
            throw node.error("the drawing's bitmap would be \(size), over the limit of \(Scene.maximumCanvasPixels) pixels a side")
        }
        drawingPixels += Int(w) * Int(h)
        guard drawingPixels <= Scene.maximumDrawingPixels else {
            throw node.error("the drawing's bitmap of \(size) brings the scene's drawings to \(drawingPixels) pixels, over the "
                + "budget of \(Scene.maximumDrawingPixels) (256 MiB) for all of them")
        }
    }

    func readProbe(_ node: SceneNode) throws -> Scene.Probe {
        let object = try node.object(allowing: ["point", "hit", "time"], what: "a probe")
        let point: CGPoint = try object.required("point", in: node.path)
        let time: Double? = try object.read("time")
        let hitNode = try object.required("hit", in: node.path)
        switch hitNode.value {
        case .null: return Scene.Probe(point: point, hit: nil, time: time)
        case .string(let name): return Scene.Probe(point: point, hit: name, time: time)
        default: throw hitNode.mismatch("a layer name or null")
        }
    }
}
