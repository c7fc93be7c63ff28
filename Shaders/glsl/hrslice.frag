// FFmpeg xfade "hrslice" (P = 1 − p, xfade's progress): with v = (W − 1 − x)/W, the pixel shows B where
// smoothstep(−0.5, 0, v − 1.5P) > fract(10v): ten vertical slices close to B, sweeping from the left.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float v = (segue_resolution.x - 1.0 - segue_pixel(uv).x) / segue_resolution.x;
    float s = smoothstep(-0.5, 0.0, v - P * 1.5);
    return s <= fract(10.0 * v) ? getFromColor(uv) : getToColor(uv);
}
