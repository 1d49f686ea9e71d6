import Foundation
import LayerKitCore

/// `zPosition` (chapter 3, "Z坐标轴"): green is added before red, so it is behind; a key raises
/// its `zPosition` to 1 and it draws in front, while hit testing still follows sublayer order
/// (click the overlap: red is hit either way).
final class ZPositionPage: Page {
    private let green: CALayer
    private let captionLayer: CATextLayer

    /// Builds the two overlapping squares.
    init() {
        let (canvas, root) = Page.whiteCanvas(400, 440)
        green = CALayer()
        green.name = "green"
        green.frame = CGRect(x: 80, y: 80, width: 160, height: 160)
        green.backgroundColor = CGColor(red: 0.2, green: 0.75, blue: 0.3, alpha: 1)
        let red = CALayer()
        red.name = "red"
        red.frame = CGRect(x: 160, y: 160, width: 160, height: 160)
        red.backgroundColor = CGColor(red: 0.9, green: 0.25, blue: 0.2, alpha: 1)
        root.addSublayer(green)
        root.addSublayer(red)
        captionLayer = Page.caption(canvasWidth: 400, y: 360)
        captionLayer.frame.size.height = 80
        root.addSublayer(captionLayer)
        super.init(id: "zposition", title: "zPosition: drawing order vs hit-testing order", canvas: canvas, root: root)
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "z", action: "toggle green.zPosition between 0 and 1")] }

    override func update(clock: DemoClock) -> Redraw {
        captionLayer.string = "green.zPosition = \(Int(green.zPosition)) (z): \(green.zPosition > 0 ? "in front" : "behind"). "
            + "Click the overlap: hitTest follows sublayer order, so red is hit either way."
        return .onInput
    }

    override func typed(_ c: Character) -> Bool {
        guard c == "z" else { return false }
        green.zPosition = green.zPosition > 0 ? 0 : 1
        return true
    }
}
