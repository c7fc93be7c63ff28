#ifndef SEGUE_CLOTTIE_SHIM_H
#define SEGUE_CLOTTIE_SHIM_H
// Lottie (Bodymovin JSON) animations drawn by rlottie, imported by SegueMedia only (LottieAnimation.swift), which owns
// each Lottie_Animation (lottie_animation_from_data / lottie_animation_destroy) and draws frames with
// lottie_animation_render: premultiplied ARGB32, one 32-bit native-endian word a pixel with A in the top byte; the
// frame number counts from the animation's first frame (its `ip`), and past `op` rlottie holds the last frame.
#include <rlottie_capi.h>
#endif
