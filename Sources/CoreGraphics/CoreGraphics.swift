// Apple's module name for Core Graphics, so that `import CoreGraphics` in a ported file compiles
// unchanged: LayerKit, whole (its CG types live in LayerKitDrawing, which LayerKit re-exports).
@_exported import LayerKit
