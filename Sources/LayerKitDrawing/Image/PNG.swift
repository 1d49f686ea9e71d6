// PNG reading and writing for `Bitmap`, through libpng's simplified API.
//
// The simplified API reports errors through its `png_image` instead of longjmp, which is the
// only libpng error path that is safe to cross Swift frames; so corrupt input becomes a thrown
// `ImageError`, never a crash.
//
// Colour: PNG stores straight (unassociated) alpha, `Bitmap` holds premultiplied alpha, so
// decoding premultiplies and encoding divides it back out, both rounding to nearest. Sample
// values are taken as sRGB-encoded exactly as stored: the gamma and colour-profile chunks are
// dropped before libpng sees them, because LayerKit composites the stored bytes without colour
// management and both renderers must see the same values.

import CPNG
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an image could not be read or written. Each case names the file (or "PNG data" for
/// in-memory input) and the reason, so that the message alone tells a user what to fix.
public enum ImageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No file exists at `path`.
    case fileNotFound(path: String)
    /// The file exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The bytes are not a PNG, or the PNG is truncated or corrupt; `reason` says what is wrong
    /// (libpng's own message once the signature has matched).
    case invalidPNG(source: String, reason: String)
    /// The bytes are not a JPEG, or the JPEG is truncated or corrupt; `reason` says what is
    /// wrong (libjpeg's own message once the signature has matched).
    case invalidJPEG(source: String, reason: String)
    /// The image is wider or taller than `Bitmap.maximumPNGSide` pixels (PNG or JPEG).
    case tooLarge(source: String, width: Int, height: Int)
    /// Encoding or writing failed; `destination` is the path, or "PNG data" for `pngData()`.
    case cannotEncode(destination: String, reason: String)

    /// A one-line message naming the file and the reason.
    public var description: String {
        switch self {
        case let .fileNotFound(path), let .unreadable(path, _): return "\(path): \(problem)"
        case let .invalidPNG(source, _), let .invalidJPEG(source, _), let .tooLarge(source, _, _): return "\(source): \(problem)"
        case let .cannotEncode(destination, _): return "\(destination): \(problem)"
        }
    }

    /// The message without the file's name, for messages that name the file their own way
    /// (a scene file's error).
    package var problem: String {
        switch self {
        case .fileNotFound:
            return "no such file"
        case let .unreadable(_, reason):
            return "cannot read: \(reason)"
        case let .invalidPNG(_, reason):
            return "not a valid PNG: \(reason)"
        case let .invalidJPEG(_, reason):
            return "not a valid JPEG: \(reason)"
        case let .tooLarge(_, width, height):
            return "image is \(width)x\(height) px; at most \(Bitmap.maximumPNGSide) px a side is supported"
        case let .cannotEncode(_, reason):
            return "cannot write PNG: \(reason)"
        }
    }
}

extension Bitmap {
    /// The largest width or height, in pixels, that PNG and JPEG decoding accept. A limit keeps a
    /// hostile or broken file from asking for gigabytes of memory (16384² RGBA is already 1 GiB).
    public static let maximumPNGSide = 16384

    /// Decodes the PNG file at `path` into premultiplied RGBA8 (any PNG colour type and bit
    /// depth; 16-bit samples are rounded to 8 bits, gamma and ICC information is ignored).
    ///
    /// - Throws: `ImageError` naming the file: missing, unreadable, not a PNG or corrupt, or
    ///   larger than `maximumPNGSide` a side.
    public init(contentsOfPNGFile path: String) throws {
        try self.init(decodingPNG: try readRegularFile(path), source: path)
    }

    /// Decodes a PNG held in memory, as `init(contentsOfPNGFile:)` does for a file.
    ///
    /// - Throws: `ImageError` with the source named "PNG data".
    public init(pngData: [UInt8]) throws {
        try self.init(decodingPNG: pngData, source: "PNG data")
    }

    /// Writes the bitmap to `path` as an 8-bit RGBA PNG with straight alpha, replacing any file
    /// there. Fully transparent pixels are written as (0, 0, 0, 0). The file is written whole or
    /// not at all (see `OutputFile`): when writing fails, a file that was there is unchanged and
    /// nothing is removed; a device or FIFO is written in place.
    ///
    /// - Throws: `ImageError.cannotEncode` with the reason (for example the directory does not
    ///   exist, the disk is full, or the bitmap is empty, which PNG cannot represent).
    public func writePNG(to path: String) throws {
        // libpng's own file writer truncates the target first and removes it when writing
        // fails, whatever it was (a user's file, /dev/full): so encode in memory and write
        // through OutputFile.
        let data: [UInt8]
        do { data = try pngData() } catch let ImageError.cannotEncode(_, reason) {
            throw ImageError.cannotEncode(destination: path, reason: reason)
        }
        do { try writeOutputFile(data, to: path) } catch {
            throw ImageError.cannotEncode(destination: path, reason: error.reason)
        }
    }

