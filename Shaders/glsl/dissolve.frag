// FFmpeg xfade "dissolve" (P = 1 − p, xfade's progress): the pixel shows A while 2r + 2P − 1.5 ≥ 0.5, i.e. until
// p passes r, its value in xfade's pseudo-random field (segue_noise: TransitionNoise, vf_xfade.c's frand).
uniform highp sampler2D segue_noise;
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float r = texelFetch(segue_noise, ivec2(segue_pixel(uv)), 0).r;
    return r * 2.0 + P * 2.0 - 1.5 >= 0.5 ? getFromColor(uv) : getToColor(uv);
}
