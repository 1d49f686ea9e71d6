// An emitter's particles as quads (docs/scene-format.md, "The particle model", steps 11 and
// 12): each particle is its cell's image, scaled, turned about its centre and multiplied by its
// colour; `renderMode` additive adds them up in a pass of their own.
import Foundation
import LayerKitCore

/// One particle ready to draw: its cell's image and where its quad goes in the emitter's
/// bounds space.
struct PlacedParticle {
    /// Particle space → the emitter's bounds space: scale, then turn, then move to its centre.
    let local: CATransform3D
    /// The quad in particle space: the image's size in points, centred on 0.
    let rect: CGRect
    /// The image, its texel maps and filters, and the particle's colour.
    let fill: ImageFill
    /// Half the diagonal of the scaled quad: it lies within this distance of its centre.
    let radius: Double
    let x: Double, y: Double

    /// The particles of `style` at its time that draw something (a cell with contents), in
    /// drawing order; images mirrored back under an odd number of flipped ancestors (`flipped`),
    /// as contents are.
    static func particles(of style: EmitterStyle, flipped: Bool) -> [PlacedParticle] {
        let all = style.particles()
        // Each cell's image, size and texel maps, made once: its particles share the maps' arrays.
        let looks = style.cells.map { cell -> (image: CGImage, rect: CGRect, x: AxisMap, y: AxisMap, diagonal: Double)? in
            guard let image = cell.contents, cell.contentsScale > 0 else { return nil }
            let cr = cell.contentsRect
            let iw = Double(image.width), ih = Double(image.height)
            let w = iw * Double(cr.width) / Double(cell.contentsScale), h = ih * Double(cr.height) / Double(cell.contentsScale)
            guard w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
            let x = AxisMap(stops: [-w / 2, w / 2], texels: [Double(cr.minX) * iw, Double(cr.maxX) * iw])
            var y = AxisMap(stops: [-h / 2, h / 2], texels: [Double(cr.minY) * ih, Double(cr.maxY) * ih])
            if flipped { y.texels.reverse() }
            return (image, CGRect(x: -w / 2, y: -h / 2, width: w, height: h), x, y, (w * w + h * h).squareRoot())
        }
        var placed: [PlacedParticle] = []
        placed.reserveCapacity(all.count)
        for p in all {
            let cell = style.cells[p.cell]
            guard let look = looks[p.cell] else { continue }
            let modulation = PremultipliedColor(r: Float(p.red * p.alpha), g: Float(p.green * p.alpha), b: Float(p.blue * p.alpha),
                                                a: Float(p.alpha))
            let fill = ImageFill(image: look.image, x: look.x, y: look.y, minification: cell.minificationFilter,
                                 magnification: cell.magnificationFilter, modulation: modulation)
            // Scale, then turn (positive clockwise on the y-down canvas, as a rotation about z),
            // then move to the particle's centre, written out as one matrix.
            let c = CGFloat(p.scale * cos(p.rotation)), s = CGFloat(p.scale * sin(p.rotation))
            var local = CATransform3DIdentity
            (local.m11, local.m12, local.m21, local.m22) = (c, s, -s, c)
            (local.m41, local.m42) = (CGFloat(p.x), CGFloat(p.y))
            placed.append(PlacedParticle(local: local, rect: look.rect, fill: fill, radius: p.scale * look.diagonal / 2, x: p.x, y: p.y))
        }
        return placed
    }

    /// The rectangle, in the emitter's bounds space, that holds every one of `particles`.
    static func extent(of particles: [PlacedParticle]) -> CGRect {
        guard !particles.isEmpty else { return .null }
        var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in particles {
            x0 = min(x0, p.x - p.radius)
            y0 = min(y0, p.y - p.radius)
            x1 = max(x1, p.x + p.radius)
            y1 = max(y1, p.y + p.radius)
        }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The particle's quad drawn through `toTarget` (the emitter's bounds space → target
    /// pixels); `nil` when it is seen edge-on. Particles have no edge antialiasing, as a layer
    /// by default.
    func quad(toTarget: CATransform3D, opacity: Float, clips: [Clip], label: String) -> DrawQuad? {
        let t = local.concatenating(toTarget)
        guard let inverse = PlaneMap(inverseOf: t) else { return nil }
        return DrawQuad(transform: t, inverse: inverse, rect: rect, shape: .rect(corners: .square), fill: .image(fill),
                        opacity: opacity, antialiased: false, clips: clips, label: label)
    }
}

extension EmitterStyle {
    /// Whether a particle may be drawn at the style's time, from its cells alone (no particle
    /// is made): an enabled cell with contents and a positive rate, at a time not before 0.
    var mayDrawParticles: Bool {
        time >= 0 && drawsParticles && cells.contains { $0.isEnabled && $0.contents != nil && Double($0.birthRate) * Double(birthRate) > 0 }
    }
}

extension Builder {
    /// The particles of emitter `l` (whose style is `style`), drawn above everything else the
    /// layer draws, within its `masksToBounds` clip (`clips`). `additive` draws them into a
    /// pass that adds them, drawn back source-over.
    func emitParticles(_ l: LayerSnapshot, style: EmitterStyle, placement: Placement, inverse inv: PlaneMap, opacity o: Float,
                       clips: [Clip], into quads: inout [DrawQuad]) {
        guard o > 0 else { return }
        let particles = PlacedParticle.particles(of: style, flipped: placement.flipped)
        guard !particles.isEmpty else { return }
        particlesPlaced += particles.count
        let label = name(l) + " particles"
        guard style.renderMode == .additive else {
            for p in particles {
                if let q = p.quad(toTarget: placement.toTarget, opacity: o, clips: clips, label: label) { quads.append(q) }
            }
            return
        }
        var extent = PlacedParticle.extent(of: particles).integral
        extent = extent.intersection(l.properties.bounds.insetBy(dx: -8192, dy: -8192))
        guard !extent.isNull, extent.width > 0, extent.height > 0 else { return }
        let passScale = fittedScale(extent, offscreenScale * scale)
        guard let (pw, ph, toPass, _) = passFrame(extent, passScale) else { return }
        let content = particles.compactMap { $0.quad(toTarget: toPass, opacity: 1, clips: [], label: label) }
        let pass = addPass(.additive, pw, ph, .quads(content), label)
        quads.append(passQuad(PassFill(pass: pass, scale: passScale), extent: extent, shift: .identity, opacity: o, clips: clips,
                              into: placement.toTarget, inverse: inv, label: label))
    }
}
