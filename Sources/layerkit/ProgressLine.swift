import Foundation

/// A line on standard error that says how far a long command has come (done / total, rate,
/// time left), rewritten in place and erased when the work ends, so that what the command
/// prints stays as it would be without it. Shown only when standard error is a terminal and
/// the command was not given `--quiet`: logs and pipes get nothing.
final class ProgressLine {
    /// What is being done ("recording"), the line's first word.
    let label: String
    /// The steps in all, or `nil` when not known in advance (a ramp).
    let total: Int?
    /// What a step is, plural ("frames").
    let unit: String
    private let start = Date()
    private var lastDrawn: Date?
    private var shown = false

    /// A line for `total` steps of `unit`, or `nil` when `quiet` or when standard error is not a
    /// terminal.
    init?(_ label: String, total: Int?, unit: String, quiet: Bool) {
        guard !quiet, isatty(STDERR_FILENO) != 0 else { return nil }
        (self.label, self.total, self.unit) = (label, total, unit)
    }

    /// Shows that `done` steps are done, with `detail` after the numbers; redrawn at most ten
    /// times a second (and always for the last step), since a terminal is slower than a frame.
    func update(_ done: Int, detail: String = "") {
        let now = Date()
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, done != total { return }
        lastDrawn = now
        write("\r\u{1B}[2K" + Self.text(label: label, done: done, total: total, unit: unit,
                                         elapsed: now.timeIntervalSince(start), detail: detail))
        shown = true
    }

    /// Erases the line, so that the next output (a result, an error) starts at the left margin
    /// on a clean line; `update` draws it again.
    func clear() {
        guard shown else { return }
        write("\r\u{1B}[2K")
        shown = false
    }

    private func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

    /// The line's text: "recording 120/600 frames, 40.0 frames/s, 12 s left" (without a total:
    /// "ramping 7 steps, 1.5 steps/s"); the rate and time left once a step is done.
    static func text(label: String, done: Int, total: Int?, unit: String, elapsed: Double, detail: String) -> String {
        var s = label + " " + (total.map { "\(done)/\($0)" } ?? "\(done)") + " " + unit
        if done > 0, elapsed > 0 {
            let rate = Double(done) / elapsed
            s += ", " + String(format: rate >= 10 ? "%.0f" : "%.1f", rate) + " \(unit)/s"
            if let total, total > done { s += ", " + duration(Double(total - done) / rate) + " left" }
        }
        return detail.isEmpty ? s : s + ", " + detail
    }

    /// Seconds for a person: "12 s", "3 min 05 s", "2 h 07 min".
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return String(format: "%d min %02d s", s / 60, s % 60) }
        return String(format: "%d h %02d min", s / 3600, s % 3600 / 60)
    }
}
