import Foundation
import LayerCompositor
import LayerKitCore

/// The demo's Core Animation debug options, Instruments' checkboxes as keys: one
/// `DebugOverlay` at a time (`b`, `o`, `i`), and "Flash Updated Regions" (`f`), each frame's
/// updated rectangles tinted yellow for a moment. `apply` turns the compositor's display list
/// into the one drawn (`FrameLoop.overlay`).
struct DebugOverlays {
    /// The key that toggles each overlay.
    static let keys: [(key: Character, overlay: DebugOverlay)] = [("b", .blended), ("o", .offscreen), ("i", .misaligned)]
    /// The key that toggles the flashing of updated regions.
    static let flashKey: Character = "f"
    /// How long a region stays tinted, in seconds: long enough to see, short enough that a
    /// region updated every frame blinks rather than stays yellow behind later updates.
    static let flashDuration = 0.15
    /// The flash's colour: yellow at the overlays' alpha, as Instruments flashes.
    static let flashColor = DebugOverlay.offscreenTint

    /// The overlay drawn, or `nil`.
    private(set) var overlay: DebugOverlay?
    /// Whether updated regions flash.
    private(set) var flashes = false
    private var regions = UpdatedRegions()
    /// The regions flashing and when each stops.
    private(set) var flashing: [(rect: CGRect, until: Double)] = []

    /// Acts on key `c`: its overlay on (another one off), or off when it was on; flashing on or
    /// off. Returns a line for the HUD's status, or `nil` when `c` is none of these keys.
    mutating func typed(_ c: Character) -> String? {
        if c == Self.flashKey {
            flashes.toggle()
            regions = UpdatedRegions()
            flashing = []
            return "flash updated regions " + (flashes ? "on" : "off")
        }
        guard let chosen = Self.keys.first(where: { $0.key == c })?.overlay else { return nil }
        overlay = overlay == chosen ? nil : chosen
        return "debug overlay: " + (overlay?.rawValue ?? "off")
    }

    /// The list to draw for the compositor's `list` at wall time `now`: its overlay's tints,
    /// then the regions updated within the last `flashDuration` seconds (this frame's among
    /// them; the first frame after `f` updates everything), cut to `area` (canvas pixels), less
    /// those meeting `excluded`.
    mutating func apply(_ list: DisplayList, now: Double, within area: CGRect, excluding excluded: CGRect? = nil) -> DisplayList {
        let drawn = overlay.map { list.withDebugOverlay($0) } ?? list
        guard flashes else { return drawn }
        flashing.removeAll { $0.until <= now }
        for r in regions.update(list) {
            let cut = r.intersection(area)
            guard !cut.isEmpty, !(excluded?.intersects(cut) ?? false) else { continue }
            flashing.append((cut, now + Self.flashDuration))
        }
        return drawn.withHighlights(flashing.map(\.rect), color: Self.flashColor)
    }

    /// What is on, for the HUD's status line (`overlay blended · flash`), or `nil` when nothing.
    var summary: String? {
        let parts = (overlay.map { ["overlay " + $0.rawValue] } ?? []) + (flashes ? ["flash"] : [])
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// When the first flash showing ends (a frame must then be drawn without it), or `nil`.
    var nextFlashEnd: Double? { flashing.map(\.until).min() }
}