    /// The bitmap encoded as an 8-bit RGBA PNG, the bytes `writePNG(to:)` writes.
    ///
    /// - Throws: `ImageError.cannotEncode` when the bitmap is empty.
    public func pngData() throws -> [UInt8] {
        var data: [UInt8] = []
        try encodePNG(destination: "PNG data") { image, straight, stride in
            // Two passes, as libpng intends: the first only measures the encoded size.
            var size: png_alloc_size_t = 0
            guard png_image_write_to_memory(&image, nil, &size, 0, straight, stride, nil) != 0 else { return 0 }
            data = [UInt8](repeating: 0, count: Int(size))
            let ok = data.withUnsafeMutableBytes {
                png_image_write_to_memory(&image, $0.baseAddress, &size, 0, straight, stride, nil)
            }
            if ok != 0 { data.removeSubrange(Int(size)...) }
            return ok
        }
        return data
    }

    init(decodingPNG data: [UInt8], source: String) throws {
        guard data.starts(with: pngSignature) else {
            throw ImageError.invalidPNG(source: source, reason: data.isEmpty ? "no bytes at all" : "no PNG signature")
        }
        let stream = removingColorManagementChunks(from: data)
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let (width, height, straight): (Int, Int, [UInt8]) = try stream.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw ImageError.invalidPNG(source: source, reason: libpngMessage(image))
            }
            defer { png_image_free(&image) }
            let width = Int(image.width), height = Int(image.height)
            guard width <= Bitmap.maximumPNGSide, height <= Bitmap.maximumPNGSide else {
                throw ImageError.tooLarge(source: source, width: width, height: height)
            }
            if let shortfall = missingImageData(stream, width: width, height: height) {
                throw ImageError.invalidPNG(source: source, reason: shortfall)
            }
            // PNG_FORMAT_RGBA is a macro of macros, which Swift does not import.
            image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            // With the gamma chunks gone, libpng would otherwise take 16-bit samples as linear.
            image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let ok = pixels.withUnsafeMutableBytes {
                png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(width * 4), nil)
            }
            guard ok != 0 else { throw ImageError.invalidPNG(source: source, reason: libpngMessage(image)) }
            return (width, height, pixels)
        }
        self.init(width: width, height: height, pixels: premultiplied(straight))
    }

    /// Runs `write` over the straight-alpha pixels and a `png_image` describing them, and turns
    /// a zero result into an error carrying libpng's message.
    private func encodePNG(
        destination: String,
        _ write: (inout png_image, UnsafeRawPointer?, png_int_32) -> Int32
    ) throws {
        guard width > 0, height > 0 else {
            throw ImageError.cannotEncode(destination: destination,
                                          reason: "a PNG cannot be empty (\(width)x\(height))")
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        defer { png_image_free(&image) }
        let ok = unpremultiplied(pixels).withUnsafeBytes { write(&image, $0.baseAddress, png_int_32(width * 4)) }
        guard ok != 0 else { throw ImageError.cannotEncode(destination: destination, reason: libpngMessage(image)) }
    }
}

let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

/// Deflate writes at most 258 bytes for a match coded in 2 bits or more, so no byte of a
/// compressed stream inflates to more than 1032 bytes.
let deflateMaximumExpansion = 1032

/// Why `stream` cannot hold the `width` x `height` pixels its header (already accepted by
/// libpng) claims, or `nil` when it may: the image data chunks together, inflated as far as
/// deflate allows, must reach the bare pixel bytes (width x height x bits per pixel, before
/// filter bytes and interlacing, which only add). Checked before the pixels are allocated, so
/// a 100-byte file claiming 16,384 x 16,384 pixels costs nothing, not 1 GiB.
private func missingImageData(_ stream: [UInt8], width: Int, height: Int) -> String? {
    let chunks = pngChunks(stream)
    guard let ihdr = chunks.first, ihdr.data.count >= 10 else { return nil }
    let depth = Int(stream[ihdr.data.lowerBound + 8]), colorType = stream[ihdr.data.lowerBound + 9]
    // Samples per pixel: grey, -, RGB, palette index, grey + alpha, -, RGBA.
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
    let pixelBytes = (width * height * channels * depth + 7) / 8
    let compressed = chunks.reduce(0) { stream[$1.type].elementsEqual("IDAT".utf8) ? $0 + $1.data.count : $0 }
    guard compressed * deflateMaximumExpansion < pixelBytes else { return nil }
    return "the header's \(width)x\(height) px need \(pixelBytes) bytes of pixel data, which \(compressed) bytes of "
        + "compressed data cannot hold (deflate expands at most \(deflateMaximumExpansion):1): the file is truncated"
}

