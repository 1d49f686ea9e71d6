import Foundation
import LayerKitCore
import LayerKitScene

/// A page showing a scene file as it is, reloaded when the file changes on disk (hot reload):
/// edit a seed in an editor and the window follows, on the same page.
final class ScenePage: Page {
    /// The scene file.
    let path: String
    /// What the file looked like when last read: a change of either means "reload".
    private var stamp: (modified: Date?, size: Int?)

    /// Reads the scene at `path`; a page id is the file name without `.json`.
    ///
    /// - Throws: `DemoError.badInput` with the reader's one-line message.
    init(path: String) throws {
        self.path = path
        stamp = Self.stamp(of: path)
        let scene = try Self.read(path)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        super.init(id: name, title: name, canvas: scene.canvas, root: scene.root)
    }

    /// A scene file states its layers' `contentsScale`; the page draws them as the file says.
    override func adoptScreenScale(_ scale: CGFloat) {}

    override func reloadIfChanged() throws -> Bool {
        let now = Self.stamp(of: path)
        guard now.modified != stamp.modified || now.size != stamp.size else { return false }
        stamp = now
        let scene = try Self.read(path)
        canvas = scene.canvas
        root = scene.root
        return true
    }

    /// Reads a scene, its error as a one-line `DemoError`.
    private static func read(_ path: String) throws -> Scene {
        do { return try Scene(contentsOfFile: path) } catch { throw DemoError.badInput("\(error)") }
    }

    /// The file's modification date and size (`nil` when it cannot be read).
    private static func stamp(of path: String) -> (modified: Date?, size: Int?) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.modificationDate] as? Date, (attributes?[.size] as? NSNumber)?.intValue)
    }
}
