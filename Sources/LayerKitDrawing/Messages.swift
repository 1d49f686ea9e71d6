// Wording shared by every module's messages and reports.

/// `count` and the noun, singular for exactly one ("1 layer", "2 layers", "0 layers"); `plural`
/// for nouns that do not just add "s" ("passes"). Every count a message or report prints goes
/// through it.
package func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
