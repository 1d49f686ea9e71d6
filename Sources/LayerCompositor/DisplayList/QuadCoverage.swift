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

    /// Coverage of a rectangle with corners rounded as `corners` say: straight edges are aliased
    /// (pixel centre inside, half-open) unless `antialiased`; corners always are. What does not
    /// depend on the point is resolved once, when the rectangle is made (the same operations on
    /// the same numbers as per point would be, so the coverage is the same to the bit); a class,
    /// so that the per-pixel call passes one pointer, not a copy of the four corners.
    ///
    /// The radius is clamped to half the shorter side; each quadrant of the rectangle takes its
    /// own corner's radius (0 where `maskedCorners` leaves it square). A circular corner's
    /// distance is exact; a continuous corner's (`ContinuousCorner`'s superellipse) is the
    /// first-order estimate, the superellipse's norm less its half-axis over the norm's
    /// gradient, which is what antialiasing needs within a pixel of the curve.
    package final class RoundedRect {
        /// One quadrant's corner: the curve's half-axis `a` (the radius for a circle, 0 for a
        /// square corner), the superellipse's exponent `n` (2 for a circle), and where the
        /// corner region begins, measured from the centre (`hw − a`, `hh − a`).
        @usableFromInline
        struct Corner {
            @usableFromInline let a: Double, n: Double, continuous: Bool, fromCentreX: Double, fromCentreY: Double
        }

        @usableFromInline let minX: Double, minY: Double, maxX: Double, maxY: Double
        @usableFromInline let midX: Double, midY: Double
        @usableFromInline let antialiased: Bool
        /// The corners by quadrant: min x min y, max x min y, min x max y, max x max y.
        @usableFromInline let quadrants: (Corner, Corner, Corner, Corner)

        package init(minX: Double, minY: Double, maxX: Double, maxY: Double, corners: Corners, antialiased: Bool) {
            let hw = (maxX - minX) * 0.5, hh = (maxY - minY) * 0.5
            let s = min(hw, hh)
            func corner(_ c: CACornerMask) -> Corner {
                let r = corners.mask.contains(c) ? min(max(corners.radius, 0), s) : 0
                let continuous = corners.continuous && r > 0
                let a = continuous ? ContinuousCorner.halfAxis(radius: r, halfSide: s) : r
                let n = continuous ? ContinuousCorner.exponent(radius: r, halfAxis: a) : 2
                return Corner(a: a, n: n, continuous: continuous, fromCentreX: hw - a, fromCentreY: hh - a)
            }
            (self.minX, self.minY, self.maxX, self.maxY, self.antialiased) = (minX, minY, maxX, maxY, antialiased)
            (midX, midY) = (minX + hw, minY + hh)
            quadrants = (corner(.layerMinXMinYCorner), corner(.layerMaxXMinYCorner),
                         corner(.layerMinXMaxYCorner), corner(.layerMaxXMaxYCorner))
        }

        /// The coverage at local `(x, y)`; `jac` is the pixel → local Jacobian
        /// `(dx/dpx, dy/dpx, dx/dpy, dy/dpy)`.
        @inline(__always)
        package func coverage(x: Double, y: Double, jac: (Double, Double, Double, Double)) -> Double {
            coverage(x: x, y: y, jac: jac, slack: QuadCoverage.slack(jac))
        }

        /// `coverage(x:y:jac:)` given `slack(jac)`, which a caller whose Jacobian is the same at
        /// every pixel (an affine map) works out once. Inlinable, so that the CPU renderer's
        /// per-pixel loop makes no call.
        @inlinable @inline(__always)
        package func coverage(x: Double, y: Double, jac: (Double, Double, Double, Double), slack: Double) -> Double {
            let left = x < midX, top = y < midY
            let c = left ? (top ? quadrants.0 : quadrants.2) : (top ? quadrants.1 : quadrants.3)
            let a = c.a
            let qx = abs(x - midX) - c.fromCentreX, qy = abs(y - midY) - c.fromCentreY
            let inCorner = qx > 0 && qy > 0 && a > 0
            if !antialiased && !inCorner {
                return x >= minX && x < maxX && y >= minY && y < maxY ? 1 : 0
            }
            // Pixels well clear of the curve, decided without the divisions and powers below
            // (the CPU's shortcut; the shader computes every pixel in full): the gradient of
            // the distance has length at most 1 (with rounding, a little over), so its
            // pixel-space length g is at most the Jacobian's Frobenius norm F, and where the
            // distance d exceeds half of that (`slack`, with a margin for rounding) 0.5 − d/g is
            // below 0 or above 1 and the clamp gives exactly 0 or 1 (also for g = 0, where the
            // sign of d decides). A circle's distance is exact, l − a; with n ≥ 2 the superellipse's norm N
            // lies between max(qx, qy) and √(qx² + qy²), so its distance is at least |N − a|
            // on the same side. (Not for a circle below 1e-100, where F's squares could lose
            // their digits to underflow.)
            if c.continuous && inCorner {
                let e = slack + 1e-9 * a
                if max(qx, qy) - a > e { return 0 }
                if a - (qx * qx + qy * qy).squareRoot() > e { return 1 }
            }
            // Signed distance to the rounded rectangle (negative inside) and its gradient direction.
            var d: Double, nx: Double, ny: Double
            if inCorner && c.n != 2 {
                // The superellipse's norm N = (qx^n + qy^n)^(1/n), scaled by the larger of the two
                // so that the powers stay near 1; its gradient is ((qx/N)^(n-1), (qy/N)^(n-1)).
                let n = c.n, m = max(qx, qy)
                let norm = m * pow(pow(qx / m, n) + pow(qy / m, n), 1 / n)
                let gx = pow(qx / norm, n - 1), gy = pow(qy / norm, n - 1)
                let gl = (gx * gx + gy * gy).squareRoot()
                d = (norm - a) / gl
                nx = gx / gl
                ny = gy / gl
            } else if qx > 0 && qy > 0 {
                let l = (qx * qx + qy * qy).squareRoot()
                d = l - a
                if abs(d) > slack && slack > 1e-100 { return d > 0 ? 0 : 1 }
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
    }

    /// Half the pixel → local Jacobian's Frobenius norm (with a margin for rounding): at most half
    /// the pixel-space length of a unit local gradient, which `RoundedRect.coverage` compares
    /// distances with.
    @inlinable @inline(__always)
    package static func slack(_ jac: (Double, Double, Double, Double)) -> Double {
        0.5001 * (jac.0 * jac.0 + jac.1 * jac.1 + jac.2 * jac.2 + jac.3 * jac.3).squareRoot()
    }

    /// Level of detail of a texture lookup (log2 of texels per pixel along the longer screen
    /// axis, as OpenGL defines λ), from texel-space derivatives.
    @inline(__always)
    package static func lod(dudx: Double, dvdx: Double, dudy: Double, dvdy: Double) -> Double {
        let rho = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
        return rho > 0 ? 0.5 * log2(rho) : -.infinity
    }
}
