// Core Animation's debug colouring (Instruments' "Color Blended Layers", "Color Offscreen-
// Rendered Yellow", "Color Misaligned Images"), made from the display list alone: the tints
// are ordinary quads, so every backend draws them with the code that draws the frame, and the
// GL ≡ CPU rule holds for them as for any quad. docs/debug-overlays.md states the rules.
import Foundation
import LayerKitCore

/// One of Core Animation's debug overlays (Instruments' Core Animation options): each tints
/// the canvas's quads by what drawing them costs.
public enum DebugOverlay: String, CaseIterable, Sendable {
    /// "Color Blended Layers": green over quads drawn opaque (no blending needed), red over
    /// quads that blend with what is under them; stacked blended quads get redder.
    case blended
    /// "Color Offscreen-Rendered Yellow": yellow over layers drawn through an offscreen pass
    /// (group opacity, masks, shadows, `shouldRasterize`, transitions, additive emitters).
    case offscreen
    /// "Color Misaligned Images": magenta over images whose texels do not land on whole
    /// pixels, yellow over images drawn scaled; nothing over images drawn 1:1.
    case misaligned
}

extension DebugOverlay {
    /// The opacity of every tint: strong enough to read, weak enough to see the frame through,
    /// and 102/255 exactly, so tinted pixels are easy to compute by hand.
    public static let tintAlpha: Float = 0.4

    /// A tint of `r, g, b` (each 0 or 1) at `tintAlpha`, premultiplied.
    private static func tint(_ r: Float, _ g: Float, _ b: Float) -> PremultipliedColor {
        PremultipliedColor(r: r * tintAlpha, g: g * tintAlpha, b: b * tintAlpha, a: tintAlpha)
    }

    /// Green: a quad drawn opaque.
    public static let opaqueTint = tint(0, 1, 0)
    /// Red: a quad that blends.
    public static let blendedTint = tint(1, 0, 0)
    /// Yellow: a layer drawn through an offscreen pass.
    public static let offscreenTint = tint(1, 1, 0)
    /// Yellow too, as in Instruments: an image drawn scaled.
    public static let scaledTint = tint(1, 1, 0)
    /// Magenta: an image drawn at a fractional pixel offset (or rotated, skewed, in perspective).
    public static let misalignedTint = tint(1, 0, 1)

    /// The tint this overlay draws over `quad` (a quad of the canvas), or `nil` for none.
    package func tint(for quad: DrawQuad) -> PremultipliedColor? {
        switch self {
        case .blended:
            return quad.blends ? Self.blendedTint : Self.opaqueTint
        case .offscreen:
            if case .pass = quad.fill { return Self.offscreenTint }
            return nil
        case .misaligned:
            switch quad.imageAlignment {
            case .aligned?, nil: return nil
            case .scaled?: return Self.scaledTint
            case .misaligned?: return Self.misalignedTint
            }
        }
    }
}

extension DisplayList {
    /// The same frame with `overlay`'s tints drawn on the canvas: right after each canvas quad it
    /// tints comes a quad of the same geometry, shape, antialiasing and clips filled with the
    /// tint, so whatever is drawn over the quad later is drawn over its tint too (a layer hidden
    /// under an opaque one does not show through), as Instruments colours each layer.
    ///
    /// Only the canvas's quads are tinted: a layer drawn through an offscreen pass reaches the
    /// canvas as the one quad that draws the pass back (blended: a pass's pixels are not known
    /// to be opaque), and that quad is what the tint covers.
    public func withDebugOverlay(_ overlay: DebugOverlay) -> DisplayList {
        var out = self
        let canvas = passes.count - 1
        guard case .quads(let quads) = passes[canvas].content else { return out }
        var tinted: [DrawQuad] = []
        tinted.reserveCapacity(quads.count * 2)
        for var q in quads {
            // A tint put between a replicated run's quads breaks the run into quads again: its
            // copies no longer follow one another.
            q.copyRun = nil
            tinted.append(q)
            if let tint = overlay.tint(for: q) { tinted.append(q.tinted(tint, overlay)) }
        }
        out.passes[canvas].content = .quads(tinted)
        return out
    }

