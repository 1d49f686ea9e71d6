// `import LayerKit` gives a program everything, as `import QuartzCore` does on Apple's platforms:
// the layer model and Core Graphics' types (LayerKitCore, which re-exports LayerKitDrawing), scene
// files (LayerKitScene), the compositor, and both renderers — `CALayer.render(in:)` comes from
// CPURenderer.
@_exported import LayerKitCore
@_exported import LayerKitScene
@_exported import LayerCompositor
@_exported import CPURenderer
@_exported import GLRenderer
