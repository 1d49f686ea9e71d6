// The libFuzzer target for LayerKit's untrusted-input readers: the scene reader (JSON parser,
// field rules, SVG path data, image table), the custom drawing a scene states (its layers'
// `drawing` operations run on a `CGContext` when the snapshot displays them; seeds in
// `Examples/drawing` and `Fuzz/corpus/drawing-extremes.json`, numbers near Double's limits),
// animations (the presentation tree is evaluated at the scene's time, at record's frame times
// and far out), `layerkit record`'s argument checks (`RecordingPlan`) and the PNG and JPEG
// decoders (JPEG seeds from `Fuzz/make-jpeg-seeds`). `Scripts/fuzz` compiles it together with
// the LayerKit sources using `swiftc -sanitize=fuzzer,address` and runs it on the seed corpus
// (`Fuzz/corpus` and the `Examples` scenes and images).
//
// An input starting with a 0 byte is not read as it is: the rest drives Generator.swift, which
// writes a scene file full of animations, drawing operations and hostile numbers (first byte
// after the 0 below 64), or `record` arguments (64 and up). Seeds: Fuzz/corpus/generated-*.
//
// A finding is a crash, a sanitizer report, a timeout, or a broken promise of the reader:
// whatever it accepts the writer must write, and what the writer writes must read back and
// write again to the same bytes (SceneWriter.swift promises that round trip); or of record's
// checks: an accepted plan has 1...maximumFrames frames within its byte budget.

import Foundation

/// Where relative image paths in fuzzed scenes start: the seed scenes say `../images/cat.png`.
private let imageBase = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/seeds").path

// `pngSignature` and `jpegSignature` come from the decoders' sources, compiled into this module.

private let printsGeneratedScenes = ProcessInfo.processInfo.environment["SCENE_FUZZER_PRINT"] != nil

/// libFuzzer calls this once per input; the return value must be 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Inputs that look like PNGs or JPEGs go to their decoder; everything else is a scene file.
    if bytes.starts(with: pngSignature) {
        _ = try? Bitmap(pngData: bytes)
        return 0
    }
    if bytes.starts(with: jpegSignature) {
        _ = try? Bitmap(jpegData: bytes)
        return 0
    }
    var text = bytes
    if bytes.first == 0 {
        var choices = Choices(Array(bytes.dropFirst()))
        if choices.byte() >= 64 {
            checkRecordArguments(&choices)
            return 0
        }
        text = Array(choices.scene().utf8)
        // `SCENE_FUZZER_PRINT=1 Scripts/fuzz --run FILE` shows the scene a finding generated.
        // Standard error, unbuffered: the scene is shown even when it then crashes.
        if printsGeneratedScenes { FileHandle.standardError.write(Data(text + Array("\n".utf8))) }
    }
    guard let scene = try? Scene(data: Data(text), baseDirectory: imageBase, fileName: "fuzz.json") else { return 0 }
    // Walk what was read the way a renderer would before drawing it: the snapshot displays the
    // layers marked for display, running their drawing operations; then the presentation tree
    // at the times render, record and probes evaluate it, and far out.
    _ = scene.root.snapshot()
    var times = [scene.time, 0.5, 1e9]
    if let plan = try? RecordingPlan(duration: nil, fps: nil, timeline: scene.timeline, pixelWidth: scene.canvas.pixelWidth,
                                     pixelHeight: scene.canvas.pixelHeight, maximumBytes: RecordingPlan.defaultMaximumBytes, scene: "fuzz.json") {
        check(plan, maximumBytes: RecordingPlan.defaultMaximumBytes)
        times.append(plan.time(ofFrame: plan.frameCount - 1))
    }
    for t in times { _ = scene.snapshot(atTime: t) }
    for probe in scene.probes { _ = scene.check(probe) }
    for sample in scene.samples { _ = scene.check(sample) }
    let written: Data
    do { written = try scene.jsonData() } catch { fatalError("a scene the reader accepted cannot be written: \(error)") }
    do {
        let reread = try Scene(data: written, baseDirectory: imageBase, fileName: "rewritten.json")
        guard try reread.jsonData() == written else { fatalError("writing the re-read scene gives different bytes") }
    } catch {
        fatalError("the writer's output does not read back: \(error)")
    }
    return 0
}

/// `layerkit record`'s checks on arguments from `choices`: --max-bytes as typed, then the plan.
private func checkRecordArguments(_ choices: inout Choices) {
    let arguments = choices.recordArguments()
    guard let maximumBytes = RecordingPlan.parseByteCount(arguments.maximumBytes) else { return }
    let timeline = choices.bool() ? Scene.Timeline(duration: choices.number(), fps: choices.number()) : nil
    do {
        let plan = try RecordingPlan(duration: arguments.duration, fps: arguments.fps, timeline: timeline, pixelWidth: arguments.width,
                                     pixelHeight: arguments.height, maximumBytes: maximumBytes, scene: "fuzz.json")
        check(plan, maximumBytes: maximumBytes)
    } catch {
        guard !error.description.isEmpty, !error.description.contains("\n") else { fatalError("a refusal that is not one line: \(error)") }
    }
}

/// What an accepted recording plan promises: a frame count in 1...maximumFrames, an output
/// within the budget, a frame delay and frame times that are numbers.
private func check(_ plan: RecordingPlan, maximumBytes: Double) {
    guard (1...RecordingPlan.maximumFrames).contains(plan.frameCount) else { fatalError("accepted \(plan.frameCount) frames") }
    guard plan.estimatedBytes.isFinite, plan.estimatedBytes <= maximumBytes else { fatalError("accepted \(plan.estimatedBytes) bytes over \(maximumBytes)") }
    let delay = plan.frameDelay
    guard delay.numerator > 0, delay.denominator > 0 else { fatalError("frame delay \(delay) at \(plan.fps) fps") }
    let last = plan.time(ofFrame: plan.frameCount - 1)
    guard last.isFinite, last >= 0 else { fatalError("the last frame is at \(last) s") }
}
