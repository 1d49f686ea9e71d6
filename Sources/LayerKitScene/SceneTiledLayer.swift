// The fields of a tiledLayer (docs/scene-format.md, "tiledLayer"): whole numbers within the
// format's ranges, each element of `tileSize` checked on its own so the error names it.

import Foundation

enum SceneTiledLayer {
    /// The keys of a tiledLayer's own fields.
    static let keys = ["tileSize", "levelsOfDetail", "levelsOfDetailBias"]
    /// The most levels of detail a file may ask for, and the largest bias: 2^63 is a Double's
    /// last exact power of two, and far more than any level with a pixel needs (levels under a
    /// pixel are dropped; level 0 is at most 16,384 pixels a side).
    static let maximumLevels = 64

    /// Reads the fields of `object` into `layer`.
    static func read(_ object: SceneObject, into layer: CATiledLayer) throws {
        if let node = object["tileSize"] {
            let sides = try node.elements(count: 2, shape: "[w, h]").map { try whole($0, 1, TiledLayerStyle.maximumTileSide) }
            layer.tileSize = CGSize(width: sides[0], height: sides[1])
        }
        if let node = object["levelsOfDetail"] { layer.levelsOfDetail = try whole(node, 1, maximumLevels) }
        if let node = object["levelsOfDetailBias"] { layer.levelsOfDetailBias = try whole(node, 0, maximumLevels - 1) }
    }

    /// A whole number within `lo...hi`.
    private static func whole(_ node: SceneNode, _ lo: Int, _ hi: Int) throws -> Int {
        let v = try node.number()
        guard v == v.rounded(), v >= Double(lo), v <= Double(hi) else { throw node.error(rangeMessage(lo, hi, shortestDecimal(v))) }
        return Int(v)
    }

    private static func rangeMessage(_ lo: Int, _ hi: Int, _ v: String) -> String { "must be a whole number from \(lo) to \(hi), not \(v)" }

    /// The members for a tiled layer's own fields that differ from the defaults; a value the
    /// format cannot hold (a tile side of 0, a negative bias) is an error naming the field.
    static func members(of layer: CATiledLayer, at path: String) throws -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        func check(_ key: String, _ v: CGFloat, _ lo: Int, _ hi: Int) throws {
            guard v == v.rounded(), v >= CGFloat(lo), v <= CGFloat(hi) else {
                throw SceneError(path: "\(path).\(key)", message: rangeMessage(lo, hi, shortestDecimal(v)))
            }
        }
        if layer.tileSize != CGSize(width: 256, height: 256) {
            try check("tileSize[0]", layer.tileSize.width, 1, TiledLayerStyle.maximumTileSide)
            try check("tileSize[1]", layer.tileSize.height, 1, TiledLayerStyle.maximumTileSide)
            members.append(("tileSize", .array([.number(Double(layer.tileSize.width)), .number(Double(layer.tileSize.height))])))
        }
        if layer.levelsOfDetail != 1 {
            try check("levelsOfDetail", CGFloat(layer.levelsOfDetail), 1, maximumLevels)
            members.append(("levelsOfDetail", .number(Double(layer.levelsOfDetail))))
        }
        if layer.levelsOfDetailBias != 0 {
            try check("levelsOfDetailBias", CGFloat(layer.levelsOfDetailBias), 0, maximumLevels - 1)
            members.append(("levelsOfDetailBias", .number(Double(layer.levelsOfDetailBias))))
        }
        return members
    }
}
