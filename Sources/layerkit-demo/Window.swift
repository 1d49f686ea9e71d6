import CGLFW
import Foundation
import GLRenderer
import LayerKitCore

/// Why the demo cannot open its window; each is one line for standard error.
enum WindowError: Error, CustomStringConvertible {
    /// GLFW could not start: on Linux almost always no X display.
    case noDisplay(String)
    /// A display is there but gave no OpenGL 3.3 core window.
    case noContext(String)

    /// The problem and the way out, on one line.
    var description: String {
        switch self {
        case .noDisplay(let reason):
            return "no display to open a window on (\(reason)); run it under a virtual one, "
                + "e.g. `xvfb-run -a layerkit-demo …`, or render scenes without a window with `layerkit render SCENE -o OUT.png`"
        case .noContext(let reason):
            return "no OpenGL 3.3 core window (\(reason)); try `LIBGL_ALWAYS_SOFTWARE=1` (Mesa's llvmpipe), "
                + "or render without a window with `layerkit render SCENE -o OUT.png`"
        }
    }
}

/// What the user did to the window, in the order it happened; positions are in the window's
/// screen coordinates (top-left origin), which the demo turns into canvas points.
enum WindowEvent {
    /// A key without a character: arrows, page keys, Escape.
    case key(WindowKey)
    /// A typed character (layout-aware, so `?` is `?` on every keyboard).
    case character(Character)
    /// The left mouse button went down (`true`) or up.
    case mouseButton(down: Bool, at: CGPoint)
    /// The pointer moved.
    case pointer(at: CGPoint)
    /// The wheel turned by `dy` notches (positive away from the user), the pointer at `at`.
    case wheel(dy: Double, at: CGPoint)
    /// The window or its framebuffer changed size or content scale.
    case resized
    /// The window system asked for a redraw (exposed, restored).
    case refresh
}

/// The non-character keys the demo listens to (page switching and Escape).
enum WindowKey {
    /// ← and →.
    case left, right
    /// Page Up and Page Down.
    case pageUp, pageDown
    /// Home and End.
    case home, end
    /// Esc.
    case escape
}

/// A GLFW window with an OpenGL 3.3 core context, current on the thread that made it: the
/// demo's screen. The GL backend (`GLFrameRenderer`) copies each frame into its default
/// framebuffer (0), which `swapBuffers()` then presents; input arrives as `WindowEvent`s
/// collected while GLFW processes events.
///
/// GLFW is initialised by the first window and terminated when it is released: the demo has one.
final class Window: GLWindowSurface {
    private let handle: OpaquePointer
    /// Events since the last `takeEvents()`.
    private var pending: [WindowEvent] = []

    /// The most recent GLFW error, kept by the error callback (which cannot capture) so that a
    /// failure can be reported as one line rather than printed as it happens.
    nonisolated(unsafe) private static var lastError = ""

