import Foundation

/// When a matrix counts as singular, for `CATransform3DInvert`, `CGAffineTransformInvert`, hit
/// testing, `convert` and the compositor alike.
package enum Singularity {
    /// Whether a determinant is zero for a matrix of `dimension` rows in the row-vector
    /// convention, relative to the matrix's scale: `|det| ≤ 1e-12 · rowScale^(n−1) ·
    /// columnScale`, where `rowScale` is the length of the longest row but the last (the
    /// images of the axes) and `columnScale` the length of the last column (w). The measure is
    /// the same for the matrix times any factor, for any uniform scale of the input and for
    /// any translation, so only shape counts: an axis squeezed to 1e-12 of the longest one, or
    /// a plane seen edge-on, is singular (rounding leaves determinants near 1e-16 there), and a
    /// tiny uniform scale is not. Comparing a computed inverse with the matrix is no test: an
    /// involution such as scale(−1, −1, 1) is its own inverse.
    package static func isNegligible(determinant det: CGFloat, dimension: Int, rowScale: CGFloat, columnScale: CGFloat) -> Bool {
        guard det.isFinite else { return true }
        var scale = columnScale
        for _ in 1..<dimension { scale *= rowScale }
        return abs(det) <= 1e-12 * scale
    }
}

extension BinaryFloatingPoint {
    // Inlinable, so that it is specialized where used: called generically from another module
    // (the compositor asks for every layer's opacity each frame), it cost 300 instructions.
    /// The value clamped to 0…1: how a fraction set out of range (`opacity`, `strokeEnd`…) is
    /// drawn.
    @inlinable package var clampedToUnitInterval: Self { min(max(self, 0), 1) }
}
