import LayerKit

/// How `assertSnapshot(of:as:)` turns a value (`Value`) into a snapshot (`Format`: a `Bitmap`
/// or a `String`), stores it as a reference file and compares a new one with it:
/// `.image`, `.image(fuzzy:scale:size:atTimes:backend:)` and `.recursiveDescription`, for a
/// `CALayer` and for a `Scene`.
public struct Snapshotting<Value, Format> {
    /// The reference files' extension, without the dot: `png` or `txt`.
    public var pathExtension: String
    /// The snapshots of a value: one, or one per time of `atTimes:`.
    let take: (Value) throws -> [Taken<Format>]
    let encode: (Format) throws -> [UInt8]
    let decode: ([UInt8]) throws -> Format
    /// What differs between a reference and a snapshot, or nil when it is within the budget.
    let compare: (_ reference: Format, _ actual: Format) -> Mismatch<Format>?
}

/// One snapshot of a value.
struct Taken<Format> {
    /// Added to the file name before the extension: "" or the time (".t0.25").
    var suffix: String
    /// What is compared with the reference.
    var actual: Format
    /// What a recording writes: `actual`, or the CPU reference when `actual` is GL's.
    var recorded: Format
}

/// A snapshot that differs from its reference beyond its budget.
struct Mismatch<Format> {
    /// What was observed, in words.
    var message: String
    /// An image of where they differ, for the artifacts.
    var difference: Bitmap?
}

/// Which renderer draws an image snapshot.
public enum SnapshotBackend: Sendable {
    /// The CPU reference renderer: the same pixels on every machine (see docs/snapshot-testing.md).
    case cpu
    /// OpenGL through a headless EGL context, held to a fuzzy budget of the CPU reference: the
    /// reference files are always the CPU's, so one reference serves both backends.
    case gl
}

extension Snapshotting where Value == CALayer, Format == Bitmap {
    /// The layer and its sublayers as the CPU reference draws them, at 1 pixel per point: the
    /// image is the layer's bounds (its own position and transform are not applied, as in
    /// `render(in:)`), its model values, compared exactly.
    public static var image: Snapshotting { image() }

    /// The layer's image with the given options, which combine:
    ///
    /// - `fuzzy`: the budget (default: exact for the CPU, `Fuzzy.gl(pixels:)` for GL).
    /// - `scale`: pixels per point (default 1).
    /// - `size`: the image's size in points, from the bounds' origin (default the bounds' size).
    /// - `atTimes`: seconds on a virtual clock that starts when the assertion commits the tree:
    ///   animations added with a `beginTime` of 0 begin at 0 (other begin times are times on
    ///   that clock), and each time gives the presentation tree then, in its own file
    ///   (`….t0.25.png`). Empty (the default): the model tree, one file. Committing is what
    ///   Core Animation's commit does: those animations keep their new begin time (media
    ///   time 0) after the assertion.
    /// - `backend`: `.cpu` (default) or `.gl`.
    public static func image(fuzzy: Fuzzy? = nil, scale: CGFloat? = nil, size: CGSize? = nil, atTimes: [Double] = [],
                             backend: SnapshotBackend = .cpu) -> Snapshotting {
        imageStrategy(fuzzy: fuzzy, backend: backend, times: atTimes) { layer, time in
            if time != nil { layer.commitAnimations(atMediaTime: 0) }
            let tree = time.map { layer.snapshot(atTime: $0) } ?? layer.snapshot()
            let canvas = size ?? layer.bounds.size
            return try ImageRequest(root: tree.placedAtBoundsOrigin(), width: canvas.width, height: canvas.height,
                                    scale: scale ?? 1, background: nil)
        }
    }
}

extension Snapshotting where Value == Scene, Format == Bitmap {
    /// The scene's canvas (size, scale and background) at the scene's `time`, as the CPU
    /// reference draws it, compared exactly: what `layerkit render` writes.
    public static var image: Snapshotting { image() }

    /// The scene's image with the given options, which combine: `fuzzy` (default exact, GL's
    /// default budget on GL), `scale` (default the canvas's), `size` in points (default the
    /// canvas's), `atTimes` (scene times, each its own file; empty: the scene's `time`) and
    /// `backend`.
    public static func image(fuzzy: Fuzzy? = nil, scale: CGFloat? = nil, size: CGSize? = nil, atTimes: [Double] = [],
                             backend: SnapshotBackend = .cpu) -> Snapshotting {
        imageStrategy(fuzzy: fuzzy, backend: backend, times: atTimes) { scene, time in
            let canvas = size ?? CGSize(width: scene.canvas.width, height: scene.canvas.height)
            return try ImageRequest(root: scene.snapshot(atTime: time ?? scene.time), width: canvas.width,
                                    height: canvas.height, scale: scale ?? scene.canvas.scale, background: scene.canvas.background)
        }
    }
}

