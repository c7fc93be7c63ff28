#ifndef SEGUE_CLOTTIE_SHIM_H
#define SEGUE_CLOTTIE_SHIM_H
// Lottie (Bodymovin JSON) animations drawn by rlottie, imported by SegueMedia only (LottieAnimation.swift).
#include <stdint.h>
#include <stdlib.h>
#include <rlottie_capi.h>

// Draws frame `frame` (counted from the animation's first frame, its `ip`; rlottie adds `ip` and holds the last
// frame past `op`) scaled to width × height pixels into `out` (width × height × 4 bytes) as R, G, B, A bytes with
// PREMULTIPLIED alpha. rlottie draws ARGB32 as cairo does (one 32-bit native-endian word a pixel, A in the top byte,
// premultiplied): the bytes are reordered, the values untouched. Returns 0, or -1 when the buffer cannot be had.
static inline int segue_lottie_render(Lottie_Animation *a, size_t frame, int width, int height, uint8_t *out) {
    uint32_t *buffer = (uint32_t *)calloc((size_t)width * (size_t)height, 4);
    if (!buffer) return -1;
    lottie_animation_render(a, frame, buffer, (size_t)width, (size_t)height, (size_t)width * 4);
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = buffer[i];
        out[4 * i] = (p >> 16) & 255; out[4 * i + 1] = (p >> 8) & 255; out[4 * i + 2] = p & 255; out[4 * i + 3] = p >> 24;
    }
    free(buffer);
    return 0;
}
#endif
