import Foundation
import LayerKitCore

/// A page whose layers run explicit animations (the book's chapters 8–10). It begins its
/// animations at the first frame's media time, remembers each frame's media time so that input
/// can begin an animation "now", and asks for every frame while one of its animations runs.
///
/// Animations get explicit begin times on the clock's media time (`DemoClock.mediaTime`) rather
/// than `add(_:forKey:)`'s "0 means now", so that under `--time` every run draws the same frame.
class AnimationPage: Page {
    /// The media time of the last frame: when an animation that input begins starts.
    private(set) var mediaTime: CFTimeInterval = 0
    private var started = false

    /// Adds the page's first animations, beginning at media time `t` (the first frame's).
    func start(at t: CFTimeInterval) {}

    /// Starts the page on its first frame; afterwards asks for frames while an animation runs.
    override func update(clock: DemoClock) -> Redraw {
        mediaTime = clock.mediaTime
        if !started {
            started = true
            start(at: mediaTime)
        }
        return redrawWhileAnimating(clock)
    }

    /// Adds `animation` to `layer` for `key`, beginning at media time `t` (converted to the
    /// layer's time, as an app writes `layer.convertTime(CACurrentMediaTime(), from: nil)`).
    func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String, at t: CFTimeInterval) {
        animation.beginTime = layer.convertTime(t, from: nil)
        layer.add(animation, forKey: key)
    }
}

/// A round layer of `diameter` points filled with `color` (the book's ball and the playgrounds'
/// weights).
func disc(diameter: CGFloat, color: CGColor, name: String) -> CALayer {
    let l = CALayer()
    l.name = name
    l.bounds = CGRect(x: 0, y: 0, width: diameter, height: diameter)
    l.cornerRadius = diameter / 2
    l.backgroundColor = color
    return l
}