    /// Opens a resizable, visible window of `width` x `height` screen coordinates with vsync.
    ///
    /// - Throws: `WindowError.noDisplay` when GLFW cannot start (no `DISPLAY`), or
    ///   `WindowError.noContext` when no OpenGL 3.3 core context can be made.
    init(width: Int, height: Int, title: String) throws {
        glfwSetErrorCallback { _, description in
            Window.lastError = description.map { String(cString: $0) } ?? "unknown GLFW error"
        }
        guard glfwInit() == GLFW_TRUE else { throw WindowError.noDisplay(Self.lastError) }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE)
        // HiDPI: ask for a framebuffer at the monitor's scale where the platform distinguishes
        // screen coordinates from pixels (macOS); elsewhere the content scale says it.
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE)
        guard let w = glfwCreateWindow(Int32(width), Int32(height), title, nil, nil) else {
            let reason = Self.lastError
            glfwTerminate()
            throw WindowError.noContext(reason)
        }
        handle = w
        glfwMakeContextCurrent(w)
        glfwSwapInterval(1)
        glfwSetWindowUserPointer(w, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    deinit {
        glfwDestroyWindow(handle)
        glfwTerminate()
    }

    /// The window whose user pointer is set to `w`.
    private static func owner(_ w: OpaquePointer?) -> Window? {
        guard let w, let p = glfwGetWindowUserPointer(w) else { return nil }
        return Unmanaged<Window>.fromOpaque(p).takeUnretainedValue()
    }

    /// GLFW's callbacks are C function pointers: each finds its `Window` through the user pointer.
    private func installCallbacks() {
        glfwSetKeyCallback(handle) { w, key, _, action, _ in
            guard action != GLFW_RELEASE else { return }
            let keys: [Int32: WindowKey] = [
                GLFW_KEY_LEFT: .left, GLFW_KEY_RIGHT: .right, GLFW_KEY_PAGE_UP: .pageUp, GLFW_KEY_PAGE_DOWN: .pageDown, GLFW_KEY_HOME: .home,
                GLFW_KEY_END: .end, GLFW_KEY_ESCAPE: .escape,
            ]
            if let k = keys[key] { Window.owner(w)?.post(.key(k)) }
        }
        glfwSetCharCallback(handle) { w, codepoint in
            if let scalar = Unicode.Scalar(codepoint) { Window.owner(w)?.post(.character(Character(scalar))) }
        }
        glfwSetMouseButtonCallback(handle) { w, button, action, _ in
            guard button == GLFW_MOUSE_BUTTON_LEFT, let window = Window.owner(w) else { return }
            window.post(.mouseButton(down: action == GLFW_PRESS, at: window.cursorPosition))
        }
        glfwSetCursorPosCallback(handle) { w, x, y in
            Window.owner(w)?.post(.pointer(at: CGPoint(x: x, y: y)))
        }
        glfwSetScrollCallback(handle) { w, _, dy in
            guard let window = Window.owner(w) else { return }
            window.post(.wheel(dy: dy, at: window.cursorPosition))
        }
        glfwSetFramebufferSizeCallback(handle) { w, _, _ in Window.owner(w)?.post(.resized) }
        glfwSetWindowContentScaleCallback(handle) { w, _, _ in Window.owner(w)?.post(.resized) }
        glfwSetWindowRefreshCallback(handle) { w in Window.owner(w)?.post(.refresh) }
    }

    /// Queues `event` for the next `takeEvents()`: what GLFW's callbacks do with the user's
    /// input, and how a test gives the demo's loop input without a user.
    func post(_ event: WindowEvent) { pending.append(event) }

    /// The events that arrived since the last call, oldest first.
    func takeEvents() -> [WindowEvent] {
        defer { pending = [] }
        return pending
    }

    /// Processes window-system events without waiting.
    func pollEvents() { glfwPollEvents() }

    /// Sleeps until an event arrives or `timeout` seconds pass (no busy loop while idle).
    func waitEvents(timeout: Double) {
        if timeout > 0 { glfwWaitEventsTimeout(timeout) } else { glfwPollEvents() }
    }

    /// Ends the next (or the current) `waitEvents` at once without an event: a test whose clock
    /// is set by hand has nothing to wait for in real time.
    func wake() { glfwPostEmptyEvent() }

    /// Whether the user asked to close the window (or `close()` was called).
    var shouldClose: Bool { glfwWindowShouldClose(handle) == GLFW_TRUE }

    /// Asks the loop to end.
    func close() { glfwSetWindowShouldClose(handle, GLFW_TRUE) }

    /// The title bar's text.
    func setTitle(_ title: String) { glfwSetWindowTitle(handle, title) }

    /// The window's size in screen coordinates (what cursor positions are measured in).
    var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetWindowSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// The default framebuffer's size in pixels.
    var framebufferSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetFramebufferSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// Pixels per point the window system asks for (2 on a typical HiDPI screen): the canvas
    /// scale, as `contentsScale` is on iOS.
    var contentScale: Double {
        var x: Float = 1, y: Float = 1
        glfwGetWindowContentScale(handle, &x, &y)
        return Double(max(x, 0.25))
    }

    /// The pointer's position in screen coordinates.
    var cursorPosition: CGPoint {
        var x = 0.0, y = 0.0
        glfwGetCursorPos(handle, &x, &y)
        return CGPoint(x: x, y: y)
    }

    /// Presents the frame drawn into framebuffer 0 (waiting for vsync where the driver does).
    func swapBuffers() { glfwSwapBuffers(handle) }
}
