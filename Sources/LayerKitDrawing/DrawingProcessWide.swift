// Drawing's process-wide state, all of it, in one place: what is expensive to make and the same
// for every tree, shared by every thread that draws (each guards itself: the font library
// behind its lock, the cache behind its own).

extension TypedContentCache {
    /// The cache of rasterized shapes, gradients and text the compositor uses: 64 MiB, 1,024
    /// drawings at most.
    static let shared = TypedContentCache(byteBudget: 64 << 20, maxEntries: 1024)
}

extension FontLibrary {
    /// The FreeType library, its fonts and glyph cache (used under `lock`).
    static let shared = FontLibrary()
}
