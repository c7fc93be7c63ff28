// FFmpeg xfade "circleclose" (P = 1 − p, xfade's progress): with r the distance from (W/2, H/2) (integer halves)
// and R = hypot(W/2, H/2), B's share is smoothstep(0, 1, r/R + 3·(0.5 − P)): a soft circle of A closes on the centre.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 c = vec2(ivec2(segue_resolution) / 2), d = segue_pixel(uv) - c;
    float s = smoothstep(0.0, 1.0, sqrt(dot(d, d)) / sqrt(dot(c, c)) + (1.0 - P - 0.5) * 3.0);
    return mix(getFromColor(uv), getToColor(uv), s);
}
