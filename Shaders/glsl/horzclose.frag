// FFmpeg xfade "horzclose" (P = 1 − p, xfade's progress): B's share is smoothstep(0, 1, 1 + |y − H/2|/(H/2) − 2P): B closes in
// from the top and bottom edges.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv), res = segue_resolution;
    float s = smoothstep(0.0, 1.0, 1.0 + abs((px.y - res.y / 2.0) / (res.y / 2.0)) - P * 2.0);
    return mix(getFromColor(uv), getToColor(uv), s);
}
