import Foundation
import LayerKitCore

/// Custom drawing, live: two layers whose contents the page draws with `CGContext` as their
/// `CALayerDelegate` (`draw(_:in:)`). The left one draws a line from its centre to the pointer
/// and a crosshair through it, and is marked with `setNeedsDisplay()` whenever the pointer
/// moves; the right one, a bar chart, is drawn once and never marked again, so it is never
/// redrawn. A line in the canvas counts the layers the last redraw drew.
final class LiveDrawingPage: Page, CALayerDelegate {
    /// The layer that follows the pointer.
    let live = CALayer()
    /// The bar chart drawn once.
    let still = CALayer()
    /// Where the pointer is, in `live`'s coordinates.
    private(set) var pointer = CGPoint(x: 160, y: 40)
    /// How many layers were drawn since the frame began (`update(clock:)`), and by layer
    /// name how many times each has been drawn in all.
    private(set) var drawnThisFrame = 0
    private(set) var drawCounts: [String: Int] = [:]
    private let counter: CATextLayer

    /// The chart's bar heights, in points.
    static let bars: [CGFloat] = [120, 200, 80, 160, 240]

    init() {
        let (canvas, root) = Page.whiteCanvas(560, 380)
        counter = Page.caption(canvasWidth: canvas.width, y: 320)
        counter.name = "counter"
        super.init(id: "live-drawing", title: "draw(in:): only the layer marked with setNeedsDisplay redraws",
                   canvas: canvas, root: root)
        live.name = "live"
        live.frame = CGRect(x: 20, y: 20, width: 320, height: 280)
        still.name = "still"
        still.frame = CGRect(x: 360, y: 20, width: 180, height: 280)
        // The counter comes after the drawn layers: the snapshot reaches it after they have
        // drawn, so it shows this frame's count.
        for l in [live, still, counter] { root.addSublayer(l) }
        for l in [live, still] {
            l.delegate = self
            l.setNeedsDisplay()
        }
    }

    override var keys: [KeyHelp] { [KeyHelp(key: "move", action: "the left layer redraws its line to the pointer")] }

    override func update(clock: DemoClock) -> Redraw {
        drawnThisFrame = 0
        return .onInput
    }

    override func adoptScreenScale(_ scale: CGFloat) {
        super.adoptScreenScale(scale)
        // Drawn contents have pixels of their own: at a new scale both layers draw again.
        for l in [live, still] where l.contentsScale != scale {
            l.contentsScale = scale
            l.setNeedsDisplay()
        }
    }

    override func pointerMoved(to p: CGPoint) -> Bool {
        pointer = live.convert(p, from: root)
        live.setNeedsDisplay()
        return true
    }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        drawnThisFrame += 1
        drawCounts[layer.name ?? "", default: 0] += 1
        if layer === live { drawLine(in: ctx) } else { drawChart(in: ctx) }
        counter.string = "Layers drawn at the last redraw: \(drawnThisFrame). Draws so far: "
            + "the left layer \(drawCounts["live"] ?? 0), the chart \(drawCounts["still"] ?? 0)."
    }

    /// A pale panel, a grey crosshair through the pointer and a red 4-point line from the
    /// centre to it.
    private func drawLine(in ctx: CGContext) {
        let b = live.bounds
        ctx.setFillColor(red: 0.93, green: 0.95, blue: 1, alpha: 1)
        ctx.fill(b)
        ctx.setStrokeColor(red: 0.6, green: 0.6, blue: 0.6, alpha: 1)
        ctx.setLineWidth(1)
        ctx.strokeLineSegments(between: [CGPoint(x: b.minX, y: pointer.y), CGPoint(x: b.maxX, y: pointer.y),
                                         CGPoint(x: pointer.x, y: b.minY), CGPoint(x: pointer.x, y: b.maxY)])
        ctx.setStrokeColor(red: 0.85, green: 0.1, blue: 0.1, alpha: 1)
        ctx.setLineWidth(4)
        ctx.move(to: CGPoint(x: b.midX, y: b.midY))
        ctx.addLine(to: pointer)
        ctx.strokePath()
    }

    /// Blue bars standing on the bottom edge, 24 points wide with 10 between, on white.
    private func drawChart(in ctx: CGContext) {
        let b = still.bounds
        ctx.setFillColor(red: 0.97, green: 0.97, blue: 0.97, alpha: 1)
        ctx.fill(b)
        ctx.setFillColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        ctx.fill(Self.bars.enumerated().map { i, h in
            CGRect(x: 10 + CGFloat(i) * 34, y: b.maxY - h, width: 24, height: h)
        })
    }
}
