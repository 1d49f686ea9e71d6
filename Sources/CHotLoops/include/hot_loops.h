// CHotLoops: the few hot loops LayerKit writes in C because Swift does not compile them as well.
// Named for that, not for one of them: it holds the source-over blend of one colour over a run
// of premultiplied RGBA8 pixels (the one blend of the CPU reference renderer and of drawing) with
// its unorm8 rounding, the scan of a row for ink, and a prefetch. The blend is in C because
// clang vectorises this loop and Swift does not (its generic SIMD conversions ran 12 times
// slower than the scalar loop, the C loop 3.7 times faster); the ink scan for the same reason;
// the prefetch because Swift has none.
#ifndef LAYERKIT_CHOTLOOPS_H
#define LAYERKIT_CHOTLOOPS_H

#include <stdint.h>

/// For each of `count` pixels at `pixels` (4 bytes each, R G B A): every channel d becomes
/// (uint8)(min(max(s + d * k, 0), 255) + 0.5), where s is the source channel times 255 (`r`, `g`,
/// `b`, `a`) and k = 1 - source alpha: source-over in 0…255 units, rounded to nearest, computed
/// in single precision with no fused multiply-add, so that every caller gets the same bytes.
/// On x86-64 with AVX2 the loop runs in AVX2 registers (eight pixels' channels at once).
void lk_blend_run(uint8_t *pixels, long count, float r, float g, float b, float a, float k);

/// `lk_blend_run` on the baseline instruction set whatever the CPU: for the tests that check the
/// AVX2 loop gives the same bytes.
void lk_blend_run_baseline(uint8_t *pixels, long count, float r, float g, float b, float a, float k);

/// `s` (0…255 units) clamped to 0…255 and rounded to nearest with ties to even, as GL converts
/// a float to 8 bits on llvmpipe: adding and taking away 1.5 * 2^23 leaves no bits below 1,
/// two additions where a rounding call per channel made image quads 25 % slower.
static inline float lk_unorm8(float s) {
    const float magic = 12582912.0f;
    return (__builtin_fminf(__builtin_fmaxf(s, 0.0f), 255.0f) + magic) - magic;
}

/// The largest whole number not above `x`, and the smallest not below, for a finite `x` well
/// inside `long`'s range (the callers clamp first): C's conversion, where Swift's `Int(x)` checks
/// the range and traps, a third of the instructions a CPU renderer's row spent on its columns.
static inline long lk_floor(double x) {
    long t = (long)x;
    return (double)t > x ? t - 1 : t;
}

static inline long lk_ceil(double x) {
    long t = (long)x;
    return (double)t < x ? t + 1 : t;
}

/// `lk_blend_run` of the source first converted to 8 bits, as a GPU converts a fragment colour
/// before blending it into an RGBA8 target: each of `r`, `g`, `b`, `a` (0…255 units) clamped
/// and rounded to nearest with ties to even, and k = 1 - a / 255 of the rounded alpha. The
/// CPU renderer's blend, so that it rounds as the GL backend does.
void lk_blend_run_unorm8(uint8_t *pixels, long count, float r, float g, float b, float a);

/// The first and last of `count` pixels (as 32-bit words) that are not all zero: returns the
/// first's index, or `count` when there is none (and `*last` is left alone); `*last` gets the
/// last's. Blocks of 16 pixels are tested at once, which clang vectorises: an image's ink
/// bounds scan whole empty rows.
long lk_ink_span(const uint32_t *words, long count, long *last);

/// Asks the CPU to bring the `lines` 64-byte cache lines from `p` on into its caches, without
/// waiting for them. Here because Swift has no prefetch: a frame at 10,000 animated layers
/// fetches each next layer while it evaluates this one, where its first touch was a miss.
static inline void lk_prefetch(const void *p, long lines) {
    for (long i = 0; i < lines; i++) __builtin_prefetch((const char *)p + 64 * i);
}

#endif
