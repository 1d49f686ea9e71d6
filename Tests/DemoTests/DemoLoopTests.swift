import Foundation
import LayerKitCore
import XCTest
@testable import layerkit_demo

/// The demo's interactive loop in this process, pass by pass (`Demo.runPass`), in a real GLFW
/// window drawn by the GL backend (on an Xvfb server when there is no display), with input
/// posted to the window as its callbacks post the user's, and a clock the test sets by hand, so
/// that seconds of idling take no time.
///
/// What it checks is input after a sleep: the demo draws nothing while nothing changes, so its
/// display link's last frame, the transaction's time, may be seconds old when input comes. An
/// implicit animation the input starts begins at the transaction's time; unless the loop first
/// brings that time to now (`catchUp`), the animation is over before it is drawn.
final class DemoLoopTests: WindowTestCase {
    /// The media time the demo's clock reads.
    private var now = 100.0
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// Listing 7.1 after five idle seconds: the click's colour change begins at the click. The
    /// fade from blue (0, 0, 1) to red (1, 0, 0) runs 0.25 s with the `.default` function, the
    /// Bézier (0, 0), (0.25, 0.1), (0.25, 1), (1, 1). At half time x(s) = 0.75 s − 0.75 s² + s³
    /// = 0.5 gives s = 0.6995724 (bisection), where y(s) = 0.3 s (1 − s)² + 3 s² (1 − s) + s³
    /// = 0.802403387584857: 0.125 s after the click the colour is (0.802403, 0, 0.197597).
    /// Begun at the last frame drawn (100 s), it would be red since 100.25 s.
    func testInputAfterIdleAnimatesFromNow() throws {
        let page = ImplicitColorPage()
        page.nextColor = { [red] in red }
        let (window, demo) = try makeDemo(showing: page)
        try settle(demo, window)
        now = 105
        XCTAssertFalse(try idlePass(demo, window), "five seconds with nothing changing draw nothing")

        window.post(.mouseButton(down: true, at: CGPoint(x: 150, y: 150)))
        window.post(.mouseButton(down: false, at: CGPoint(x: 150, y: 150)))
        XCTAssertTrue(try demo.runPass(), "a click draws")
        XCTAssertEqual(page.colorLayer.backgroundColor, red, "the model changes at once")
        assertColor(of: page, at: 105, [0, 0, 1, 1])
        let half = 0.802403387584857
        assertColor(of: page, at: 105.125, [half, 0, 1 - half, 1])
        assertColor(of: page, at: 105.25, [1, 0, 0, 1])

        now = 105.125
        XCTAssertTrue(try demo.runPass(), "the fade asks for every frame")
        XCTAssertEqual(page.root.runningAnimationCount(atTime: 105.125), 1)
    }

    /// The catch-up frame is a link frame that updates the page without drawing; the loop runs
    /// it before input only on a page that was not drawn every frame: a page that animates was
    /// drawn a frame ago, so its time is now already. Each update records the link's time:
    /// frames at 100 and 100.5, and the input at 100.5 adds no update of its own.
    func testAPageThatAnimatesDoesNotCatchUp() throws {
        let page = RecordingPage(redraw: .everyFrame)
        let (window, demo) = try makeDemo(showing: page)
        XCTAssertTrue(try demo.runPass())
        now = 100.5
        window.post(.character("x"))
        XCTAssertTrue(try demo.runPass())
        XCTAssertEqual(page.updates, [100, 100.5])
    }

    /// A page waiting for input, or for a timed change (95 s after the clock started, at 195):
    /// after five idle seconds the input at 105 first catches up (an update at 105 that draws
    /// nothing), then draws (a second update at 105).
    func testAPageThatSleptCatchesUpBeforeInput() throws {
        for redraw in [Redraw.onInput, .at(95)] {
            now = 100
            let page = RecordingPage(redraw: redraw)
            let (window, demo) = try makeDemo(showing: page)
            try settle(demo, window)
            let settled = page.updates.count
            XCTAssertEqual(Set(page.updates), [100], "\(redraw)")
            now = 105
            XCTAssertFalse(try idlePass(demo, window), "\(redraw)")
            window.post(.character("x"))
            XCTAssertTrue(try demo.runPass(), "\(redraw)")
            XCTAssertEqual(page.updates.dropFirst(settled), [105, 105], "\(redraw)")
        }
    }

    // MARK: - Helpers

