import GLRenderer
import LayerCompositor
import LayerKit
import ListingTree

// The same display list, drawn by OpenGL on a headless EGL context (Mesa's llvmpipe when there
// is no GPU) and read back: the pixels match the CPU renderer's within the tests' tolerance.
let context = try EGLHeadlessContext()  // current on this thread while it lives
let renderer = try GLRenderer()
let tree = try makeListingTree()
let list = Compositor.displayList(root: tree.snapshot(), width: 400, height: 400, scale: 2, background: .white)
let bitmap = try renderer.render(list)
try bitmap.writePNG(to: "listing-gl.png")
print("wrote listing-gl.png, \(bitmap.width)x\(bitmap.height) px on \(context.platform)")
