// FFmpeg xfade "wipebl" (P = 1 − p, xfade's progress): A where x ≤ int(W·P) and y > int(H·(1 − P)), B elsewhere:
// B is revealed from the top-right corner.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv);
    int x = int(px.x), y = int(px.y), zw = int(segue_resolution.x * P), zh = int(segue_resolution.y * (1.0 - P));
    return y > zh && x <= zw ? getFromColor(uv) : getToColor(uv);
}
