import Foundation
import LayerKitCore

/// The clock of listings 3.1–3.2, ticking in real time: three hand images turned about
/// `anchorPoint` (0.5, 0.9), the pivot drawn at 90 % of their height, once a second.
///
/// Built as the book builds it and as `Examples/seeds/3.x-clock.json` describes it, so at
/// `--time 36522` (10:08:42) the page draws exactly what that scene does.
class ClockPage: Page {
    let hourHand: CALayer
    let minuteHand: CALayer
    let secondHand: CALayer

    /// Builds the face and hands from `clockface.png` and `*hand.png`.
    convenience init(examples: Examples) throws {
        try self.init(examples: examples, id: "clock", title: "3.1 clock: anchorPoint (0.5, 0.9)")
    }

    /// The clock under another page's name (a subclass that moves the hands its own way).
    init(examples: Examples, id: String, title: String) throws {
        let (canvas, root) = Page.whiteCanvas(400, 400)
        let face = CALayer()
        face.name = "clockface"
        face.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        face.position = CGPoint(x: 200, y: 200)
        face.contents = try examples.image("clockface")
        root.addSublayer(face)
        func hand(_ name: String, _ width: CGFloat, _ height: CGFloat) throws -> CALayer {
            let l = CALayer()
            l.name = name
            l.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            l.position = CGPoint(x: 100, y: 100)
            l.anchorPoint = CGPoint(x: 0.5, y: 0.9)  // listing 3.1: turn about the pivot, not the middle
            l.contents = try examples.image(name)
            face.addSublayer(l)
            return l
        }
        hourHand = try hand("hourhand", 16, 70)
        minuteHand = try hand("minutehand", 12, 96)
        secondHand = try hand("secondhand", 6, 104)
        super.init(id: id, title: title, canvas: canvas, root: root)
    }

    /// Listing 3.2's `tick`: whole hours, minutes and seconds, each hand at its fraction of a turn.
    override func update(clock: DemoClock) -> Redraw {
        let t = clock.timeOfDay
        let seconds = Int(t.rounded(.down))
        let (hour, minute, second) = (seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
        turn(hourHand, to: CGFloat(hour) / 12 * .pi * 2, clock: clock)
        turn(minuteHand, to: CGFloat(minute) / 60 * .pi * 2, clock: clock)
        turn(secondHand, to: CGFloat(second) / 60 * .pi * 2, clock: clock)
        return clock.isFrozen ? .onInput : .at(clock.now + (Double(seconds + 1) - t))
    }

    /// Points `hand` at `angle` (radians, clockwise from 12): at once, as listing 3.2 does.
    func turn(_ hand: CALayer, to angle: CGFloat, clock: DemoClock) {
        hand.setAffineTransform(CGAffineTransform(rotationAngle: angle))
    }
}
