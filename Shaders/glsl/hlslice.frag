// FFmpeg xfade "hlslice" (P = 1 − p, xfade's progress): with v = x/W, the pixel shows B where
// smoothstep(−0.5, 0, v − 1.5P) > fract(10v): ten vertical slices close to B, sweeping from the right.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float p = segue_pixel(uv).x, v = p / segue_resolution.x;
    float s = smoothstep(-0.5, 0.0, v - P * 1.5);
    return s <= fract(10.0 * p / segue_resolution.x) ? getFromColor(uv) : getToColor(uv);
}
