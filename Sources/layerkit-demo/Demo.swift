import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore

/// The running demo: the pages, the window, the GL backend drawing the stage into the window's
/// default framebuffer, input, hot reload and the frame loop.
///
/// A frame is Core Animation's pipeline end to end, driven by one `CADisplayLink` whose time
/// source is the demo's clock (so `--time` freezes it): the link commits the implicit
/// transaction and delivers animation callbacks, then a `FrameLoop` draws: the page updates its
/// layers, the stage tree is laid out and its presentation tree sampled at the link's
/// `targetTimestamp` (where the pages' animations run), the compositor turns the snapshot into a
/// display list, and a `GLFrameRenderer` draws it offscreen (only its damage, where the frame
/// is like the last), copies it into framebuffer 0 and presents it. A debug overlay's tints and
/// flashed updated regions (`DebugOverlays`) are added to the list between the two. Each step is a phase of the `FrameProfiler` the HUD reads, and a GL timer
/// query measures the GPU's share.
///
/// Frames are drawn only when something changed: an event, a page that animates, a timed change
/// (the clock's tick). Otherwise the loop sleeps in `glfwWaitEventsTimeout`, waking twice a
/// second to look for a changed scene file.
final class Demo {
    /// How the demo runs, from the command line.
    struct Options {
        /// Animation time: real, or frozen by `--time`.
        var clock: DemoClock
        /// `--scale`: pixels per point instead of the window's content scale.
        var scale: Double?
        /// Whether the HUD starts visible.
        var hud: Bool
        /// Whether pages' captions are shown under the canvas.
        var captions = true
    }

    private let window: Window
    private let renderer: GLFrameRenderer
    private let loop: FrameLoop
    private var profiler: FrameProfiler { loop.profiler }
    private let stage = Stage()
    private let pages: [Page]
    private var options: Options
    /// The frame clock: while it runs, committed layers animate implicitly.
    private var displayLink: CADisplayLink?
    /// What the link's last frame gave: its pixels when read back, or the error it threw.
    private var frameResult: Result<Bitmap?, Error> = .success(nil)
    /// What the link's next frame does: draw (and read back), or only bring time to now.
    private var nextFrame = (draws: true, readsBack: false)
    private var pageIndex: Int
    private var page: Page { pages[pageIndex] }

    /// A frame is wanted regardless of the page's schedule.
    private var needsDisplay = true
    /// When the page asked to be drawn next.
    private var redraw = Redraw.everyFrame
    /// The left button's press: the pointer's last position (screen coordinates) and how far
    /// it has travelled (points); a release after a short travel is a click.
    private var press: (last: CGPoint, travel: CGFloat)?
    /// How the HUD names what the last click hit.
    private var hitName = "none (click to hit-test)"
    /// A passing message for the HUD, and when it goes.
    private var status = ""
    private var statusUntil = 0.0
    /// When the page's scene file was last looked at, and when the last frame was presented.
    private var lastReloadCheck = 0.0
    /// When the page's quads were last counted.
    private var lastPageQuadCount = -Double.infinity
    private var lastPresent = 0.0
    /// Real time for the loop's own timing (polling, pacing, messages), even under `--time`.
    private let wall = DemoClock(frozen: nil)
    /// The frame whose GPU time the HUD still waits for, on a page that draws only on input.
    private var awaitingGPUTime: Int?
    /// The next frame is drawn to show a GPU time that arrived, and waits for none itself.
    private var isGPURefresh = false
    /// Where `s` writes the next frame, once drawn.
    private var screenshotRequest: String?
    /// The quads of the page alone (what `layerkit displaylist` counts for its scene), for the
    /// HUD, and the canvas snapshot they were counted for.
    private var pageQuads: (canvas: LayerSnapshot?, count: Int) = (nil, 0)
    /// The debug overlay and the flashing of updated regions, as the keys set them.
    private(set) var debugOverlays = DebugOverlays()

