import LayerCompositor
import LayerKitCore

/// A 100 x 100 point layer at the top-left of a 200 x 100 canvas that turns from red to blue
/// under `transition` (added at media time 10 for 1 s, linear), and the display list of its
/// presentation tree at media time `time`: the right half of the canvas shows what a moving
/// transition would draw outside the layer's bounds if it were not clipped.
public func redToBlueTransition(_ transition: CATransition, at time: Double) -> DisplayList {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    transition.beginTime = 10
    transition.duration = 1
    layer.add(transition, forKey: kCATransition)
    layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    return Compositor.displayList(root: layer.snapshot(atTime: time), width: 200, height: 100, scale: 1, background: nil)
}

/// A 100 x 100 point layer drawn red (its last commit), then turned blue in one transaction
/// that also adds a 1 s linear fade at media time 10: the change before the add when
/// `changeFirst`, after it otherwise. The display list of its presentation tree at `time` on a
/// 100 x 100 canvas.
public func redToBlueInOneTransaction(changeFirst: Bool, at time: Double) -> DisplayList {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    _ = layer.snapshot()
    let fade = CATransition()
    fade.beginTime = 10
    fade.duration = 1
    CATransaction.begin()
    if changeFirst { layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
    layer.add(fade, forKey: kCATransition)
    if !changeFirst { layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
    CATransaction.commit()
    return Compositor.displayList(root: layer.snapshot(atTime: time), width: 100, height: 100, scale: 1, background: nil)
}

/// A 10 x 10 layer of half-transparent red that fades to nothing (no background) over media
/// time 10…11, its opacity set to 0.5 after the transition was added; its display list at `time`.
public func translucentFade(at time: Double) -> DisplayList {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
    let t = CATransition()
    (t.beginTime, t.duration) = (10, 1)
    layer.add(t, forKey: kCATransition)
    layer.backgroundColor = nil
    layer.opacity = 0.5
    return Compositor.displayList(root: layer.snapshot(atTime: time), width: 10, height: 10, scale: 1, background: nil)
}

/// A transition of `type` from `subtype`.
public func transition(_ type: CATransitionType, _ subtype: CATransitionSubtype? = nil) -> CATransition {
    let t = CATransition()
    t.type = type
    t.subtype = subtype
    return t
}
