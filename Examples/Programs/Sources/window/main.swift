import CGLFW
import GLRenderer
import LayerCompositor
import LayerKit
import ListingTree

// A GLFW window with an OpenGL 3.3 core context; the GL renderer draws each frame's display
// list into the window's framebuffer (0). `window N` stops after N frames.
let frameLimit = CommandLine.arguments.dropFirst().first.flatMap { Int($0) }
guard glfwInit() == GLFW_TRUE else { fatalError("no display (try xvfb-run -a)") }
glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
guard let window = glfwCreateWindow(400, 400, "LayerKit", nil, nil) else { fatalError("no OpenGL 3.3 context") }
glfwMakeContextCurrent(window)
glfwSwapInterval(1)
let renderer = try GLRenderer()

let start = Date()
var frames = 0
while glfwWindowShouldClose(window) == GLFW_FALSE, frames != frameLimit {
    var width: Int32 = 0, height: Int32 = 0
    glfwGetFramebufferSize(window, &width, &height)
    // One point per pixel at the window's size in pixels; the cat turns once every 4 s.
    let tree = try makeListingTree(turn: Date().timeIntervalSince(start) * .pi / 2)
    let list = Compositor.displayList(root: tree.snapshot(), width: Double(width), height: Double(height), scale: 1,
                                      background: .white)
    try renderer.draw(list, into: 0, width: Int(width), height: Int(height))
    glfwSwapBuffers(window)
    glfwPollEvents()
    frames += 1
}
print("drew \(frames) frames")
glfwDestroyWindow(window)
glfwTerminate()
