// A scene file (`scene-format.md`, format 1) in memory: the canvas, the named images, one
// layer tree and its hit-test probes. `SceneReader.swift` reads one strictly, reporting the
// JSON path of the first thing it does not understand; `SceneWriter.swift` writes one back.

import Foundation

/// One layer tree and the canvas it is drawn on, as a scene file describes it.
///
/// The canvas behaves like a window: an implicit layer with bounds `[0, 0, width, height]`
/// and no transform, whose only sublayer is `root`. So `root.position` and hit-test points
/// are in canvas coordinates.
public struct Scene {
    /// The most layers (masks included) a scene may hold.
    public static let maximumLayerCount = 1_000_000
    /// The deepest a layer may sit: the root is at depth 1, a sublayer or mask one deeper.
    public static let maximumDepth = 1000
    /// The largest canvas side in pixels (`width * scale`, rounded).
    public static let maximumCanvasPixels = CanvasSizeError.maximumSide
    /// The most pixels the bitmaps of a scene's `drawing`s may hold together, 8,192² (256 MiB
    /// of RGBA): a drawing's bitmap is `bounds` x `contentsScale` pixels, each a side at most
    /// `maximumCanvasPixels`. Checked when the file is read, before anything is drawn: a
    /// drawing costs about 20 bytes a pixel while it is drawn and composited (its context, its
    /// image, the renderer's copy), so this keeps a scene's drawings within a few gigabytes of
    /// address space, where four 8,192-point drawings or one of 16,384 failed to allocate.
    public static let maximumDrawingPixels = 1 << 26
    /// The scene format version this reader and writer implement.
    public static let version = 1

    /// A hit-test expectation: `hitTest(point)` must return the layer named `hit`; with a
    /// `time`, the presentation tree at that scene time is hit-tested
    /// (`presentation().hitTest`), so a probe can follow a moving layer.
    public struct Probe: Equatable, Sendable {
        /// The point, in canvas coordinates.
        public var point: CGPoint
        /// The `name` of the layer that must be hit, or `nil` when no layer may be hit.
        public var hit: String?
        /// The scene time to hit-test the presentation tree at; `nil` tests the model tree.
        public var time: Double?

        /// A probe expecting `hit` at `point` (at scene time `time`, when given).
        public init(point: CGPoint, hit: String?, time: Double? = nil) {
            self.point = point
            self.hit = hit
            self.time = time
        }
    }

    /// What one probe found.
    public struct ProbeResult: CustomStringConvertible {
        /// The expectation.
        public let probe: Probe
        /// The layer `hitTest` returned, if any.
        public let layer: CALayer?
        /// The hit layer's name, its path (`root.sublayers[3]`) when unnamed, or "none".
        public let got: String
        /// Whether the hit layer is the one expected (by name; `nil` expects no layer).
        public var passed: Bool { probe.hit == nil ? layer == nil : layer?.name == probe.hit }

        /// One line: `probe (x, y): expected E, got G: ok` (or `FAIL`); `probe (x, y) at T s: …`
        /// for a timed probe.
        public var description: String {
            let p = probe.point
            return "probe (\(shortestDecimal(p.x)), \(shortestDecimal(p.y)))\(probe.time.map { " at \(shortestDecimal($0)) s" } ?? ""): expected \(probe.hit ?? "none"), got \(got): \(passed ? "ok" : "FAIL")"
        }
    }

    /// The canvas.
    public var canvas: Canvas
    /// Image names as layers' `contents` refer to them, to the file paths as written (relative
    /// to the scene file's directory unless absolute).
    public var images: [String: String]
    /// The decoded image of each name in `images`. Layers showing the same name share one
    /// `CGImage`; the writer names a layer's contents by looking its identity up here.
    public var decodedImages: [String: CGImage]
    /// The root layer, the canvas's only sublayer.
    public var root: CALayer
    /// Hit-test expectations, in file order.
    public var probes: [Probe]
    /// Presentation values expected at scene times, in file order (`layerkit probes` checks them).
    public var samples: [Sample] = []
    /// What messages call the scene: the file path it was read from, or a name.
    public var fileName: String
    /// The directory `images` paths are relative to.
    public var baseDirectory: String
    /// Accepted but doubtful parts of the file (such as a transformLayer's background, which it
    /// ignores), one line each in the errors' style: `FILE: root.sublayers[0].backgroundColor: …`.
    public var warnings: [String]