extension Snapshotting where Format == Bitmap {
    /// An image strategy: `request` says what to draw for a value at a time (nil: no time
    /// asked for), drawn once per time with `backend` and compared under `fuzzy`.
    fileprivate static func imageStrategy(fuzzy: Fuzzy?, backend: SnapshotBackend, times: [Double],
                                          request: @escaping (Value, Double?) throws -> ImageRequest) -> Snapshotting {
        Snapshotting(
            pathExtension: "png",
            take: { value in
                try (times.isEmpty ? [nil] : times.map { $0 }).map { time in
                    let list = try request(value, time).displayList()
                    let cpu = try CPURenderer().render(list)
                    let actual = backend == .gl ? try renderGL(list) : cpu
                    return Taken(suffix: time.map { ".t\($0)" } ?? "", actual: actual, recorded: cpu)
                }
            },
            encode: { try $0.pngData() },
            decode: { try Bitmap(pngData: $0) },
            compare: { reference, actual in
                compareImages(reference, actual, budget: fuzzy ?? (backend == .gl ? .gl(pixels: actual.width * actual.height) : .exact))
            })
    }
}

extension Snapshotting where Value == CALayer, Format == String {
    /// The layer tree as text, one layer a line, indented by depth: each layer's class, name,
    /// geometry (frame, and bounds origin, anchor point, z position and transforms where they
    /// are not the defaults) and the properties that differ from Core Animation's defaults,
    /// with the animations added under a key. Numbers are written exactly, so the text is the same on every
    /// machine; it catches changes of geometry apart from pixels.
    public static var recursiveDescription: Snapshotting {
        Snapshotting(pathExtension: "txt", take: { layer in
            let text = layer.recursiveDescription()
            return [Taken(suffix: "", actual: text, recorded: text)]
        }, encode: { Array($0.utf8) }, decode: { String(decoding: $0, as: UTF8.self) }, compare: compareText)
    }
}

extension Snapshotting where Value == Scene, Format == String {
    /// The scene's canvas on one line, then its layer tree as `CALayer`'s `recursiveDescription` writes it.
    public static var recursiveDescription: Snapshotting {
        Snapshotting(pathExtension: "txt", take: { scene in
            let text = "canvas: \(scene.canvas.describedForSnapshot)\n" + scene.root.recursiveDescription()
            return [Taken(suffix: "", actual: text, recorded: text)]
        }, encode: { Array($0.utf8) }, decode: { String(decoding: $0, as: UTF8.self) }, compare: compareText)
    }
}

/// A text snapshot against its reference: the first line that differs, both ways.
func compareText(_ reference: String, _ actual: String) -> Mismatch<String>? {
    guard reference != actual else { return nil }
    let r = reference.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let line = zip(r, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(r.count, a.count)
    func at(_ lines: [Substring]) -> String { line < lines.count ? "\"\(lines[line])\"" : "(no line: the text ends)" }
    return Mismatch(message: "the text differs first at line \(line + 1) of \(a.count) (the reference has \(r.count)):\n"
                    + "  reference: \(at(r))\n  actual:    \(at(a))", difference: nil)
}

/// An image against its reference under `budget`: the observed figures when over it.
func compareImages(_ reference: Bitmap, _ actual: Bitmap, budget: Fuzzy) -> Mismatch<Bitmap>? {
    guard reference.width == actual.width, reference.height == actual.height else {
        return Mismatch(message: "the image is \(actual.width)x\(actual.height) pixels, the reference \(reference.width)x\(reference.height)",
                        difference: nil)
    }
    // memcmp: Array's == goes element by element, a tenth of an assertion's time at 400x400.
    let equal = reference.pixels.withUnsafeBytes { r in actual.pixels.withUnsafeBytes { a in memcmp(r.baseAddress!, a.baseAddress!, r.count) == 0 } }
    if equal, budget.allows(ImageDifference()) { return nil }
    var perPixel: [UInt8] = []
    let d = ImageDifference(reference, actual, limit: budget.maxChannelDifference.upperBound, perPixel: &perPixel)
    guard !budget.allows(d) else { return nil }
    let why: String
    if d.differingPixels == 0 {
        why = "the image equals its reference, but the budget \(budget) expects a difference (a fix?): let its ranges include 0, or tighten it"
    } else if d.maxChannelDifference < budget.maxChannelDifference.lowerBound || d.differingPixels < budget.pixelCount.lowerBound {
        why = "\(d.summary); the budget \(budget) expects more (the rendering improved?): tighten it"
    } else {
        why = "\(d.summary); the budget is \(budget)"
    }
    return Mismatch(message: why, difference: differenceImage(reference, perPixel, limit: budget.maxChannelDifference.upperBound))
}

/// Where two images differ: the reference as dim grey for context, differing pixels within the
/// largest allowed channel difference in yellow, those over it in red.
func differenceImage(_ reference: Bitmap, _ perPixel: [UInt8], limit: Int) -> Bitmap {
    var out = Bitmap(width: reference.width, height: reference.height)
    for i in 0..<perPixel.count {
        let color: (UInt8, UInt8, UInt8)
        if Int(perPixel[i]) > limit {
            color = (255, 0, 0)
        } else if perPixel[i] > 0 {
            color = (255, 255, 0)
        } else {
            let p = reference.pixels[(i * 4)..<(i * 4 + 3)].reduce(0) { $0 + Int($1) } / 3
            let g = UInt8(32 + p / 4)
            color = (g, g, g)
        }
        (out.pixels[i * 4], out.pixels[i * 4 + 1], out.pixels[i * 4 + 2], out.pixels[i * 4 + 3]) = (color.0, color.1, color.2, 255)
    }
    return out
}
