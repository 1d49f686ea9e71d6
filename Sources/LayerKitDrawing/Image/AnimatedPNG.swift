// Animated PNG (APNG) writing around the PNG encoder: each frame is encoded as a still PNG
// and its compressed image data is moved into the animation's chunks. The first frame is
// the default image (IDAT, preceded by its fcTL, so viewers without APNG show it); later
// frames are fdAT chunks. acTL, fcTL and fdAT carry one sequence number each, counted from 0
// across fcTL and fdAT, as the APNG specification requires.

/// Writes an animated PNG frame by frame to a file, holding one frame's bytes at a time, so
/// recording a long animation keeps memory flat. The file is an `OutputFile`: it appears (or
/// replaces one there) only at `finish()`, and a writer dropped before that leaves nothing.
package final class AnimatedPNGWriter {
    private let file: OutputFile
    private let path: String
    private let frameCount: Int
    private let delay: (numerator: UInt16, denominator: UInt16)
    private var header: [UInt8]?
    private var framesWritten = 0
    private var sequence: UInt32 = 0

    /// Starts the file at `path` for `frameCount` frames, each shown for
    /// `delay.numerator / delay.denominator` seconds, the animation repeating forever.
    package init(path: String, frameCount: Int, delay: (numerator: UInt16, denominator: UInt16)) throws {
        do { file = try OutputFile(path: path) } catch { throw ImageError.cannotEncode(destination: path, reason: error.reason) }
        self.path = path
        self.frameCount = frameCount
        self.delay = delay
    }

    /// Appends the next frame, given as the bytes of a still PNG of the same size and format as
    /// the first frame's (what `Bitmap.pngData()` makes).
    package func append(png: [UInt8]) throws {
        guard framesWritten < frameCount else { throw problem("more frames than the \(frameCount) announced") }
        let chunks = pngChunks(png)
        guard png.starts(with: pngSignature), let ihdr = chunks.first, png[ihdr.type].elementsEqual("IHDR".utf8) else {
            throw problem("frame \(framesWritten) is not a PNG")
        }
        let frameHeader = Array(png[ihdr.data])
        if let header {
            guard header == frameHeader else { throw problem("frame \(framesWritten)'s size or format differs from the first frame's") }
        } else {
            header = frameHeader
            var out = pngSignature
            out += chunk("IHDR", frameHeader)
            out += chunk("acTL", bigEndian(UInt32(frameCount)) + bigEndian(UInt32(0)))  // 0 plays: forever
            try write(out)
        }
        // fcTL: sequence, width, height, x and y offsets, delay, dispose op (none), blend op (source).
        var out = chunk("fcTL", bigEndian(nextSequence()) + Array(frameHeader[0..<8]) + bigEndian(UInt32(0)) + bigEndian(UInt32(0))
                                + bigEndian(delay.numerator) + bigEndian(delay.denominator) + [0, 0])
        for c in chunks where png[c.type].elementsEqual("IDAT".utf8) {
            out += framesWritten == 0 ? Array(png[c.whole]) : chunk("fdAT", bigEndian(nextSequence()) + Array(png[c.data]))
        }
        try write(out)
        framesWritten += 1
    }

    /// Ends the file; every announced frame must have been appended.
    package func finish() throws {
        guard framesWritten == frameCount else { throw problem("\(framesWritten) frames written of the \(frameCount) announced") }
        try write(chunk("IEND", []))
        do { try file.commit() } catch { throw problem(error.reason) }
    }

    private func nextSequence() -> UInt32 {
        defer { sequence += 1 }
        return sequence
    }

    private func write(_ bytes: [UInt8]) throws {
        do { try file.append(bytes) } catch { throw problem(error.reason) }
    }

    private func problem(_ reason: String) -> ImageError { ImageError.cannotEncode(destination: path, reason: reason) }
}

/// A PNG chunk: length, type, data and the CRC of type and data.
private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
}

private func bigEndian<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
    (0..<T.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) }
}

/// PNG's CRC-32 (ISO 3309, the reflected polynomial 0xEDB88320).
private let crcTable: [UInt32] = (0..<256).map { n in
    (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
}
