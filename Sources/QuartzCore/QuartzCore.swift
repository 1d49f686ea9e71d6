// Apple's module name for Core Animation, so that `import QuartzCore` in a ported file compiles
// unchanged: it is LayerKit, whole.
@_exported import LayerKit
