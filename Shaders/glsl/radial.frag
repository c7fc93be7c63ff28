// FFmpeg xfade "radial" (P = 1 − p, xfade's progress): B's share is smoothstep(0, 1, atan2(x − W/2, y − H/2) −
// 2.5π·(P − 0.5)) (integer halves): a soft-edged hand sweeps B in around the centre.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 d = segue_pixel(uv) - vec2(ivec2(segue_resolution) / 2);
    // atan2 as C's atan2f: +π straight above the centre, 0 at it (GLSL leaves both open).
    float angle = d.x == 0.0 ? (d.y < 0.0 ? 3.14159265 : 0.0) : atan(d.x, d.y);
    float s = smoothstep(0.0, 1.0, angle - (P - 0.5) * 7.8539816);
    return mix(getFromColor(uv), getToColor(uv), s);
}
