import Foundation
import LayerKitCore

/// The pages the demo opens with: the live pages, built in Swift with LayerKit's public API as
/// an app would build them, then every scene of `Examples/seeds`; or just the scene files named
/// on the command line.
enum Gallery {
    /// The live pages followed by a page per seed scene.
    static func pages(examples: Examples) throws -> [Page] {
        let live: [Page] = [
            try ClockPage(examples: examples),
            try CubePage(examples: examples),
            try LitCubePage(examples: examples),
            try CubeButtonPage(examples: examples),
            try DoubleSidedPage(examples: examples),
            try FlatteningPage(examples: examples),
            ZPositionPage(),
            ReplicatorRingPage(),
            try ReflectionPage(examples: examples),
            ScrollPage(),
            TiledPage(),
            try ContentsGravityPage(examples: examples),
            try ContentsCenterPage(examples: examples),
            try CompassPage(examples: examples),
            ImplicitColorPage(),
            CustomActionPage(),
            PresentationHitPage(),
            try AnimatedClockPage(examples: examples),
            ShipPathPage(),
            try TransitionPage(examples: examples),
            DoorPage(),
            EasingPage(),
            BouncingBallPage(),
            SpringPage(),
            LiveDrawingPage(),
            try FirePage(examples: examples),
            OpenGLTrianglePage(),
        ]
        let captions = examples.captions()
        let scenes = try examples.seedScenes().map { url in
            let page = try ScenePage(path: url.path)
            page.caption = captions[url.lastPathComponent]
            return page
        }
        // Live pages that show a seed as it is (no caption layer in the canvas, so that their
        // screenshots are the seed's render) take its caption, plus what is live about them.
        for page in live {
            switch page {
            case is ClockPage: page.caption = captions["3.x-clock.json"].map { $0 + ", ticking in real time" }
            case is CompassPage: page.caption = captions["compass.json"].map { $0 + "; the arrow turns towards the pointer" }
            case is AnimationPage, is AnimatedClockPage, is LiveDrawingPage, is ColorLayerPage, is TransitionPage:
                page.caption = captions[page.id]
            default: break
            }
        }
        return live + scenes
    }

    /// A page per scene file, in the order given.
    static func pages(scenes: [String]) throws -> [Page] {
        try scenes.map { try ScenePage(path: $0) }
    }

    /// The index of the page `spec` names: its number counted from 1, or its id (`clock`,
    /// `5.9-cube-corner`).
    static func index(of spec: String, in pages: [Page]) throws -> Int {
        if let n = Int(spec), pages.indices.contains(n - 1) { return n - 1 }
        if let i = pages.firstIndex(where: { $0.id == spec }) { return i }
        throw DemoError.badInput("--page \(spec): no such page; give 1…\(pages.count) or one of: "
            + pages.map(\.id).joined(separator: ", "))
    }
}