/// gAMA, cHRM, sRGB, iCCP: the chunks that would make libpng convert sample values.
private let colorManagementChunkTypes: Set<[UInt8]> = [
    Array("gAMA".utf8), Array("cHRM".utf8), Array("sRGB".utf8), Array("iCCP".utf8),
]

/// The PNG stream without its colour-management chunks. Chunks are self-delimiting and each
/// has its own CRC, so dropping ancillary ones leaves a valid stream. A malformed chunk
/// layout stops the walk and leaves the rest in place for libpng to diagnose.
private func removingColorManagementChunks(from data: [UInt8]) -> [UInt8] {
    var result = Array(data.prefix(pngSignature.count))
    let chunks = pngChunks(data)
    for chunk in chunks where !colorManagementChunkTypes.contains(Array(data[chunk.type])) {
        result.append(contentsOf: data[chunk.whole])
    }
    result.append(contentsOf: data[(chunks.last?.whole.upperBound ?? pngSignature.count)...])
    return result
}

/// Where one chunk of a PNG stream lies: all of it (length, type, data, CRC), its type and its data.
package struct PNGChunk {
    /// The whole chunk, length to CRC.
    package let whole: Range<Int>
    /// Its four type bytes.
    package var type: Range<Int> { whole.lowerBound + 4..<whole.lowerBound + 8 }
    /// Its data.
    package var data: Range<Int> { whole.lowerBound + 8..<whole.upperBound - 4 }
}

/// The chunks of a PNG stream after its signature, in order, up to the first one whose length
/// runs past the end (a malformed layout stops the walk).
package func pngChunks(_ data: [UInt8]) -> [PNGChunk] {
    var chunks: [PNGChunk] = []
    var offset = pngSignature.count
    while offset + 12 <= data.count {
        let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let end = offset + 12 + length
        guard end <= data.count else { break }
        chunks.append(PNGChunk(whole: offset..<end))
        offset = end
    }
    return chunks
}

/// Straight RGBA to premultiplied, each colour channel `(c * a + 127) / 255`.
private func premultiplied(_ straight: [UInt8]) -> [UInt8] {
    var pixels = straight
    pixels.withUnsafeMutableBufferPointer { p in
        for i in stride(from: 0, to: p.count, by: 4) {
            let a = UInt32(p[i + 3])
            guard a != 255 else { continue }
            for c in i..<i + 3 { p[c] = UInt8((UInt32(p[c]) * a + 127) / 255) }
        }
    }
    return pixels
}

/// Premultiplied RGBA to straight, each colour channel `c * 255 / a` rounded to nearest.
/// Channels larger than alpha (not valid premultiplied colour) saturate at 255.
private func unpremultiplied(_ premultiplied: [UInt8]) -> [UInt8] {
    var pixels = premultiplied
    pixels.withUnsafeMutableBufferPointer { p in
        for i in stride(from: 0, to: p.count, by: 4) {
            let a = UInt32(p[i + 3])
            guard a != 255 else { continue }
            guard a != 0 else {
                p[i] = 0
                p[i + 1] = 0
                p[i + 2] = 0
                continue
            }
            for c in i..<i + 3 { p[c] = UInt8(min(255, (UInt32(p[c]) * 255 + a / 2) / a)) }
        }
    }
    return pixels
}

/// The whole file at `path`, which must be a regular file, with `errno` turned into
/// `ImageError` (`.fileNotFound`, or `.unreadable` with the reason: "not a regular file", or
/// the system's). Images and scene files are read through it, so both refuse the same things
/// in the same words.
package func readRegularFile(_ path: String) throws -> [UInt8] {
    func failure(_ code: Int32) -> ImageError {
        code == ENOENT ? .fileNotFound(path: path) : .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    // Only regular files: a user may name any path, and a device such as /dev/zero
    // never ends, while opening a pipe blocks until someone writes to it.
    var status = stat()
    guard stat(path, &status) == 0 else { throw failure(errno) }
    guard status.st_mode & S_IFMT == S_IFREG else {
        throw ImageError.unreadable(path: path, reason: "not a regular file")
    }
    guard let file = fopen(path, "rb") else { throw failure(errno) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[..<count])
        if count < chunk.count {
            if ferror(file) != 0 { throw ImageError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            return bytes
        }
    }
}

/// libpng's NUL-terminated message from a failed simplified-API call.
private func libpngMessage(_ image: png_image) -> String {
    withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