    /// The same frame with `rects` (canvas pixels) filled with `color` over everything, in order:
    /// the demo's "Flash Updated Regions".
    package func withHighlights(_ rects: [CGRect], color: PremultipliedColor) -> DisplayList {
        guard !rects.isEmpty else { return self }
        var out = self
        let canvas = passes.count - 1
        guard case .quads(var quads) = passes[canvas].content else { return out }
        let identity = PlaneMap(1, 0, 0, 0, 1, 0, 0, 0, 1)
        for r in rects {
            quads.append(DrawQuad(transform: CATransform3DIdentity, inverse: identity, rect: r, shape: .rect(corners: .square),
                                  fill: .color(color), opacity: 1, antialiased: false, clips: [], label: "highlight"))
        }
        out.passes[canvas].content = .quads(quads)
        return out
    }
}

extension DrawQuad {
    /// How an image quad's texels land on pass pixels (`DebugOverlay.misaligned`).
    package enum ImageAlignment: Equatable, Sendable {
        /// Every texel on one whole pixel: the quad maps texels to pixels by ±1 along each axis
        /// and texel edges fall on pixel edges.
        case aligned
        /// Texels stretched or shrunk: some segment of an axis maps a texel onto other than one
        /// pixel.
        case scaled
        /// One texel a pixel but between pixels (a fractional offset), or not along the pixel
        /// axes at all (rotated, skewed, in perspective).
        case misaligned
    }

    /// Whether drawing the quad blends with what is under it: anything but a quad whose every
    /// covered pixel is replaced by an opaque colour. It is drawn opaque when its opacity is 1,
    /// its fill opaque (a colour of alpha 1, or an image with no translucent texel and no
    /// translucent modulation; a pass never counts as opaque) and its coverage only ever 0 or 1
    /// (straight edges aliased and corners square: `hasBinaryCoverage`; every clip aliased and
    /// square too, half-planes always are). (Inlined, like `coveredArea`, so that a caller
    /// reading the quad out of an array reads only the fields used: a call made it copy the
    /// whole quad first, for every quad that moved.)
    @inline(__always)
    package var blends: Bool {
        guard opacity == 1, hasBinaryCoverage else { return true }
        for c in clips {
            if case let .roundedRect(_, corners, antialiased) = c.shape, antialiased || !corners.isSquare { return true }
        }
        switch fill {
        case .color(let c): return c.a != 1
        case .image(let f): return f.image.alphaInfo != .noneSkipLast || f.modulation.a != 1
        case .pass: return true
        }
    }

    /// How an image quad's texels land on pass pixels, or `nil` for a quad that draws no image.
    ///
    /// Along each axis the quad maps local coordinates to pixels (`transform`) and local
    /// coordinates to texels (the fill's `AxisMap`, one segment, or three for a nine-slice), so
    /// each segment maps texel `t` to pixel `a·t + b`. The image is aligned when every segment
    /// has |a| = 1 and `b` a whole number (to within 1e-6), scaled when some |a| ≠ 1, and
    /// misaligned when the scale is 1 but some `b` is fractional, or when `transform` is not a
    /// scale and translation of the plane (rotation, skew, perspective: texels cannot land on
    /// pixels).
    package var imageAlignment: ImageAlignment? {
        guard case .image(let f) = fill else { return nil }
        let t = transform
        let eps = 1e-6
        // The plane homography (rows and columns 1, 2, 4) must be x' = sx·x + tx, y' = sy·y + ty.
        guard abs(Double(t.m12)) < eps, abs(Double(t.m21)) < eps, abs(Double(t.m14)) < eps, abs(Double(t.m24)) < eps,
              abs(Double(t.m44) - 1) < eps else { return .misaligned }
        var result = ImageAlignment.aligned
        for (map, scale, offset) in [(f.x, Double(t.m11), Double(t.m41)), (f.y, Double(t.m22), Double(t.m42))] {
            for i in 0..<(map.stops.count - 1) {
                let local = map.stops[i + 1] - map.stops[i], texels = map.texels[i + 1] - map.texels[i]
                guard local != 0 else { continue }
                // Pixels per texel, and the pixel of texel 0 on this segment's line.
                guard texels != 0 else { return .scaled }
                let a = scale * local / texels
                let b = scale * map.stops[i] + offset - a * map.texels[i]
                if abs(abs(a) - 1) > eps { return .scaled }
                if abs(b - b.rounded()) > eps { result = .misaligned }
            }
        }
        return result
    }