    /// What `record` plays by default: from scene time 0 for `duration` seconds at `fps`.
    public struct Timeline: Equatable, Sendable {
        /// Seconds.
        public var duration: Double
        /// Frames per second.
        public var fps: Double
        /// A timeline of `duration` seconds at `fps`.
        public init(duration: Double, fps: Double) {
            self.duration = duration
            self.fps = fps
        }
    }

    /// The scene time in seconds at which `render` draws by default (the canvas's time, which
    /// is the root's parent time; the scene's animations are added at scene time 0).
    public var time: Double = 0
    /// The default timeline for recording, if the scene gives one.
    public var timeline: Timeline?

    /// The presentation tree at scene time `t` (the canvas's time space), as a snapshot.
    public func snapshot(atTime t: Double) -> LayerSnapshot { root.snapshot(atTime: t) }

    /// A scene made in code.
    public init(canvas: Canvas, root: CALayer, images: [String: String] = [:], decodedImages: [String: CGImage] = [:],
                probes: [Probe] = [], fileName: String = "untitled scene", baseDirectory: String = ".") {
        self.canvas = canvas
        self.root = root
        self.images = images
        self.decodedImages = decodedImages
        self.probes = probes
        self.fileName = fileName
        self.baseDirectory = baseDirectory
        self.warnings = []
    }

    /// The deepest layer at `point` (canvas coordinates), as Core Animation's `hitTest` on the
    /// root with the canvas as the root's superlayer space; `nil` when none.
    public func hitTest(_ point: CGPoint) -> CALayer? { root.hitTest(point) }

    /// Where `layer` sits in the tree, in the scene file's JSON path style
    /// (`root.sublayers[3].mask`); `nil` when it is not in this scene.
    public func path(of layer: CALayer) -> String? { Self.path(of: layer, under: root) }

    private static func path(of layer: CALayer, under root: CALayer) -> String? {
        var components: [String] = []
        var l = layer
        while l !== root {
            guard let parent = l.superlayer else { return nil }
            if l.isMask {
                components.append(".mask")
            } else {
                components.append(".sublayers[\(parent.sublayerListStorage.firstIndex { $0 === l }!)]")
            }
            l = parent
        }
        return "root" + components.reversed().joined()
    }

    /// How messages name a hit: the layer's name, its path when unnamed, "none" for no layer.
    public func describe(_ layer: CALayer?) -> String {
        guard let layer else { return "none" }
        return layer.name ?? path(of: layer) ?? layer.debugName
    }

    /// Runs one probe against the tree, or against the presentation tree at the probe's time.
    /// A timed probe's hit is a presentation layer; `got` names it by name, else by its path.
    public func check(_ probe: Probe) -> ProbeResult {
        guard let time = probe.time else {
            let layer = hitTest(probe.point)
            return ProbeResult(probe: probe, layer: layer, got: describe(layer))
        }
        let presentation = root.presentation(atTime: time)
        let layer = presentation.hitTest(probe.point)
        return ProbeResult(probe: probe, layer: layer,
                           got: layer.map { $0.name ?? Self.path(of: $0, under: presentation) ?? $0.debugName } ?? "none")
    }

    /// The number of layers in the tree, masks included.
    public var layerCount: Int { Self.measure(root).count }

    /// The depth of the tree: 1 for a lone root; a sublayer or mask is one deeper.
    public var depth: Int { Self.measure(root).depth }

    private static func measure(_ layer: CALayer) -> (count: Int, depth: Int) {
        guard TreeRecursion.hasRoom else { return TreeRecursion.onFreshStack { measure(layer) } }
        var count = 1, depth = 0
        for child in layer.sublayerListStorage + (layer.maskStorage.map { [$0] } ?? []) {
            let m = measure(child)
            count += m.count
            depth = max(depth, m.depth)
        }
        return (count, depth + 1)
    }
}

/// Why a scene could not be read or written: the file, the JSON path of the offending value
/// (`root.sublayers[2].transform[1]`, `canvas.width`; empty for the file as a whole) and
/// the rule it breaks.
public struct SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The scene's file name as given.
    public var file: String
    /// The JSON path of the offending value; empty when the problem is the whole file.
    public var path: String
    /// The rule broken, e.g. "must be between 0 and 1, not 1.5".
    public var message: String

    /// A problem at `path`; the reader and writer fill in `file`.
    public init(file: String = "", path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// One line: `FILE: PATH: MESSAGE` (or `FILE: MESSAGE`).
    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }
}
