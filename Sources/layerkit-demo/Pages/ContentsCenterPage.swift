import Foundation
import LayerKitCore

/// `contentsCenter` (chapter 2): the 64 x 40 button picture as a nine-slice image, corners kept
/// at their size while the centre stretches; `c` compares it with plain stretching.
final class ContentsCenterPage: ResizingContentsPage {
    /// The stretchable centre of `button.png`: x 16…48, y 15…25 of its 64 x 40 pixels.
    static let buttonCenter = CGRect(x: 0.25, y: 0.375, width: 0.5, height: 0.25)

    /// Builds the page around the button picture.
    init(examples: Examples) throws {
        super.init(id: "contents-center", title: "contentsCenter: resize with the pointer", image: try examples.image("button"))
        layer.contentsCenter = Self.buttonCenter
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "move", action: "the layer's bottom-right corner follows the pointer"),
         KeyHelp(key: "c", action: "toggle contentsCenter: nine-slice / whole image stretched")]
    }

    override var summary: String {
        let c = layer.contentsCenter
        return String(format: "contentsCenter = [%.3g, %.3g, %.3g, %.3g] (c)", c.minX, c.minY, c.width, c.height)
    }

    override func typed(_ c: Character) -> Bool {
        guard c == "c" else { return false }
        layer.contentsCenter = layer.contentsCenter == Self.buttonCenter ? CGRect(x: 0, y: 0, width: 1, height: 1) : Self.buttonCenter
        return true
    }
}
