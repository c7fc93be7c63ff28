// FFmpeg xfade "diagbl" (P = 1 − p, xfade's progress): B's share is smoothstep(0, 1, 1 + (x/W)·(H − 1 − y)/H − 2P): a soft
// diagonal edge sweeps B in from the top-right towards the bottom-left.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv), res = segue_resolution;
    float s = smoothstep(0.0, 1.0, 1.0 + px.x / res.x * (res.y - 1.0 - px.y) / res.y - P * 2.0);
    return mix(getFromColor(uv), getToColor(uv), s);
}
