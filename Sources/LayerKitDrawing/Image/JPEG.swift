// JPEG reading for `Bitmap`, through libjpeg-turbo behind the CJPEG shim (whose error manager
// returns libjpeg's message instead of ending the process), with EXIF orientation applied.
//
// The size is read from the header and checked against `Bitmap.maximumPNGSide` before a single
// pixel is decoded. Orientation comes from the Exif APP1 segment's IFD0 Orientation tag (0x0112),
// read here: it is one tag, and a small bounds-checked reader beats a library dependency for it.
// JPEG has no alpha, so every pixel is opaque and premultiplying changes nothing.

import CJPEG

extension Bitmap {
    /// Decodes the JPEG file at `path` into RGBA8 (opaque), turned upright as its EXIF
    /// orientation says (all eight orientations; a missing or unknown tag means upright).
    ///
    /// - Throws: `ImageError` naming the file: missing, unreadable, not a JPEG, corrupt or
    ///   truncated, or larger than `maximumPNGSide` pixels a side.
    public init(contentsOfJPEGFile path: String) throws {
        try self.init(decodingJPEG: try readRegularFile(path), source: path)
    }

    /// Decodes a JPEG held in memory, as `init(contentsOfJPEGFile:)` does for a file.
    ///
    /// - Throws: `ImageError` with the source named "JPEG data".
    public init(jpegData: [UInt8]) throws {
        try self.init(decodingJPEG: jpegData, source: "JPEG data")
    }

    /// Decodes a PNG or a JPEG file: a JPEG when the bytes start with JPEG's signature or the
    /// name ends in `.jpg` / `.jpeg`, otherwise a PNG (so other bytes get PNG's error, as before
    /// JPEG was read).
    ///
    /// - Throws: `ImageError` as the chosen format's decoder does.
    public init(contentsOfFile path: String) throws {
        let data = try readRegularFile(path)
        let named = [".jpg", ".jpeg"].contains { path.lowercased().hasSuffix($0) }
        if data.starts(with: jpegSignature) || named && !data.starts(with: pngSignature) {
            try self.init(decodingJPEG: data, source: path)
        } else {
            try self.init(decodingPNG: data, source: path)
        }
    }

    private init(decodingJPEG data: [UInt8], source: String) throws {
        guard data.starts(with: jpegSignature) else {
            throw ImageError.invalidJPEG(source: source, reason: data.isEmpty ? "no bytes at all" : "no JPEG signature")
        }
        var message = [CChar](repeating: 0, count: 256)
        func failure() -> ImageError {
            .invalidJPEG(source: source, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var width: Int32 = 0, height: Int32 = 0
        var decoded: UnsafeMutablePointer<UInt8>?
        switch lk_jpeg_decode_rgba(data, data.count, Int32(Bitmap.maximumPNGSide), &width, &height, &decoded, &message, message.count) {
        case 0: break
        case 1: throw ImageError.tooLarge(source: source, width: Int(width), height: Int(height))
        default: throw failure()
        }
        defer { lk_jpeg_free(decoded) }
        let pixels = Array(UnsafeBufferPointer(start: decoded, count: Int(width) * Int(height) * 4))
        self = Bitmap(width: Int(width), height: Int(height), pixels: pixels).oriented(exifOrientation(of: data))
    }

    /// The stored image turned upright for EXIF `orientation` (1 upright, 2 mirrored, 3 turned
    /// 180°, 4 flipped, 5 transposed, 6 stored turned 90° anticlockwise, 7 transversed, 8 stored
    /// turned 90° clockwise); 5 to 8 swap width and height.
    func oriented(_ orientation: Int) -> Bitmap {
        guard (2...8).contains(orientation) else { return self }
        let (w, h) = (width, height)
        let swaps = orientation >= 5
        let (ow, oh) = swaps ? (h, w) : (w, h)
        // For each displayed pixel, the stored pixel it shows.
        let source: (Int, Int) -> (Int, Int)
        switch orientation {
        case 2: source = { x, y in (w - 1 - x, y) }
        case 3: source = { x, y in (w - 1 - x, h - 1 - y) }
        case 4: source = { x, y in (x, h - 1 - y) }
        case 5: source = { x, y in (y, x) }
        case 6: source = { x, y in (y, h - 1 - x) }
        case 7: source = { x, y in (w - 1 - y, h - 1 - x) }
        default: source = { x, y in (w - 1 - y, x) }
        }
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        pixels.withUnsafeBytes { from in
            out.withUnsafeMutableBytes { to in
                let src = from.bindMemory(to: UInt32.self), dst = to.bindMemory(to: UInt32.self)
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy) = source(x, y)
                        dst[y * ow + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return Bitmap(width: ow, height: oh, pixels: out)
    }
}

/// SOI followed by the start of the next marker.
let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

/// The Orientation tag (0x0112) of IFD0 in the JPEG's Exif APP1 segment; 1 (upright) when there
/// is none or it cannot be read. Every offset is checked against the data, so a hostile segment
/// reads as "no orientation".
func exifOrientation(of data: [UInt8]) -> Int {
    var i = 2
    // Markers up to the first scan: each is FF xx, then (except standalone ones) a 16-bit length.
    while i + 4 <= data.count, data[i] == 0xFF {
        let marker = data[i + 1]
        if marker == 0xDA || marker == 0xD9 { break }  // start of scan, end of image
        if marker == 0xFF {
            i += 1
            continue
        }  // fill byte
        let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
        guard length >= 2, i + 2 + length <= data.count else { break }
        let segment = data[(i + 4)..<(i + 2 + length)]
        if marker == 0xE1, segment.starts(with: Array("Exif\0\0".utf8)) {
            return tiffOrientation(Array(segment.dropFirst(6))) ?? 1
        }
        i += 2 + length
    }
    return 1
}

/// The Orientation entry of a TIFF structure's first IFD.
private func tiffOrientation(_ tiff: [UInt8]) -> Int? {
    guard tiff.count >= 8 else { return nil }
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true  // "II"
    case (0x4D, 0x4D): little = false  // "MM"
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= tiff.count else { return nil }
        return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
    }
    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }
    guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
    for entry in 0..<count {
        let at = ifd + 2 + entry * 12
        guard let tag = u16(at) else { return nil }
        // Type SHORT, one value, held in the first two bytes of the value field.
        if tag == 0x0112 { return u16(at + 2) == 3 ? u16(at + 8) : nil }
    }
    return nil
}
