// FFmpeg xfade "squeezeh" (P = 1 − p, xfade's progress): with z = 0.5 + (y/H − 0.5)/P, row y shows A's row
// roundEven(z·(H − 1)) where 0 ≤ z ≤ 1, else B: A is squeezed vertically into its middle row. (At P = 0, where xfade divides by zero, B.)
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv);
    if (P <= 0.0) return getToColor(uv);
    float z = 0.5 + (px.y / segue_resolution.y - 0.5) / P;
    if (z < 0.0 || z > 1.0) return getToColor(uv);
    return getFromColor(segue_moved(uv, vec2(px.x, roundEven(z * (segue_resolution.y - 1.0)))));
}