    /// A demo on `window` showing `pages`, starting at `pageIndex`.
    ///
    /// - Throws: `GLRendererError` or `GLError` when the backend cannot start.
    init(window: Window, pages: [Page], pageIndex: Int, options: Options) throws {
        self.window = window
        self.pages = pages
        self.pageIndex = pageIndex
        self.options = options
        renderer = try GLFrameRenderer(window: window)
        loop = FrameLoop(renderer: renderer)
        profiler.frameLimit = 4 * HUD.history
        loop.overlay = { [unowned self] list in
            // Flashes stay on the page: the HUD changes at every frame, and a flash of it would
            // ask for the frame that ends it, which changes the HUD again.
            let scale = stage.scale
            func pixels(_ r: CGRect) -> CGRect { CGRect(x: r.minX * scale, y: r.minY * scale, width: r.width * scale, height: r.height * scale) }
            return debugOverlays.apply(list, now: wall.now, within: pixels(stage.canvas.frame),
                                       excluding: stage.isHUDVisible ? pixels(stage.hud.layer.frame) : nil)
        }
        stage.isHUDVisible = options.hud
        stage.showsCaption = options.captions
        displayLink = CADisplayLink(timeSource: { [clock = options.clock] in clock.mediaTime }) { [unowned self] link in
            // Pages begin their animations on `clock.mediaTime`: the link's time.
            self.options.clock.frameTime = link.targetTimestamp
            guard nextFrame.draws else {
                redraw = page.handling { page.update(clock: self.options.clock) }
                return
            }
            frameResult = Result { try drawFrame(at: link.targetTimestamp, readBack: nextFrame.readsBack) }
        }
        show(pageIndex)
    }

    // MARK: - Running

    /// Draws `frames` frames without taking input and returns the last one's pixels when
    /// `readBack` (the scripted mode of tests and docs: `--frames`, `--screenshot`).
    func runScripted(frames: Int, readBack: Bool) throws -> Bitmap? {
        var last: Bitmap?
        for i in 0..<max(frames, 1) {
            window.pollEvents()
            _ = window.takeEvents()
            last = try step(readBack: readBack && i == frames - 1)
        }
        return last
    }

    /// One line summing up the frames drawn: medians of CPU time, of each phase and of GPU
    /// time, and the counters.
    var summary: String {
        let cpu = FrameProfiler.Statistics(profiler.frames.map(HUD.cpuMs))
        let phases = profiler.phaseNames.map { String(format: "%@ %.2f", $0, profiler.statistics(phase: $0).median) }
        let gpu = profiler.gpuStatistics.map { String(format: ", GPU median %.2f ms", $0.median) } ?? ""
        let c = profiler.counterMedians
        return String(format: "%@: %d frames, CPU median %.2f ms p95 %.2f ms (%@)%@, layers %.0f quads %.0f passes %.0f draws %.0f",
                      page.id, profiler.frames.count, cpu.median, cpu.p95, phases.joined(separator: ", "), gpu,
                      c["layers"] ?? 0, c["quads"] ?? 0, c["passes"] ?? 0, c[FrameCounter.drawCalls.rawValue] ?? 0)
    }

    /// The interactive loop, until the window is closed or Esc is pressed.
    func run() throws {
        while !window.shouldClose { try runPass() }
    }

    /// One turn of the interactive loop: the input that arrived, a look for a changed scene
    /// file, then a frame if one is due, else a sleep until an event or the next timed change.
    /// Returns whether it drew a frame.
    @discardableResult
    func runPass() throws -> Bool {
        let events = window.takeEvents()
        if !events.isEmpty, redraw != .everyFrame { catchUp() }
        for event in events { handle(event) }
        inTransaction(disablingActions: true) { checkForReload() }
        if !status.isEmpty, wall.now >= statusUntil {
            status = ""
            needsDisplay = true
        }
        guard isFrameDue() else {
            window.waitEvents(timeout: idleTimeout())
            collectGPUTimes()
            return false
        }
        needsDisplay = false
        try step(readBack: screenshotRequest != nil)
        pace()
        return true
    }

    /// Whether a frame is wanted now: something changed, the page animates, or its timed
    /// change has come.
    private func isFrameDue() -> Bool {
        if needsDisplay { return true }
        if let end = debugOverlays.nextFlashEnd, wall.now >= end { return true }
        switch redraw {
        case .onInput: return false
        case .everyFrame: return true
        case .at(let t): return options.clock.now >= t
        }
    }

    /// How long to sleep: until the page's next timed change, the next look for a changed scene
    /// file, a GPU time the HUD waits for, or a status message's end.
    private func idleTimeout() -> Double {
        let now = wall.now
        var timeout = 0.5 - (now - lastReloadCheck)
        if case .at(let t) = redraw { timeout = min(timeout, t - options.clock.now) }
        if awaitingGPUTime != nil { timeout = min(timeout, 0.02) }
        if !status.isEmpty { timeout = min(timeout, statusUntil - now) }
        if let end = debugOverlays.nextFlashEnd { timeout = min(timeout, end - now) }
        return max(timeout, 0.001)
    }

    /// Holds animation to 60 frames a second where vsync does not (a virtual display's swap
    /// returns at once), handling events meanwhile.
    private func pace() {
        let wait = lastPresent + 1.0 / 60 - wall.now
        if wait > 0.001, redraw == .everyFrame { window.waitEvents(timeout: wait) } else { window.pollEvents() }
        lastPresent = wall.now
    }

