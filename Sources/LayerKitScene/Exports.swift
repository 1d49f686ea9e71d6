// A scene file describes a layer tree, so a program reading one works with the model's types:
// `import LayerKitScene` brings the model too (as `import LayerKit` brings everything).
@_exported import LayerKitCore
