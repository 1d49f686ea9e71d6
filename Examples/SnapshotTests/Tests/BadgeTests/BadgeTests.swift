import Badge
import LayerKitTesting
import QuartzCore
import Testing

@Suite struct BadgeTests {
    @Test func badge() {
        let badge = makeBadge(count: 7)
        // The pixels, exactly, from the CPU reference renderer; and the tree as text.
        assertSnapshot(of: badge, as: .image)
        assertSnapshot(of: badge, as: .recursiveDescription)
        // A larger count at 2x.
        assertSnapshot(of: makeBadge(count: 120), as: .image(scale: 2), named: "overflow@2x")
    }

    @Test func pulse() {
        let badge = makeBadge(count: 7)
        Badge.pulse(badge)
        // The presentation tree at three times on the virtual clock, one file each.
        assertSnapshot(of: badge, as: .image(atTimes: [0, 0.25, 0.5]))
    }

    @Test func onGL() {
        // The OpenGL backend, held to the default GL budget of the same CPU reference.
        assertSnapshot(of: makeBadge(count: 7), as: .image(backend: .gl), named: "gl")
    }
}
