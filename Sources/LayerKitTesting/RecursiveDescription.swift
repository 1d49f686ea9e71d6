import LayerKit

extension CALayer {
    /// The tree as `Snapshotting.recursiveDescription` writes it: this layer, then each
    /// sublayer one level deeper (a mask is listed as `mask:` before them).
    func recursiveDescription() -> String {
        var lines: [String] = []
        describe(into: &lines, depth: 0, role: "")
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(into lines: inout [String], depth: Int, role: String) {
        lines.append(String(repeating: "   | ", count: depth) + role + "<" + descriptionFields().joined(separator: "; ") + ">")
        mask?.describe(into: &lines, depth: depth + 1, role: "mask: ")
        for layer in sublayers ?? [] { layer.describe(into: &lines, depth: depth + 1, role: "") }
    }

    /// The class and name, geometry, then each property that is not Core Animation's default.
    private func descriptionFields() -> [String] {
        var f = [String(describing: type(of: self)) + (name.map { " \"\($0)\"" } ?? "")]
        func add<T: Equatable>(_ label: String, _ value: T, _ standard: T, _ spell: (T) -> String) {
            if value != standard { f.append("\(label) = \(spell(value))") }
        }
        f.append("frame = \(spell(frame))")
        add("bounds.origin", bounds.origin, .zero, spell)
        add("anchorPoint", anchorPoint, CGPoint(x: 0.5, y: 0.5), spell)
        add("zPosition", zPosition, 0, number)
        add("transform", transform, CATransform3DIdentity, spell)
        add("sublayerTransform", sublayerTransform, CATransform3DIdentity, spell)
        add("isHidden", isHidden, false, { "\($0)" })
        add("opacity", Double(opacity), 1, number)
        add("backgroundColor", backgroundColor, nil, spell)
        add("cornerRadius", cornerRadius, 0, number)
        add("borderWidth", borderWidth, 0, number)
        if borderWidth != 0 { f.append("borderColor = \(spell(borderColor))") }
        add("masksToBounds", masksToBounds, false, { "\($0)" })
        add("isDoubleSided", isDoubleSided, true, { "\($0)" })
        add("isGeometryFlipped", isGeometryFlipped, false, { "\($0)" })
        if let contents { f.append("contents = \(contents.width)x\(contents.height) px") }
        if contents != nil { add("contentsGravity", contentsGravity, .resize, { $0.rawValue }) }
        if shadowOpacity != 0 {
            f.append("shadow = \(spell(shadowColor)) opacity \(number(Double(shadowOpacity))) offset \(spell(shadowOffset)) radius \(number(shadowRadius))")
        }
        add("shouldRasterize", shouldRasterize, false, { "\($0)" })
        add("timing", [beginTime, Double(speed), timeOffset], [0, 1, 0]) { "beginTime \(number($0[0])) speed \(number($0[1])) timeOffset \(number($0[2]))" }
        if let shape = self as? CAShapeLayer {
            f.append("path = \(shape.path.map { spell($0.boundingBox) } ?? "nil")")
            f.append("fillColor = \(spell(shape.fillColor))")
            add("strokeColor", shape.strokeColor, nil, spell)
            if shape.strokeColor != nil { f.append("lineWidth = \(number(shape.lineWidth))") }
            add("stroke", [shape.strokeStart, shape.strokeEnd], [0, 1]) { "\(number($0[0]))…\(number($0[1]))" }
        }
        if let text = self as? CATextLayer {
            f.append("string = \(text.string.map { "\"\($0)\"" } ?? "nil")")
            f.append("font = \(text.font ?? "default") \(number(text.fontSize))")
            f.append("foregroundColor = \(spell(text.foregroundColor))")
        }
        if let gradient = self as? CAGradientLayer {
            let colors = (gradient.colors ?? []).map { ($0 as? CGColor).map(spell) ?? "?" }
            f.append("colors = [\(colors.joined(separator: ", "))]")
            f.append("from \(spell(gradient.startPoint)) to \(spell(gradient.endPoint))")
        }
        for key in animationKeys() ?? [] {
            guard let a = animation(forKey: key) else { continue }
            let path = (a as? CAPropertyAnimation)?.keyPath.map { " \($0)" } ?? ""
            f.append("animation \"\(key)\" = \(type(of: a))\(path) duration \(number(a.duration))")
        }
        return f
    }
}

extension Canvas {
    /// `400x300 pt at 2x on #FFFFFF`.
    var describedForSnapshot: String {
        "\(number(width))x\(number(height)) pt at \(number(scale))x on \(spell(background))"
    }
}

/// A number as the text snapshots write it: the shortest decimal that reads back to the same
/// value, without a trailing `.0` (so it is the same on every machine).
func number(_ v: CGFloat) -> String { number(Double(v)) }

func number(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
}

private func spell(_ p: CGPoint) -> String { "(\(number(p.x)) \(number(p.y)))" }
private func spell(_ s: CGSize) -> String { "(\(number(s.width)) \(number(s.height)))" }
private func spell(_ r: CGRect) -> String { "(\(number(r.minX)) \(number(r.minY)); \(number(r.width)) \(number(r.height)))" }

private func spell(_ t: CATransform3D) -> String {
    let m = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
    return "[" + m.map(number).joined(separator: " ") + "]"
}

/// `#RRGGBB`, with `AA` when not opaque: 8 bits a channel, as the PNGs have them.
private func spell(_ c: CGColor?) -> String {
    guard let c else { return "nil" }
    let channels = c.alpha == 1 ? [c.red, c.green, c.blue] : [c.red, c.green, c.blue, c.alpha]
    return "#" + channels.map { String(format: "%02X", Int((min(max($0, 0), 1) * 255).rounded())) }.joined()
}
