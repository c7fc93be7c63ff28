// FFmpeg xfade "vdslice" (P = 1 − p, xfade's progress): with v = (H − 1 − y)/H, the pixel shows B where
// smoothstep(−0.5, 0, v − 1.5P) > fract(10v): ten horizontal slices close to B, sweeping from the top.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float v = (segue_resolution.y - 1.0 - segue_pixel(uv).y) / segue_resolution.y;
    float s = smoothstep(-0.5, 0.0, v - P * 1.5);
    return s <= fract(10.0 * v) ? getFromColor(uv) : getToColor(uv);
}
