#include "hot_loops.h"

#include <math.h>

// The reference's rounding must not depend on the compiler: no contraction into fused
// multiply-adds, which would round once where the definition rounds twice.
#pragma clang fp contract(off)

static inline uint8_t channel(float s, uint8_t d, float k) {
    return (uint8_t)(fminf(fmaxf(s + (float)d * k, 0.0f), 255.0f) + 0.5f);
}

static inline __attribute__((always_inline))
void blend_run(uint8_t *pixels, long count, float r, float g, float b, float a, float k) {
    if (k == 0.0f) {
        // Opaque: what is under does not count (d * 0 is 0); every pixel gets the same bytes.
        const uint8_t c[4] = {channel(r, 0, 0.0f), channel(g, 0, 0.0f), channel(b, 0, 0.0f), channel(a, 0, 0.0f)};
        uint32_t word;
        __builtin_memcpy(&word, c, 4);
        uint32_t *w = (uint32_t *)(void *)pixels;
        for (long i = 0; i < count; i++) w[i] = word;
        return;
    }
    for (long i = 0; i < count; i++, pixels += 4) {
        pixels[0] = channel(r, pixels[0], k);
        pixels[1] = channel(g, pixels[1], k);
        pixels[2] = channel(b, pixels[2], k);
        pixels[3] = channel(a, pixels[3], k);
    }
}

#if defined(__x86_64__)
// The same loop built for AVX2 as well (eight pixels' channels a vector instead of four), chosen
// by the CPU it runs on: the same operations on the same floats, so the same bytes (AVX2 brings
// no fused multiply-add). Chosen per call (a load and a test) rather than by an ifunc, so that
// every build, the sanitizer's included, runs it the same way.
__attribute__((target("avx2")))
static void blend_run_avx2(uint8_t *pixels, long count, float r, float g, float b, float a, float k) {
    blend_run(pixels, count, r, g, b, a, k);
}
#endif

void lk_blend_run(uint8_t *pixels, long count, float r, float g, float b, float a, float k) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        blend_run_avx2(pixels, count, r, g, b, a, k);
        return;
    }
#endif
    blend_run(pixels, count, r, g, b, a, k);
}

void lk_blend_run_baseline(uint8_t *pixels, long count, float r, float g, float b, float a, float k) {
    blend_run(pixels, count, r, g, b, a, k);
}

// A colour channel rounded to 8 bits, ties to even, as GPUs round before blending: adding and
// taking away 1.5 x 2^23 leaves the value rounded to an integer by the float addition itself
// (round-to-nearest-even). Plain C, so that gcc (the CMake build) compiles it as clang does.
static inline float unorm8(float v) {
    const float magic = 12582912.0f;
    return (fminf(fmaxf(v, 0.0f), 255.0f) + magic) - magic;
}

void lk_blend_run_unorm8(uint8_t *pixels, long count, float r, float g, float b, float a) {
    const float a8 = unorm8(a);
    lk_blend_run(pixels, count, unorm8(r), unorm8(g), unorm8(b), a8, 1.0f - a8 / 255.0f);
}

static inline int block_is_empty(const uint32_t *w) {
    uint32_t any = 0;
    for (int k = 0; k < 16; k++) any |= w[k];
    return any == 0;
}

long lk_ink_span(const uint32_t *words, long count, long *last) {
    long first = 0;
    while (first + 16 <= count && block_is_empty(words + first)) first += 16;
    while (first < count && words[first] == 0) first++;
    if (first == count) return count;
    long end = count;
    while (end - 16 > first && block_is_empty(words + end - 16)) end -= 16;
    while (words[end - 1] == 0) end--;
    *last = end - 1;
    return first;
}