    // MARK: - Frames

    /// Runs a frame of the display link; returns its pixels when `readBack`.
    @discardableResult
    private func step(readBack: Bool) throws -> Bitmap? {
        nextFrame = (true, readBack)
        frameResult = .success(nil)
        displayLink?.step()
        return try frameResult.get()
    }

    /// Input after a sleep: a link frame that draws nothing brings the transaction's time and
    /// the page's to now, so that what the input changes begins now rather than at the last
    /// frame drawn, which may be seconds ago (its animations would be over before they showed).
    private func catchUp() {
        nextFrame = (false, false)
        displayLink?.step()
    }

    /// Draws the frame at media time `mediaTime` (the link's) of the stage into the window and
    /// presents it; returns its pixels when `readBack` (a screenshot), read before presenting.
    private func drawFrame(at mediaTime: CFTimeInterval, readBack: Bool) throws -> Bitmap? {
        let fb = window.framebufferSize
        guard fb.width > 0, fb.height > 0 else { return nil }  // minimised
        let scale = options.scale ?? window.contentScale
        let size = CGSize(width: Double(fb.width) / scale, height: Double(fb.height) / scale)
        let now = wall.now
        let frame = profiler.nextFrameNumber
        let refresh = isGPURefresh
        isGPURefresh = false

        renderer.readsBack = readBack
        let canvas = Canvas(width: size.width, height: size.height, scale: CGFloat(scale))
        // The stage's own layers never animate implicitly.
        let drawn = try loop.drawFrame(PresentationTreeSource(stage.root), at: mediaTime, canvas: canvas, update: { [self] in
            inTransaction(disablingActions: true) {
                if size != stage.size || CGFloat(scale) != stage.scale { stage.layout(size: size, scale: CGFloat(scale)) }
                page.adoptScreenScale(CGFloat(scale))
            }
            redraw = page.handling { page.update(clock: options.clock) }
            inTransaction(disablingActions: true) {
                stage.updateOutline()
                stage.hud.update(profiler: profiler, info: hudInfo(runningAnimations: page.root.runningAnimationCount(atTime: mediaTime)),
                                 now: now)
            }
        }, annotate: { [self] drawn in
            profiler.count("page layers", Double(stage.pageLayerCount(in: drawn.snapshot)))
        })
        let pixels = readBack ? drawn.pixels : nil
        countPageQuads(in: drawn.snapshot, now: now)
        // On a page that waits for input, the HUD shows this frame's GPU time once it is known.
        awaitingGPUTime = !stage.isHUDVisible || redraw == .everyFrame || refresh ? nil : frame
        collectGPUTimes()
        if let pixels, let path = screenshotRequest {
            screenshotRequest = nil
            save(pixels, to: path)
        }
        return pixels
    }

    /// Hands the GPU times that have arrived to the profiler; when the one the HUD waits for is
    /// among them, draws once more to show it (that frame's own time is not waited for).
    private func collectGPUTimes() {
        for frame in renderer.collectGPUTimes(into: profiler) {
            if frame == awaitingGPUTime {
                awaitingGPUTime = nil
                isGPURefresh = true
                needsDisplay = true
            }
        }
    }

    /// What the HUD shows besides the profiler's figures.
    private func hudInfo(runningAnimations: Int) -> HUDInfo {
        HUDInfo(page: "\(pageIndex + 1)/\(pages.count) \(page.id) — \(page.title)", animating: redraw == .everyFrame,
                pageQuads: pageQuads.count, runningAnimations: runningAnimations, hit: hitName,
                status: !status.isEmpty ? status : debugOverlays.summary ?? "? keys · h HUD · ←/→ pages · s screenshot")
    }

    /// Counts the page's own quads for the HUD: the frame's display list also holds the HUD's,
    /// the outline's and the stage's. The page is composited alone, outside the frame's timed
    /// phases, only while the HUD shows and when the page changed, at most as often as the HUD's
    /// text changes (four times a second while it animates).
    private func countPageQuads(in snapshot: LayerSnapshot, now: Double) {
        guard stage.isHUDVisible, let canvas = snapshot.sublayers.first, let pageRoot = canvas.sublayers.first,
              canvas !== pageQuads.canvas, redraw != .everyFrame || now - lastPageQuadCount >= 0.25 else { return }
        lastPageQuadCount = now
        let list = Compositor.displayList(root: pageRoot, width: Double(page.canvas.width), height: Double(page.canvas.height),
                                          scale: Double(stage.scale), background: page.canvas.background)
        pageQuads = (canvas, list.quadCount)
    }

    // MARK: - Input