    /// A copy filled with `tint` at opacity 1, its geometry, shape, antialiasing and clips kept.
    fileprivate func tinted(_ tint: PremultipliedColor, _ overlay: DebugOverlay) -> DrawQuad {
        var q = self
        q.fill = .color(tint)
        q.opacity = 1
        q.label = label + " (\(overlay.rawValue) overlay)"
        return q
    }

    /// The area in pass pixels of what the quad covers, its rectangle (less the hole, for a
    /// border) projected, cut by the half-planes of its 3D split (a piece covers its part of
    /// the layer alone) and to the `width` x `height` pass; rounded corners and other clips are
    /// not subtracted. What `FrameCounter.blendedPixels` adds up.
    @inline(__always)
    package func coveredArea(width: Int, height: Int) -> Double {
        let (w, h) = (Double(width), Double(height))
        let t = transform
        let affine = t.m14 == 0 && t.m24 == 0 && t.m44 == 1
        var halfPlanes: [(a: Double, b: Double, c: Double)] = []
        for c in clips {
            if case let .halfPlane(a, b, cc) = c.shape { halfPlanes.append(c.map.pulledBack((a, b, cc))) }
        }
        func area(_ r: CGRect) -> Double {
            let r = r.standardized
            guard r.width > 0, r.height > 0 else { return 0 }
            // The usual case, counted every frame for every changed quad: a plane map without
            // perspective whose corners are all inside the pass scales every area by the same
            // |determinant|, with no polygon to build.
            if affine && halfPlanes.isEmpty {
                let (a, b, c, d) = (Double(t.m11), Double(t.m12), Double(t.m21), Double(t.m22))
                let (x0, y0) = (Double(r.minX), Double(r.minY))
                let (dx, dy) = (Double(r.width), Double(r.height))
                let px = a * x0 + c * y0 + Double(t.m41), py = b * x0 + d * y0 + Double(t.m42)
                let xs = (px, px + a * dx, px + c * dy, px + a * dx + c * dy)
                let ys = (py, py + b * dx, py + d * dy, py + b * dx + d * dy)
                if min(xs.0, xs.1, xs.2, xs.3) >= 0, max(xs.0, xs.1, xs.2, xs.3) <= w,
                   min(ys.0, ys.1, ys.2, ys.3) >= 0, max(ys.0, ys.1, ys.2, ys.3) <= h {
                    return abs(a * d - b * c) * dx * dy
                }
            }
            guard var outline = projectedOutline(rect: r) else { return 0 }
            for cut in halfPlanes where !outline.isEmpty { outline = clipPolygon(outline, cut) }
            return polygonArea(clip(outline, toWidth: w, height: h))
        }
        let outer = area(rect)
        guard case .border(let border, _) = shape else { return outer }
        return max(outer - area(rect.standardized.insetBy(dx: border, dy: border)), 0)
    }
}

/// `poly` cut to the rectangle 0…`width` x 0…`height`, one edge at a time.
private func clip(_ poly: [SIMD2<Double>], toWidth width: Double, height: Double) -> [SIMD2<Double>] {
    // A polygon inside (most are) would come back point for point from each cut.
    if poly.allSatisfy({ $0.x >= 0 && $0.x <= width && $0.y >= 0 && $0.y <= height }) { return poly }
    var out = poly
    for edge in [(1.0, 0.0, 0.0), (-1, 0, width), (0, 1, 0), (0, -1, height)] where !out.isEmpty { out = clipPolygon(out, edge) }
    return out
}

/// The area of a simple polygon (shoelace), whichever way it turns.
private func polygonArea(_ poly: [SIMD2<Double>]) -> Double {
    guard poly.count >= 3 else { return 0 }
    var twice = 0.0
    for i in poly.indices {
        let p = poly[i], q = poly[(i + 1) % poly.count]
        twice += p.x * q.y - q.x * p.y
    }
    return abs(twice) / 2
}
