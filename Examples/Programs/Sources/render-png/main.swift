import CPURenderer
import LayerCompositor
import LayerKit
import ListingTree

// The tree → an immutable snapshot → the compositor's display list → the CPU renderer → PNG.
let tree = try makeListingTree()
let list = Compositor.displayList(root: tree.snapshot(), width: 400, height: 400, scale: 2, background: .white)
let bitmap = try CPURenderer().render(list)
try bitmap.writePNG(to: "listing-cpu.png")
print("wrote listing-cpu.png, \(bitmap.width)x\(bitmap.height) px")
