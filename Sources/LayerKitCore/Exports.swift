// `import LayerKit` gives a program the whole API: the layer model here, Core Graphics' part
// (colours, images, paths, affine transforms, drawing) from LayerKitDrawing, and Foundation,
// whose CGFloat, CGPoint, CGSize and CGRect the API is written in (as `import QuartzCore`
// brings them on Apple's platforms), so a listing needs no `import Foundation` of its own.
@_exported import Foundation
@_exported import LayerKitDrawing
