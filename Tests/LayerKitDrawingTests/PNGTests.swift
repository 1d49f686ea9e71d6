import Foundation
import XCTest
@testable import LayerKitDrawing
import LayerKitCore

final class PNGTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("PNGTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func temporaryPath(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Premultiplied pixels survive un-premultiplying and premultiplying again exactly, so a
    /// round trip must give back identical bytes, semi-transparent pixels included.
    private let semiTransparent = Bitmap(width: 3, height: 2, pixels: [
        255, 0, 0, 255,    0, 0, 0, 0,        64, 32, 0, 128,
        1, 0, 1, 1,        200, 100, 50, 200, 17, 254, 90, 254,
    ])

    func testFileRoundTripKeepsPremultipliedPixels() throws {
        let path = temporaryPath("round-trip.png")
        try semiTransparent.writePNG(to: path)
        XCTAssertEqual(try Bitmap(contentsOfPNGFile: path), semiTransparent)
    }

    func testDataRoundTripMatchesTheFile() throws {
        let path = temporaryPath("same-bytes.png")
        try semiTransparent.writePNG(to: path)
        let data = try semiTransparent.pngData()
        XCTAssertEqual(data, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(try Bitmap(pngData: data), semiTransparent)
    }

    func testTransparentPixelsAreWrittenAsTransparentBlack() throws {
        // Colour under zero alpha is not valid premultiplied data; it must not leak into the file.
        let data = try Bitmap(width: 1, height: 1, pixels: [9, 9, 9, 0]).pngData()
        XCTAssertEqual(try Bitmap(pngData: data).pixels, [0, 0, 0, 0])
    }

    func testDecodesTheExampleImage() throws {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/images/tiny8.png").path
        let bitmap = try Bitmap(contentsOfPNGFile: path)
        XCTAssertEqual(bitmap.width, 8)
        XCTAssertEqual(bitmap.height, 8)
        XCTAssertTrue(bitmap[7, 0] == (0, 0, 0, 0), "top-right pixel is transparent")
        XCTAssertTrue(bitmap[0, 0] == (255, 255, 255, 255), "the diagonal is opaque white")
    }

    func testMissingFileNamesThePath() {
        let path = temporaryPath("does-not-exist.png")
        XCTAssertThrowsError(try Bitmap(contentsOfPNGFile: path)) { error in
            XCTAssertEqual(error as? ImageError, .fileNotFound(path: path))
            XCTAssertTrue("\(error)".contains(path))
        }
    }

    func testDirectoryIsUnreadable() {
        XCTAssertThrowsError(try Bitmap(contentsOfPNGFile: directory.path)) { error in
            guard case .unreadable(directory.path, _)? = error as? ImageError else { return XCTFail("\(error)") }
        }
    }

    func testGarbageIsNotAPNG() throws {
        let path = temporaryPath("garbage.png")
        try Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Bitmap(contentsOfPNGFile: path)) { error in
            guard case .invalidPNG(path, _)? = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains(path))
        }
    }

    func testTruncatedPNGIsCorrupt() throws {
        let whole = try semiTransparent.pngData()
        for length in [8, 20, 40, whole.count - 20] {
            XCTAssertThrowsError(try Bitmap(pngData: Array(whole.prefix(length))), "\(length) bytes") { error in
                guard case .invalidPNG("PNG data", _)? = error as? ImageError else { return XCTFail("\(error)") }
            }
        }
    }

    /// A PNG whose header claims `width` x `height` pixels but holds `base`'s few bytes of image
    /// data: the IHDR's size rewritten, its CRC recomputed.
    private func claiming(width: UInt32, height: UInt32, from base: [UInt8]) -> [UInt8] {
        var png = base
        // Signature (8), IHDR length (4) and type (4), then width and height, big-endian.
        for (i, v) in [width, height].enumerated() {
            for k in 0..<4 { png[16 + 4 * i + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in png[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for k in 0..<4 { png[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
        return png
    }

    func testAHeaderClaimingMorePixelsThanTheDataCanHoldIsRefusedBeforeDecoding() throws {
        let base = try Bitmap(width: 2, height: 2).pngData()
        let idat = pngChunks(base).filter { base[$0.type].elementsEqual("IDAT".utf8) }.map(\.data.count).reduce(0, +)
        let hostile = claiming(width: 16384, height: 16384, from: base)
        XCTAssertLessThan(hostile.count, 100)
        // 16384² RGBA at 8 bits is 1 GiB of pixels; the few bytes of deflate data inflate to at
        // most 1032 times their size, so the file is refused from its chunks alone.
        XCTAssertThrowsError(try Bitmap(pngData: hostile)) { error in
            XCTAssertEqual(error as? ImageError, .invalidPNG(source: "PNG data", reason:
                "the header's 16384x16384 px need 1073741824 bytes of pixel data, which \(idat) bytes of compressed data "
                + "cannot hold (deflate expands at most 1032:1): the file is truncated"))
        }
        // The same from a file, as `render` and `diff` read them.
        let path = temporaryPath("claims-16384.png")
        try Data(hostile).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Bitmap(contentsOfPNGFile: path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path): not a valid PNG: the header's 16384x16384 px need"), "\(error)")
        }
    }

    func testTheDataBoundLetsTheMostCompressibleImagesThrough() throws {
        // An all-transparent image deflates about as far as deflate goes (near 1000:1).
        let blank = Bitmap(width: 2048, height: 2048)
        let data = try blank.pngData()
        XCTAssertLessThan(data.count, 2048 * 2048 * 4 / 500)
        XCTAssertEqual(try Bitmap(pngData: data).pixels, blank.pixels)
    }

    func testRefusesImagesWiderThanTheLimit() throws {
        let data = try Bitmap(width: Bitmap.maximumPNGSide + 1, height: 1).pngData()
        XCTAssertThrowsError(try Bitmap(pngData: data)) { error in
            XCTAssertEqual(error as? ImageError,
                           .tooLarge(source: "PNG data", width: Bitmap.maximumPNGSide + 1, height: 1))
        }
    }

    func testEmptyBitmapCannotBeEncoded() {
        XCTAssertThrowsError(try Bitmap(width: 0, height: 4).pngData()) { error in
            guard case .cannotEncode? = error as? ImageError else { return XCTFail("\(error)") }
        }
    }
}
