import Foundation
import LayerKitCore

extension DisplayList {
    /// A readable listing of passes, quads, matrices and clips: what `layerkit displaylist`
    /// prints, and the quickest way to see what the compositor decided.
    public func dump() -> String {
        var out = "display list: \(width)x\(height) px, background \(background), \(counted(passes.count, "pass", plural: "passes")), \(counted(quadCount, "quad"))\n"
        for pass in passes {
            out += "pass \(pass.index) \(pass.purpose.rawValue) \(pass.width)x\(pass.height) (\(pass.label))\n"
            switch pass.content {
            case let .blur(source, horizontal, weights):
                out += "  blur pass \(source) along \(horizontal ? "x" : "y"), \(counted(weights.count * 2 - 1, "tap"))\n"
            case let .downsample(source, factor):
                out += "  downsample pass \(source) by \(factor)\n"
            case .quads(let quads):
                for (i, q) in quads.enumerated() {
                    let r = q.rect
                    out += "  quad \(i) '\(q.label)' rect(\(f(r.minX)), \(f(r.minY)), \(f(r.width)), \(f(r.height)))"
                    switch q.shape {
                    case .rect(let c): out += c.radius > 0 ? " " + c.describe(f) : ""
                    case let .border(w, c): out += " border \(f(w))" + (c.radius > 0 ? " " + c.describe(f) : "")
                    }
                    out += " opacity \(f(Double(q.opacity)))\(q.antialiased ? " aa" : "")\n"
                    out += "    fill " + describe(q.fill) + "\n"
                    out += "    transform \(q.transform)\n"
                    for c in q.clips { out += "    \(c)\n" }
                    if let run = q.copyRun {
                        out += "    replicated run: \(counted(run.copies.count, "copy", plural: "copies")) of quads \(i)..<\(i + run.quadsPerCopy)\n"
                    }
                }
            }
        }
        return out
    }

    private func describe(_ fill: Fill) -> String {
        switch fill {
        case .color(let c): return "color \(c)"
        case .image(let img):
            return "image \((img.image.source as NSString).standardizingPath) \(img.image.width)x\(img.image.height)"
                + (img.modulation == ImageFill.unmodulated ? "" : " modulated \(img.modulation)")
                + " x \(list(img.x.stops))→\(list(img.x.texels)) y \(list(img.y.stops))→\(list(img.y.texels))"
                + " min \(img.minification.rawValue) mag \(img.magnification.rawValue)"
        case .pass(let p):
            return "pass \(p.pass) at \(f(p.scale)) px/pt" + (p.mask.map { " masked by pass \($0)" } ?? "")
                + (p.tint.map { " tinted \($0)" } ?? "")
                + (p.crossfade.map { " faded \(f(Double($0.fraction))) into pass \($0.pass)" } ?? "")
        }
    }

    private func f(_ v: CGFloat) -> String { f(Double(v)) }
    private func list(_ vs: [Double]) -> String { "[" + vs.map(f).joined(separator: ", ") + "]" }
    private func f(_ v: Double) -> String { String(format: "%g", v) }
}
