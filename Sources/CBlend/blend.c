#include "blend.h"

#include <math.h>

// The reference's rounding must not depend on the compiler: no contraction into fused
// multiply-adds, which would round once where the definition rounds twice.
#pragma clang fp contract(off)

static inline uint8_t channel(float s, uint8_t d, float k) {
    return (uint8_t)(fminf(fmaxf(s + (float)d * k, 0.0f), 255.0f) + 0.5f);
}

void lk_blend_run(uint8_t *pixels, long count, float r, float g, float b, float a, float k) {
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

void lk_blend_run_unorm8(uint8_t *pixels, long count, float r, float g, float b, float a) {
    // lk_unorm8 of the four channels at once: a call a pixel of an image quad, so it counts.
    typedef float float4 __attribute__((ext_vector_type(4)));
    const float4 magic = 12582912.0f;
    float4 s = {r, g, b, a};
    s = __builtin_elementwise_min(__builtin_elementwise_max(s, (float4)0.0f), (float4)255.0f);
    s = (s + magic) - magic;
    lk_blend_run(pixels, count, s.x, s.y, s.z, s.w, 1.0f - s.w / 255.0f);
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
