import QuartzCore

/// A notification badge: a red disc with a white count, which pulses when it appears.
public func makeBadge(count: Int) -> CALayer {
    let badge = CALayer()
    badge.name = "badge"
    badge.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    badge.position = CGPoint(x: 20, y: 20)
    badge.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.15, alpha: 1)
    badge.cornerRadius = 20
    badge.borderWidth = 2
    badge.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    let label = CATextLayer()
    label.name = "count"
    label.frame = CGRect(x: 0, y: 10, width: 40, height: 20)
    label.string = count > 99 ? "99+" : "\(count)"
    label.fontSize = 16
    label.alignmentMode = .center
    label.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    badge.addSublayer(label)
    return badge
}

/// Adds the pulse: the count grows to 1.25 times its size and back over 0.5 s.
public func pulse(_ badge: CALayer) {
    let grow = CABasicAnimation(keyPath: "transform.scale")
    grow.fromValue = 1
    grow.toValue = 1.25
    grow.duration = 0.25
    grow.autoreverses = true
    badge.sublayers?.first?.add(grow, forKey: "pulse")
}
