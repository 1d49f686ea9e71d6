import Foundation
import LayerKitCore

/// The coverage rules both backends evaluate per pixel, written once here for the CPU reference
/// (the GL fragment shader in `Shaders/` transcribes the same formulas).
///
/// Everything happens in a layer's local coordinates at the pixel centre. `footprint` is the
/// local-space length of one pixel along the direction that matters, from the analytic
/// Jacobian of the pixel → local homography, so antialiasing widths agree in perspective.
package enum QuadCoverage {
    /// Local point and the Jacobian of pixel → local at pixel centre `(px, py)`, or `nil` when the
    /// pixel sees the plane from behind the eye.
    @inline(__always)
    package static func local(_ m: PlaneMap, _ px: Double, _ py: Double)
        -> (x: Double, y: Double, dxdpx: Double, dydpx: Double, dxdpy: Double, dydpy: Double)? {
        let h = m.apply(px, py)
        guard h.w > 0 else { return nil }
        let iw = 1 / h.w
        let x = h.x * iw, y = h.y * iw
        return (x, y, (m.m.0 - x * m.m.2) * iw, (m.m.1 - y * m.m.2) * iw,
                (m.m.3 - x * m.m.5) * iw, (m.m.4 - y * m.m.5) * iw)
    }

    /// Coverage of a rectangle with corners rounded as `corners` say at local `(x, y)`:
    /// straight edges are aliased (pixel centre inside, half-open) unless `antialiased`; corners
    /// always are. `jac` is the pixel → local Jacobian `(dx/dpx, dy/dpx, dx/dpy, dy/dpy)`.
    ///
    /// The radius is clamped to half the shorter side; each quadrant of the rectangle takes its
    /// own corner's radius (0 where `maskedCorners` leaves it square). A circular corner's
    /// distance is exact; a continuous corner's (`ContinuousCorner`'s superellipse) is the
    /// first-order estimate, the superellipse's norm less its half-axis over the norm's
    /// gradient, which is what antialiasing needs within a pixel of the curve.
    @inline(__always)
    package static func roundedRect(x: Double, y: Double, minX: Double, minY: Double, maxX: Double, maxY: Double,
                                   corners: Corners, antialiased: Bool,
                                   jac: (Double, Double, Double, Double)) -> Double {
        let hw = (maxX - minX) * 0.5, hh = (maxY - minY) * 0.5
        let left = x < minX + hw, top = y < minY + hh
        let s = min(hw, hh)
        let corner: CACornerMask = left ? (top ? .layerMinXMinYCorner : .layerMinXMaxYCorner)
                                        : (top ? .layerMaxXMinYCorner : .layerMaxXMaxYCorner)
        let r = corners.mask.contains(corner) ? min(max(corners.radius, 0), s) : 0
        let continuous = corners.continuous && r > 0
        let a = continuous ? ContinuousCorner.halfAxis(radius: r, halfSide: s) : r
        let qx = abs(x - (minX + hw)) - (hw - a), qy = abs(y - (minY + hh)) - (hh - a)
        let inCorner = qx > 0 && qy > 0 && a > 0
        if !antialiased && !inCorner {
            return x >= minX && x < maxX && y >= minY && y < maxY ? 1 : 0
        }
        if continuous && inCorner {
            // Pixels well clear of the curve, decided without the powers below (the CPU's
            // shortcut; the shader computes every pixel in full): with n ≥ 2 the norm N lies
            // between max(qx, qy) and √(qx² + qy²), the gradient's length is at most 1 (so
            // the distance is at least |N − a| on the same side), and the pixel-space gradient
            // at most the Jacobian's Frobenius norm, so beyond half of that (with a margin
            // for rounding) the formula's clamp gives exactly 0 or 1.
            let slack = 0.5001 * (jac.0 * jac.0 + jac.1 * jac.1 + jac.2 * jac.2 + jac.3 * jac.3).squareRoot() + 1e-9 * a
            if max(qx, qy) - a > slack { return 0 }
            if a - (qx * qx + qy * qy).squareRoot() > slack { return 1 }
        }
        let n = continuous && inCorner ? ContinuousCorner.exponent(radius: r, halfAxis: a) : 2
        // Signed distance to the rounded rectangle (negative inside) and its gradient direction.
        var d: Double, nx: Double, ny: Double
        if qx > 0 && qy > 0 && n != 2 {
            // The superellipse's norm N = (qx^n + qy^n)^(1/n), scaled by the larger of the two
            // so that the powers stay near 1; its gradient is ((qx/N)^(n-1), (qy/N)^(n-1)).
            let m = max(qx, qy)
            let norm = m * pow(pow(qx / m, n) + pow(qy / m, n), 1 / n)
            let gx = pow(qx / norm, n - 1), gy = pow(qy / norm, n - 1)
            let gl = (gx * gx + gy * gy).squareRoot()
            d = (norm - a) / gl
            nx = gx / gl
            ny = gy / gl
        } else if qx > 0 && qy > 0 {
            let l = (qx * qx + qy * qy).squareRoot()
            d = l - a
            nx = qx / l
            ny = qy / l
        } else if qx > qy {
            d = qx - a
            nx = 1
            ny = 0
        } else {
            d = qy - a
            nx = 0
            ny = 1
        }
        if left { nx = -nx }
        if top { ny = -ny }
        // Pixel-space length of the gradient of the distance.
        let gx = nx * jac.0 + ny * jac.1, gy = nx * jac.2 + ny * jac.3
        let g = (gx * gx + gy * gy).squareRoot()
        guard g > 0 else { return d <= 0 ? 1 : 0 }
        return min(max(0.5 - d / g, 0), 1)
    }

    /// Level of detail of a texture lookup (log2 of texels per pixel along the longer screen
    /// axis, as OpenGL defines λ), from texel-space derivatives.
    @inline(__always)
    package static func lod(dudx: Double, dvdx: Double, dudy: Double, dvdy: Double) -> Double {
        let rho = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
        return rho > 0 ? 0.5 * log2(rho) : -.infinity
    }
}
