import Foundation
import LayerKitCore
import LayerKitScene

/// The text of a scene file on a 100 x 100 point canvas with `root` (JSON) as its root layer
/// and `extra` top-level members appended (`"probes": [...]`), for tests that read scenes
/// from strings.
public func sceneText(root: String, extra: String = "") -> String {
    #"{"format": "layerkit-scene", "version": 1, "canvas": {"width": 100, "height": 100}, "root": \#(root)\#(extra.isEmpty ? "" : ", " + extra)}"#
}

/// Reads a scene from its text under the file name "test.json"; image paths are relative to
/// `directory`.
public func readScene(_ text: String, directory: String = "") throws -> Scene {
    try Scene(data: Data(text.utf8), baseDirectory: directory, fileName: "test.json")
}

/// Every scene file of the examples (`Examples/seeds`, `Examples/bench`, `Examples/corpus`, and
/// any other folder of `Examples` holding `.json` files), sorted.
public func exampleScenePaths() throws -> [String] {
    let fm = FileManager.default
    return try fm.contentsOfDirectory(atPath: examplesDirectory.path).sorted().flatMap { folder -> [String] in
        let dir = examplesDirectory.appendingPathComponent(folder)
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
        return try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }
}
