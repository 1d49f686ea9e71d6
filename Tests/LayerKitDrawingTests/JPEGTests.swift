import CJPEG
import Foundation
import XCTest
@testable import LayerKitDrawing
import LayerKitCore

/// JPEG decoding: pixels of an image encoded here with libjpeg (quality 95, no chroma
/// subsampling, flat 8x8 blocks, so each block decodes to its colour within a few levels), the
/// eight EXIF orientations, and broken files that must give an error naming the file.
final class JPEGTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("JPEGTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    typealias RGB = (UInt8, UInt8, UInt8)
    private let red: RGB = (255, 0, 0), green: RGB = (0, 255, 0), blue: RGB = (0, 0, 255)
    private let white: RGB = (255, 255, 255), black: RGB = (0, 0, 0)

    /// A JPEG of 8x8 blocks of flat colour, `blocks[row][column]`.
    private func encode(_ blocks: [[RGB]]) throws -> [UInt8] {
        let w = blocks[0].count * 8, h = blocks.count * 8
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let c = blocks[y / 8][x / 8]
                rgb[(y * w + x) * 3] = c.0
                rgb[(y * w + x) * 3 + 1] = c.1
                rgb[(y * w + x) * 3 + 2] = c.2
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(lk_jpeg_encode_rgb(rgb, Int32(w), Int32(h), 95, &out, &size, &message, 256), 0)
        defer { lk_jpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// `jpeg` with an Exif APP1 segment right after SOI whose IFD0 holds Orientation =
    /// `orientation`, in big-endian ("MM") or little-endian ("II") TIFF.
    private func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8, bigEndian: Bool = true) -> [UInt8] {
        let tiff: [UInt8] = bigEndian
            ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0, 0, 0]
            : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return Array(jpeg[..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }

    /// Each block's centre pixel within `tolerance` of its colour, alpha exactly 255.
    private func assertBlocks(_ bitmap: Bitmap, _ expected: [[RGB]], tolerance: Int = 6,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(bitmap.width, expected[0].count * 8, "width", file: file, line: line)
        XCTAssertEqual(bitmap.height, expected.count * 8, "height", file: file, line: line)
        guard bitmap.width == expected[0].count * 8, bitmap.height == expected.count * 8 else { return }
        for (row, colours) in expected.enumerated() {
            for (column, c) in colours.enumerated() {
                let i = ((row * 8 + 4) * bitmap.width + column * 8 + 4) * 4
                let got = Array(bitmap.pixels[i..<i + 4])
                let ok = zip(got, [c.0, c.1, c.2]).allSatisfy { abs(Int($0) - Int($1)) <= tolerance } && got[3] == 255
                XCTAssertTrue(ok, "block (\(column), \(row)): \(got), expected \(c)", file: file, line: line)
            }
        }
    }

    func testDecodesFlatBlocksWithinTolerance() throws {
        let blocks = [[red, green, blue], [white, black, (128, 64, 32)]]
        let path = try write(try encode(blocks), "blocks.jpg")
        assertBlocks(try Bitmap(contentsOfJPEGFile: path), blocks)
        let image = try CGImage(contentsOfJPEGFile: path)
        XCTAssertEqual(image.width, 24)
        XCTAssertEqual(image.source, path)
        // Sniffed by signature whatever the name says.
        let renamed = try write(try encode(blocks), "blocks.png")
        assertBlocks(try Bitmap(contentsOfFile: renamed), blocks)
    }

    func testSniffingKeepsPNGPathAndItsErrors() throws {
        let png = Bitmap(width: 1, height: 1, pixels: [10, 20, 30, 255])
        let path = try write(try png.pngData(), "named.jpg")
        XCTAssertEqual(try Bitmap(contentsOfFile: path), png)
        let garbage = try write(Array("hello".utf8), "garbage.png")
        XCTAssertThrowsError(try Bitmap(contentsOfFile: garbage)) {
            XCTAssertEqual($0 as? ImageError, .invalidPNG(source: garbage, reason: "no PNG signature"))
        }
        let fakeJPEG = try write(Array("hello".utf8), "garbage.jpeg")
        XCTAssertThrowsError(try Bitmap(contentsOfFile: fakeJPEG)) {
            XCTAssertEqual($0 as? ImageError, .invalidJPEG(source: fakeJPEG, reason: "no JPEG signature"))
        }
    }

    /// The stored image is [R K G / B K W]; each orientation's upright layout worked out by
    /// hand from the EXIF definitions (6: the stored image must turn 90° clockwise to stand up).
    func testAllEightExifOrientations() throws {
        let (R, G, B, W, K) = (red, green, blue, white, black)
        let stored = try encode([[R, K, G], [B, K, W]])
        let upright: [Int: [[RGB]]] = [
            1: [[R, K, G], [B, K, W]],
            2: [[G, K, R], [W, K, B]],
            3: [[W, K, B], [G, K, R]],
            4: [[B, K, W], [R, K, G]],
            5: [[R, B], [K, K], [G, W]],
            6: [[B, R], [K, K], [W, G]],
            7: [[W, G], [K, K], [B, R]],
            8: [[G, W], [K, K], [R, B]],
        ]
        for (orientation, expected) in upright.sorted(by: { $0.key < $1.key }) {
            for bigEndian in [true, false] {
                let data = withOrientation(stored, UInt8(orientation), bigEndian: bigEndian)
                XCTAssertEqual(exifOrientation(of: data), orientation)
                assertBlocks(try Bitmap(jpegData: data), expected)
            }
        }
        // Values outside 1...8 are taken as upright.
        assertBlocks(try Bitmap(jpegData: withOrientation(stored, 9)), upright[1]!)
    }

    func testCorruptAndTruncatedFilesThrowNamingTheFile() throws {
        let good = try encode([[red, green], [blue, white]])
        let cases: [(String, [UInt8])] = [
            ("empty.jpg", []),
            ("signature-only.jpg", [0xFF, 0xD8, 0xFF]),
            ("header-cut.jpg", Array(good.prefix(40))),
            ("data-cut.jpg", Array(good.prefix(good.count - 40))),
            ("bad-marker.jpg", Array(good[..<2]) + [0xFF, 0xC3, 0, 4, 1, 2] + Array(good[2...])),
            // An Exif segment whose length runs past the file, and one pointing its IFD far away.
            ("exif-past-end.jpg", Array(good[..<2]) + [0xFF, 0xE1, 0xFF, 0xF0] + Array("Exif\0\0MM".utf8)),
        ]
        for (name, bytes) in cases {
            let path = try write(bytes, name)
            XCTAssertThrowsError(try CGImage(contentsOfJPEGFile: path), name) { error in
                guard case let .invalidJPEG(source, reason)? = error as? ImageError else {
                    return XCTFail("\(name): \(error)")
                }
                XCTAssertEqual(source, path)
                XCTAssertFalse(reason.isEmpty, name)
                XCTAssertTrue("\(error)".hasPrefix("\(path): not a valid JPEG: "), "\(error)")
            }
        }
        var farIFD = withOrientation(good, 6)
        farIFD[2 + 4 + 6 + 7] = 0xFF  // IFD0 offset 0x000000FF: past the segment
        XCTAssertEqual(exifOrientation(of: farIFD), 1)
        XCTAssertEqual(try Bitmap(jpegData: farIFD).width, 16)
    }

    func testAHeaderClaimingMoreBlocksThanTheDataCanCodeIsRefusedBeforeDecoding() throws {
        var data = try encode([[red]])
        let sof = try XCTUnwrap((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        // Height and width 16384 (0x4000), three components sampled 1x1: 2048 x 2048 blocks each,
        // 12,582,912 in all, where a file of a few hundred bytes codes at most 8 a byte.
        for k in [5, 7] {
            data[sof + k] = 0x40
            data[sof + k + 1] = 0x00
        }
        XCTAssertLessThan(data.count, 1000)
        let path = try write(data, "claims-16384.jpg")
        XCTAssertThrowsError(try Bitmap(contentsOfJPEGFile: path)) { error in
            XCTAssertEqual(error as? ImageError, .invalidJPEG(source: path, reason:
                "the header's 16384x16384 px are 12582912 blocks of 8x8, more than the \(data.count) bytes of the file can "
                + "code (a bit a block at least): the file is truncated"))
        }
    }

    func testSizeIsCheckedFromTheHeaderBeforeDecoding() throws {
        var data = try encode([[red]])
        // SOF0 holds height then width, 16-bit big-endian, five bytes after its marker's length.
        let sof = try XCTUnwrap((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[sof + 5] = 0x40
        data[sof + 6] = 0x01  // height 16385
        let path = try write(data, "huge.jpg")
        XCTAssertThrowsError(try Bitmap(contentsOfJPEGFile: path)) {
            XCTAssertEqual($0 as? ImageError, .tooLarge(source: path, width: 8, height: 16385))
        }
    }
}
