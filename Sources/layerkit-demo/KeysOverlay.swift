import Foundation
import LayerKitCore

/// The `?` overlay: the demo's keys and the current page's, in a panel drawn with layers.
final class KeysOverlay {
    /// The keys every page has.
    static let globalKeys = [
        KeyHelp(key: "← → PgUp PgDn", action: "previous / next page"),
        KeyHelp(key: "Home End", action: "first / last page"),
        KeyHelp(key: "click", action: "hitTest at the pointer: outline the layer hit"),
        KeyHelp(key: "h", action: "HUD on / off"),
        KeyHelp(key: "?", action: "this list on / off"),
        KeyHelp(key: "s", action: "save a screenshot PNG in the current folder"),
        KeyHelp(key: "b", action: "Color Blended Layers: green opaque, red blended"),
        KeyHelp(key: "o", action: "Color Offscreen-Rendered: yellow"),
        KeyHelp(key: "i", action: "Color Misaligned Images: magenta offset, yellow scaled"),
        KeyHelp(key: "f", action: "Flash Updated Regions: yellow"),
        KeyHelp(key: "Esc", action: "close this list, or quit"),
    ]

    /// The panel, hidden until shown; the stage centres it.
    let layer = CALayer()
    private let text = CATextLayer()

    /// Builds the hidden panel.
    init() {
        layer.name = "keys"
        layer.isHidden = true
        layer.backgroundColor = CGColor(gray: 0.08, alpha: 0.88)
        layer.cornerRadius = 8
        text.font = "DejaVu Sans Mono"
        text.fontSize = 12
        text.foregroundColor = CGColor(gray: 0.95, alpha: 1)
        layer.addSublayer(text)
    }

    /// Whether the panel is showing.
    var isVisible: Bool {
        get { !layer.isHidden }
        set { layer.isHidden = !newValue }
    }

    /// Fills the panel with the global keys and `page`'s, sized to fit, text at `scale`.
    func show(page: Page, scale: CGFloat) {
        func lines(_ keys: [KeyHelp]) -> [String] {
            keys.map { $0.key.padding(toLength: 15, withPad: " ", startingAt: 0) + " " + $0.action }
        }
        var all = ["LayerKit demo — keys", ""] + lines(Self.globalKeys)
        if !page.keys.isEmpty { all += ["", "This page (\(page.id)):"] + lines(page.keys) }
        let longest = all.map(\.count).max() ?? 0
        text.string = all.joined(separator: "\n")
        text.contentsScale = scale
        let size = CGSize(width: CGFloat(longest) * 7.3 + 8, height: CGFloat(all.count) * 14.5 + 4)
        text.frame = CGRect(x: 16, y: 14, width: size.width, height: size.height)
        layer.bounds = CGRect(x: 0, y: 0, width: size.width + 32, height: size.height + 28)
    }
}
