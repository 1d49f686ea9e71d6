// The one rule every numeric setter of CALayer and its typed subclasses follows, kept here so
// that it is the same everywhere:
//
// - A value with any NaN or infinite component (a coordinate, a size, one of a transform's 16
//   entries, one element of an array) is ignored: the property keeps its previous value. A
//   non-finite number has no meaning as geometry, and once stored it would poison every matrix
//   and bounding box computed from it; ignoring it keeps the tree drawable.
// - Properties that are fractions (`opacity`, `shadowOpacity`, `strokeStart`, `strokeEnd`) keep a
//   finite value as given, out of 0…1 included, and the compositor clamps it when drawing
//   (`LayerProperties.drawnOpacity` and its siblings): Core Animation's setters store what they
//   are given ("values outside that range are clamped" describes what is drawn), so reading a
//   property back gives what was set, and an animation may pass through values beyond 1.
//
// `LayerProperties` and the typed style structs are plain values and check nothing: code that
// writes them directly (the scene reader, which refuses such numbers itself with their JSON
// path) owns the check. Renderers still draw nothing rather than crash on a non-finite value.

import Foundation

/// A property value built from floating-point numbers, any of which may be NaN or infinite.
package protocol FiniteCheckable {
    /// Whether every number in the value is finite.
    var isFiniteValue: Bool { get }
}

extension CGFloat: FiniteCheckable { package var isFiniteValue: Bool { isFinite } }
extension Float: FiniteCheckable { package var isFiniteValue: Bool { isFinite } }
extension Double: FiniteCheckable { package var isFiniteValue: Bool { isFinite } }
extension CGPoint: FiniteCheckable { package var isFiniteValue: Bool { x.isFinite && y.isFinite } }
extension CGSize: FiniteCheckable { package var isFiniteValue: Bool { width.isFinite && height.isFinite } }
extension CGRect: FiniteCheckable { package var isFiniteValue: Bool { origin.isFiniteValue && size.isFiniteValue } }
extension CATransform3D: FiniteCheckable {
    // Spelled out rather than `entries.allSatisfy`: animations set transforms every frame, and
    // this allocates nothing.
    package var isFiniteValue: Bool {
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite && m22.isFinite && m23.isFinite
            && m24.isFinite && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite && m41.isFinite
            && m42.isFinite && m43.isFinite && m44.isFinite
    }
}
extension CGPath: FiniteCheckable {
    package var isFiniteValue: Bool {
        elements.allSatisfy {
            switch $0 {
            case .moveTo(let p), .lineTo(let p): return p.isFiniteValue
            case let .quadCurveTo(p, c): return p.isFiniteValue && c.isFiniteValue
            case let .curveTo(p, c1, c2): return p.isFiniteValue && c1.isFiniteValue && c2.isFiniteValue
            case .closeSubpath: return true
            }
        }
    }
}
extension Array: FiniteCheckable where Element: FiniteCheckable { package var isFiniteValue: Bool { allSatisfy(\.isFiniteValue) } }
extension Optional: FiniteCheckable where Wrapped: FiniteCheckable { package var isFiniteValue: Bool { self?.isFiniteValue ?? true } }

/// Stores `value` in `storage` unless it has a non-finite component (then `storage` keeps its
/// value). Returns whether `storage` changed, for setters that mark layout.
@discardableResult
func setIfFinite<T: FiniteCheckable & Equatable>(_ storage: inout T, _ value: T) -> Bool {
    guard value.isFiniteValue, value != storage else { return false }
    storage = value
    return true
}

extension LayerProperties {
    /// `opacity` as composited: clamped to 0…1.
    public var drawnOpacity: Float { opacity.clampedToUnitInterval }
    /// `shadowOpacity` as composited: clamped to 0…1.
    public var drawnShadowOpacity: Float { shadowOpacity.clampedToUnitInterval }
    /// `shadowRadius` as composited: clamped to 0…`maximumDrawnShadowRadius`.
    public var drawnShadowRadius: Double { min(max(Double(shadowRadius), 0), Self.maximumDrawnShadowRadius) }

    /// The widest shadow blur drawn, in points (10^6): a larger `shadowRadius` is drawn as this.
    /// The two look the same: a blur of sigma R spreads a W x H layer's alpha to a peak of at
    /// most W·H / (2π·R²), which at R = 10^6 is below half a level of 8-bit alpha (1/510) for
    /// any layer under 100,000 points a side, as at every larger R. Unclamped, the blur's margin
    /// (3R + 1) and the extents built from it overflow to infinity near 10^308.
    public static let maximumDrawnShadowRadius = 1e6

    /// Whether every number the compositor computes with is finite. The setters keep it so;
    /// a layer whose `properties` were given a NaN or an infinity directly fails it, and the
    /// compositor then skips the layer and its subtree instead of placing it nowhere.
    public var hasFiniteValues: Bool {
        bounds.isFiniteValue && position.isFiniteValue && anchorPoint.isFiniteValue && anchorPointZ.isFinite
            && zPosition.isFinite && transform.isFiniteValue && sublayerTransform.isFiniteValue && opacity.isFinite
            && cornerRadius.isFinite && borderWidth.isFinite && contentsScale.isFinite && contentsRect.isFiniteValue
            && contentsCenter.isFiniteValue && shadowOpacity.isFinite && shadowOffset.isFiniteValue && shadowRadius.isFinite
            && shadowPath.isFiniteValue && rasterizationScale.isFinite
    }
}
