// FFmpeg xfade "vuslice" (P = 1 − p, xfade's progress): with v = y/H, the pixel shows B where
// smoothstep(−0.5, 0, v − 1.5P) > fract(10v): ten horizontal slices close to B, sweeping from the bottom.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float p = segue_pixel(uv).y, v = p / segue_resolution.y;
    float s = smoothstep(-0.5, 0.0, v - P * 1.5);
    return s <= fract(10.0 * p / segue_resolution.y) ? getFromColor(uv) : getToColor(uv);
}
