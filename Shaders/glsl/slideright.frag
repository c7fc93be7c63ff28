// FFmpeg xfade "slideright" (P = 1 − p, xfade's progress): pixel x shows column z = x + int(P·W) of B
// where 0 ≤ z < W, else of A at z wrapped into 0 … W − 1: A slides out to the right, B follows from the left.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int W = int(segue_resolution.x);
    vec2 px = segue_pixel(uv);
    int z = int(P * segue_resolution.x) + int(px.x);
    int zz = z < 0 ? z + W : (z >= W ? z - W : z);
    vec2 at = segue_moved(uv, vec2(float(zz), px.y));
    return z >= 0 && z < W ? getToColor(at) : getFromColor(at);
}
