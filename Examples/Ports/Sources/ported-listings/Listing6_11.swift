import QuartzCore

/// Listing 6.11's `TileCutter` (a Mac command-line tool in the book): cuts a large image into
/// 256 × 256 tiles, named `<name>_<column>_<row>` as the book's `Snowman_%02i_%02i.jpg`. The
/// book writes each tile as a JPEG file; here they stay in memory, keyed by that name.
func cutTiles(of image: CGImage, named name: String, tileSize: CGFloat = 256) -> [String: CGImage] {
    // calculate rows and columns
    let size = CGSize(width: image.width, height: image.height)
    let rows = Int((size.height / tileSize).rounded(.up))
    let cols = Int((size.width / tileSize).rounded(.up))
    var tiles: [String: CGImage] = [:]
    // generate tiles
    for y in 0..<rows {
        for x in 0..<cols {
            // extract tile image (the book's CGImageCreateWithImageInRect, drawn into a tile-sized
            // context: the image's top-left tile is (0, 0), as in the book)
            let tileRect = CGRect(x: CGFloat(x) * tileSize, y: CGFloat(y) * tileSize, width: tileSize, height: tileSize)
            let ctx = CGContext(data: nil, width: Int(tileSize), height: Int(tileSize), bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            // Core Graphics' y runs up: the image's top row lands at the context's top.
            ctx.draw(image, in: CGRect(x: -tileRect.minX, y: tileRect.maxY - size.height, width: size.width, height: size.height))
            // save tile
            tiles[String(format: "%@_%02i_%02i", name, x, y)] = ctx.makeImage()!
        }
    }
    return tiles
}
