// What `layerkit record` will draw and write, worked out from its arguments and the scene
// before a frame is drawn or a byte written. Every argument, however hostile, either gives a
// plan whose frame count and output size are bounded, or a one-line reason; the fuzzer
// (Fuzz/SceneFuzzer) calls it with numbers near Double's limits.

import Foundation

/// Why `layerkit record`'s arguments cannot be recorded, as one line.
package struct RecordingError: Error, CustomStringConvertible, Equatable {
    package let description: String
}

/// The frames of a recording: N = ⌈duration · fps⌉ frames at times 0, 1/fps, …, (N − 1)/fps,
/// and an upper bound on the bytes written for them.
package struct RecordingPlan: Equatable {
    /// The most frames one recording may have.
    package static let maximumFrames = 100_000
    /// The frame rates an animated PNG's frame delay can hold.
    package static let fpsRange = 0.02...1000.0
    /// The default output budget, `--max-bytes`: 16 GiB uncompressed, which lets a 1080p, 60 fps,
    /// 10 s recording (about 10 GB uncompressed, far less as PNG) through.
    package static let defaultMaximumBytes = 16.0 * 1_073_741_824

    /// Seconds recorded.
    package let duration: Double
    /// Frames per second.
    package let fps: Double
    /// N, at least 1 and at most `maximumFrames`.
    package let frameCount: Int
    /// The frames this run draws: all N, or the slice `--frames` names (numbered as in the
    /// whole recording).
    package let frames: Range<Int>
    /// The most bytes the recording writes: every frame as a PNG file and again in the animated
    /// PNG, 4 bytes a pixel, uncompressed (PNG's compression only makes it smaller); a slice
    /// writes its frames only.
    package let estimatedBytes: Double

    /// Whether this run draws a slice, not the whole recording.
    package var isSlice: Bool { frames != 0..<frameCount }

    /// The frames `--frames A..B` names: A through B, both included, numbered from 0.
    package static func parseSlice(_ text: String) throws(RecordingError) -> ClosedRange<Int> {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw RecordingError(description: "--frames: expected A..B, frame numbers from 0 with A ≤ B (both included), found \"\(text)\"")
        }
        return a...b
    }

    /// Refuses a `--duration` or `--fps` that no scene could make right (checked before the
    /// scene is read): a duration that is negative or not finite, a rate outside `fpsRange`.
    package static func checkArguments(duration: Double?, fps: Double?) throws(RecordingError) {
        if let duration, !(duration >= 0 && duration.isFinite) {
            throw RecordingError(description: "--duration: expected a finite number of seconds ≥ 0, found \(duration)")
        }
        if let fps, !fpsRange.contains(fps) {
            throw RecordingError(description: "--fps: expected \(shortestDecimal(fpsRange.lowerBound))...\(shortestDecimal(fpsRange.upperBound)) frames per second, found \(fps)")
        }
    }

    /// The plan for `duration` seconds at `fps` (each defaulting to the scene's `timeline`; the
    /// rate then to 60) of frames `pixelWidth` × `pixelHeight`, within `maximumBytes`; `scene`
    /// names the scene file in messages. `slice` (`--frames`) draws only those frames; a slice
    /// reaching past the last frame is cut there (so that a job runner can cut N frames into
    /// equal slices), one starting past it is refused.
    package init(duration: Double?, fps: Double?, timeline: Scene.Timeline?, pixelWidth: Int, pixelHeight: Int,
                 maximumBytes: Double, scene: String, slice: ClosedRange<Int>? = nil) throws(RecordingError) {
        try Self.checkArguments(duration: duration, fps: fps)
        func refuse(_ why: String) -> RecordingError { RecordingError(description: "\(scene): \(why)") }
        guard let duration = duration ?? timeline?.duration else {
            throw refuse("no timeline in the scene; give --duration (and --fps)")
        }
        // The reader refuses such a timeline; a scene made in code may still hold one.
        guard duration >= 0, duration.isFinite else {
            throw refuse("timeline.duration \(shortestDecimal(duration)) is not a finite number of seconds ≥ 0; give --duration")
        }
        let fps = fps ?? timeline?.fps ?? 60
        guard Self.fpsRange.contains(fps) else {
            throw refuse("timeline.fps \(shortestDecimal(fps)) is outside \(shortestDecimal(Self.fpsRange.lowerBound))...\(shortestDecimal(Self.fpsRange.upperBound)), which an animated PNG can show; give --fps")
        }
        let count = Self.frameCount(duration: duration, fps: fps)
        let length = "\(shortestDecimal(duration)) s at \(shortestDecimal(fps)) fps is \(Self.frames(count))"
        guard count >= 1 else { throw refuse("\(length): nothing to record (give a --duration over 0; `layerkit render` draws a still)") }
        guard count <= Double(Self.maximumFrames) else { throw refuse("\(length); at most \(Self.maximumFrames)") }
        let frames = 0..<Int(count)
        if let slice, slice.lowerBound >= frames.upperBound {
            throw refuse("--frames \(slice.lowerBound)..\(slice.upperBound): \(length), numbered 0...\(frames.upperBound - 1)")
        }
        let drawn = slice.map { $0.lowerBound..<min($0.upperBound + 1, frames.upperBound) } ?? frames
        let pixels = Double(max(0, pixelWidth)) * Double(max(0, pixelHeight)) * 4
        let bytes = slice == nil ? 2 * count * pixels : Double(drawn.count) * pixels
        guard bytes <= maximumBytes else {
            let what = slice == nil ? "\(length) of \(pixelWidth)×\(pixelHeight) px, up to \(Self.bytes(bytes)) written (the frames and the animated PNG, uncompressed)"
                : "\(Self.frames(Double(drawn.count))) of \(pixelWidth)×\(pixelHeight) px, up to \(Self.bytes(bytes)) written (uncompressed)"
            throw refuse(what + "; at most \(Self.bytes(maximumBytes)) (raise it with --max-bytes)")
        }
        (self.duration, self.fps, frameCount, self.frames, estimatedBytes) = (duration, fps, Int(count), drawn, bytes)
    }

    /// Frame `i`'s scene time in seconds.
    package func time(ofFrame i: Int) -> Double { Double(i) / fps }

    /// The animated PNG's frame delay: exactly 1/fps for a whole fps, else the nearest
    /// millisecond.
    package var frameDelay: (numerator: UInt16, denominator: UInt16) {
        if fps == fps.rounded() { return (1, UInt16(fps)) }
        return (UInt16(min(65535, (1000 / fps).rounded())), 1000)
    }

    /// ⌈duration × fps⌉, however large (infinite when the product overflows). The product is
    /// rounded to 1e-9 first, so 0.3 s at 10 fps (2.9999999999999996) is 3 frames, not 4.
    package static func frameCount(duration: Double, fps: Double) -> Double {
        let product = duration * fps
        guard product < 1e15 else { return product.rounded(.up) }
        return ((product * 1e9).rounded() / 1e9).rounded(.up)
    }

    /// A frame count for a message: the exact number, or its size when beyond exact integers.
    private static func frames(_ count: Double) -> String {
        if !count.isFinite { return "more frames than a Double can count" }
        if count.magnitude < 1e15 { return count == 1 ? "1 frame" : "\(Int64(count)) frames" }
        return "about \(count.formatted3) frames"
    }

    /// Bytes for a message, in the largest binary unit that keeps the number at least 1.
    package static func bytes(_ n: Double) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = n, unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(Int64(value)) bytes" }
        return "\(value.formatted3) \(units[unit])"
    }

    /// A byte count as `--max-bytes` takes it: a whole number, optionally with a binary unit
    /// (K, M, G, T, or KiB, MiB, GiB, TiB; 1K = 1024). Nil for anything else.
    package static func parseByteCount(_ text: String) -> Double? {
        let units: [(String, Double)] = [("KiB", 0x1p10), ("MiB", 0x1p20), ("GiB", 0x1p30), ("TiB", 0x1p40),
                                         ("K", 0x1p10), ("M", 0x1p20), ("G", 0x1p30), ("T", 0x1p40)]
        var digits = Substring(text), factor = 1.0
        if let (suffix, f) = units.first(where: { text.hasSuffix($0.0) }) {
            digits = digits.dropLast(suffix.count)
            factor = f
        }
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(digits) else { return nil }
        return Double(n) * factor
    }
}

extension Double {
    /// Three significant digits, without a trailing ".0" ("7.6", "12", "1.23e+20").
    fileprivate var formatted3: String {
        if self >= 1e6 {
            // log10 and pow are not exact: the mantissa is brought into 1..<10 after each.
            var exponent = Int(log10(self).rounded(.down))
            var mantissa = self / pow(10, Double(exponent))
            if mantissa < 1 { (mantissa, exponent) = (mantissa * 10, exponent - 1) }
            mantissa = (mantissa * 100).rounded() / 100
            if mantissa >= 10 { (mantissa, exponent) = (mantissa / 10, exponent + 1) }
            return "\(shortestDecimal(mantissa))e+\(exponent)"
        }
        let digits = self >= 100 ? 0 : self >= 10 ? 1 : 2
        let scale = pow(10, Double(digits))
        return shortestDecimal((self * scale).rounded() / scale)
    }
}
