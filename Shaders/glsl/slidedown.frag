// FFmpeg xfade "slidedown" (P = 1 − p, xfade's progress): pixel row y shows row z = y + int(P·H) of B
// where 0 ≤ z < H, else of A at z wrapped into 0 … H − 1: A slides down, B follows from above.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int H = int(segue_resolution.y);
    vec2 px = segue_pixel(uv);
    int z = int(P * segue_resolution.y) + int(px.y);
    int zz = z < 0 ? z + H : (z >= H ? z - H : z);
    vec2 at = segue_moved(uv, vec2(px.x, float(zz)));
    return z >= 0 && z < H ? getToColor(at) : getFromColor(at);
}
