/// The GL equivalence budget, stated once for every test that holds a GL picture against the
/// CPU reference (headless renders, the demo window's screenshots): at most `glFractionBudget`
/// of the pixels may differ by more than `glThreshold` (out of 255) in any channel.
public let glThreshold = 2

/// The largest fraction of pixels allowed over `glThreshold` (see there).
public let glFractionBudget = 0.001