    /// A window and a demo on it showing `page` alone, on the test's clock, without the HUD
    /// (which would ask for frames to show GPU times).
    private func makeDemo(showing page: Page) throws -> (Window, Demo) {
        try requireDisplay()
        let window = try Window(width: 300, height: 300, title: "DemoLoopTests")
        let clock = DemoClock(frozen: nil) { [unowned self] in now }
        let demo = try Demo(window: window, pages: [page], pageIndex: 0,
                            options: Demo.Options(clock: clock, scale: 1, hud: false, captions: false))
        // A demo kept alive would keep its display link running, and with it implicit
        // animations in the tests after this one.
        addTeardownBlock { [weak demo] in XCTAssertNil(demo, "the demo outlived its test") }
        return (window, demo)
    }

    /// A pass, with the window woken first: a pass that draws nothing waits for input up to the
    /// demo's next look for a changed scene file (half a second of real time), which this
    /// test's hand-set clock has no use for.
    private func idlePass(_ demo: Demo, _ window: Window) throws -> Bool {
        window.wake()
        return try demo.runPass()
    }

    /// Runs passes until one draws nothing: the first frame, and those of the window's own
    /// first events (mapped, exposed), all at the test's present time.
    private func settle(_ demo: Demo, _ window: Window, file: StaticString = #filePath, line: UInt = #line) throws {
        for _ in 0..<10 {
            if try !idlePass(demo, window) { return }
        }
        XCTFail("the demo keeps drawing with nothing changing", file: file, line: line)
    }

    /// Checks the colour layer's presentation at media time `t` against RGBA `expected`.
    private func assertColor(of page: ImplicitColorPage, at t: Double, _ expected: [CGFloat],
                             file: StaticString = #filePath, line: UInt = #line) {
        let s = page.root.snapshot(atTime: t).sublayers.first { $0.properties.name == "colorLayer" }
        guard let c = s?.properties.backgroundColor else { return XCTFail("no colour", file: file, line: line) }
        XCTAssertEqual(c.components.count, expected.count, file: file, line: line)
        for (a, b) in zip(c.components, expected) { XCTAssertEqual(a, b, accuracy: 1e-6, "at \(t)", file: file, line: line) }
    }
}

/// A page that asks for frames as told and records the link's time at each update.
private final class RecordingPage: Page {
    private let redraw: Redraw
    private(set) var updates: [CFTimeInterval] = []

    init(redraw: Redraw) {
        self.redraw = redraw
        let (canvas, root) = Page.whiteCanvas(300, 300)
        super.init(id: "recording", title: "records its updates", canvas: canvas, root: root)
    }

    override func update(clock: DemoClock) -> Redraw {
        updates.append(clock.mediaTime)
        return redraw
    }
}

/// The base of the tests that open windows: an X display (`XvfbDisplay`) for the class's tests.
class WindowTestCase: XCTestCase {
    override class func setUp() {
        super.setUp()
        XvfbDisplay.startIfNeeded()
    }

    override class func tearDown() {
        XvfbDisplay.stop()
        super.tearDown()
    }

    /// Skips the test where there is no display to open a window on.
    func requireDisplay() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"].map({ !$0.isEmpty }) == true else {
            throw XCTSkip("no DISPLAY and no Xvfb (apt-get install xvfb)")
        }
    }
}

/// An X display for GLFW in this process: the session's when `DISPLAY` is set, else an Xvfb
/// server started for the tests that need it, and stopped (and `DISPLAY` unset) after them, so
/// that later tests see the environment they began with.
enum XvfbDisplay {
    nonisolated(unsafe) private static var server: Process?

    static func startIfNeeded() {
        guard ProcessInfo.processInfo.environment["DISPLAY"].map({ $0.isEmpty }) ?? true,
              let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile) else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: xvfb)
        // -displayfd: the server picks a free display and writes its number when it is ready.
        // -noreset: by default the server resets when its last client leaves, and a window
        // opened meanwhile (the next test's) fails to connect.
        p.arguments = ["-displayfd", "1", "-noreset", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return }
        // Ends at the number's newline, or at end of file when the server fails to start.
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.terminate()
            p.waitUntilExit()
            return
        }
        server = p
        setenv("DISPLAY", ":\(number)", 1)
    }

    static func stop() {
        guard let p = server else { return }
        unsetenv("DISPLAY")
        p.terminate()
        p.waitUntilExit()
        server = nil
    }
}
