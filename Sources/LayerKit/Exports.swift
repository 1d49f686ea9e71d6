// `import LayerKit` gives a program the whole API: the layer model here and Core Graphics'
// part (colours, images, paths, affine transforms, drawing) from LayerKitDrawing.
@_exported import LayerKitDrawing
