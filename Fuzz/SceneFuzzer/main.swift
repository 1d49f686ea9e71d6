// The libFuzzer target for LayerKit's untrusted-input readers: the scene reader (JSON parser,
// field rules, SVG path data, image table), the custom drawing a scene states (its layers'
// `drawing` operations run on a `CGContext` when the snapshot displays them; seeds in
// `Examples/drawing` and `Fuzz/corpus/drawing-extremes.json`, numbers near Double's limits) and
// the PNG and JPEG decoders (JPEG seeds from `Fuzz/make-jpeg-seeds`). `Scripts/fuzz` compiles it
// together with the LayerKit sources using `swiftc -sanitize=fuzzer,address` and runs it on the
// seed corpus (`Fuzz/corpus` and the `Examples` scenes and images).
//
// A finding is a crash, a sanitizer report, a timeout, or a broken promise of the reader:
// whatever it accepts the writer must write, and what the writer writes must read back and
// write again to the same bytes (SceneWriter.swift promises that round trip).

import Foundation

/// Where relative image paths in fuzzed scenes start: the seed scenes say `../images/cat.png`.
private let imageBase = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/seeds").path

// `pngSignature` and `jpegSignature` come from the decoders' sources, compiled into this module.

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
    guard let scene = try? Scene(data: Data(bytes), baseDirectory: imageBase, fileName: "fuzz.json") else { return 0 }
    // Walk what was read the way a renderer would before drawing it: the snapshot displays the
    // layers marked for display, running their drawing operations.
    _ = scene.root.snapshot()
    for probe in scene.probes { _ = scene.check(probe) }
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
