import Foundation
import LayerKitCore

/// `contentsGravity` (chapter 2): the cat at `contentsScale` 4 (64 x 64 points) placed in the
/// resized bounds by each of the twelve gravities; remember that `top…` means maximum y, the
/// visual bottom on Core Animation's y-down canvas.
final class ContentsGravityPage: ResizingContentsPage {
    private var index = CALayerContentsGravity.allCases.firstIndex(of: .resizeAspect)!

    /// Builds the page around the cat picture.
    init(examples: Examples) throws {
        super.init(id: "contents-gravity", title: "contentsGravity: resize with the pointer", image: try examples.image("cat"))
        layer.contentsScale = 4
        layer.contentsGravity = CALayerContentsGravity.allCases[index]
    }

    override var keys: [KeyHelp] {
        [KeyHelp(key: "move", action: "the layer's bottom-right corner follows the pointer"),
         KeyHelp(key: "g / G", action: "next / previous contentsGravity"),
         KeyHelp(key: "m", action: "toggle masksToBounds")]
    }

    override var summary: String {
        "contentsGravity = \(layer.contentsGravity.rawValue) (g/G) · masksToBounds = \(layer.masksToBounds) (m)"
    }

    override func typed(_ c: Character) -> Bool {
        let all = CALayerContentsGravity.allCases
        switch c {
        case "g": index = (index + 1) % all.count
        case "G": index = (index + all.count - 1) % all.count
        case "m": layer.masksToBounds.toggle()
            return true
        default: return false
        }
        layer.contentsGravity = all[index]
        return true
    }
}