    /// Acts on one window event: the demo's own keys first, then the page's. The stage's layers
    /// change with actions disabled; the page's handlers run through `Page.handling`.
    private func handle(_ event: WindowEvent) {
        inTransaction(disablingActions: true) { dispatch(event) }
    }

    private func dispatch(_ event: WindowEvent) {
        switch event {
        case .key(let key):
            switch key {
            case .left, .pageUp: show(pageIndex - 1)
            case .right, .pageDown: show(pageIndex + 1)
            case .home: show(0)
            case .end: show(pages.count - 1)
            case .escape:
                if stage.keys.isVisible { stage.keys.isVisible = false } else { window.close() }
            }
        case .character(let c):
            switch c {
            case "?":
                stage.keys.isVisible.toggle()
                if stage.keys.isVisible { stage.keys.show(page: page, scale: stage.scale) }
            case "h": stage.isHUDVisible.toggle()
            case "s": screenshotRequest = Self.screenshotName(page: page.id)
            default:
                if let message = debugOverlays.typed(c) { setStatus(message) } else { _ = page.handling { page.typed(c) } }
            }
        case .mouseButton(down: true, at: let p):
            press = (p, 0)
        case .mouseButton(down: false, at: let p):
            if let press, press.travel < 4 { click(at: p) }
            press = nil
        case .pointer(at: let p):
            if var pr = press {
                let d = points(p) - points(pr.last)
                pr.travel += abs(d.width) + abs(d.height)
                pr.last = p
                if !page.handling({ page.dragged(by: d) }) { _ = page.handling { page.pointerMoved(to: stage.canvasPoint(points(p))) } }
                press = pr
            } else if !page.handling({ page.pointerMoved(to: stage.canvasPoint(points(p))) }) {
                return
            }
        case .wheel(dy: let dy, at: let p):
            guard page.handling({ page.wheeled(by: dy, at: stage.canvasPoint(points(p))) }) else { return }
        case .resized, .refresh:
            break
        }
        needsDisplay = true
    }

    /// A window position (screen coordinates) in stage points.
    private func points(_ p: CGPoint) -> CGPoint {
        let (w, fb) = (window.size, window.framebufferSize)
        let pixelsPerUnit = w.width > 0 ? Double(fb.width) / Double(w.width) : 1
        let k = pixelsPerUnit / Double(stage.scale)
        return CGPoint(x: p.x * k, y: p.y * k)
    }

    /// Runs `hitTest` where the pointer clicked and outlines the layer hit.
    private func click(at p: CGPoint) {
        let point = stage.canvasPoint(points(p))
        let hit = page.hitTest(point)
        stage.outline.target = hit
        hitName = HitOutline.describe(hit, under: page.root)
        page.handling { page.clicked(hit, at: point) }
    }

    /// Switches to page `index` (clamped), forgetting the last hit.
    private func show(_ index: Int) {
        pageIndex = min(max(index, 0), pages.count - 1)
        checkForReload(force: true)
        stage.show(page)
        stage.outline.target = nil
        hitName = "none (click to hit-test)"
        if stage.keys.isVisible { stage.keys.show(page: page, scale: stage.scale) }
        window.setTitle("LayerKit demo — \(pageIndex + 1)/\(pages.count) \(page.title)")
        needsDisplay = true
    }

    /// Reloads the page's scene file if it changed (at most twice a second unless `force`).
    private func checkForReload(force: Bool = false) {
        let now = wall.now
        guard force || now - lastReloadCheck >= 0.5 else { return }
        lastReloadCheck = now
        do {
            if try page.reloadIfChanged() {
                stage.show(page)
                stage.outline.target = nil
                setStatus("reloaded \(page.id)")
            }
        } catch {
            FileHandle.standardError.write(Data("layerkit-demo: reload failed: \(error)\n".utf8))
            setStatus("reload failed: \(error)")
        }
    }

    /// Shows `s` in the HUD for a few seconds.
    private func setStatus(_ s: String) {
        status = s
        statusUntil = wall.now + 4
        needsDisplay = true
    }

    // MARK: - Screenshots

    /// `layerkit-demo-PAGE-YYYYMMDD-HHMMSS.png`, in the current folder.
    private static func screenshotName(page: String) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss"
        return "layerkit-demo-\(page)-\(f.string(from: Date())).png"
    }

    /// Writes a screenshot and says where (stdout and the HUD).
    private func save(_ pixels: Bitmap, to path: String) {
        do {
            try pixels.writePNG(to: path)
            print("saved \(path)")
            setStatus("saved \(path)")
        } catch {
            setStatus("screenshot failed: \(error)")
        }
    }
}

/// How far the pointer moved from `b` to `a`.
private func - (a: CGPoint, b: CGPoint) -> CGSize { CGSize(width: a.x - b.x, height: a.y - b.y) }
