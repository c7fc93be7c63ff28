// FFmpeg xfade "smoothright" (P = 1 − p, xfade's progress): B's share is smoothstep(0, 1, 1 + (W − 1 − x)/W − 2P): a soft edge sweeps B
// in from the left, moving right.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv), res = segue_resolution;
    float s = smoothstep(0.0, 1.0, 1.0 + (res.x - 1.0 - px.x) / res.x - P * 2.0);
    return mix(getFromColor(uv), getToColor(uv), s);
}
