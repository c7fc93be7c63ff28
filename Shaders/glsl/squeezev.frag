// FFmpeg xfade "squeezev" (P = 1 − p, xfade's progress): with z = 0.5 + (x/W − 0.5)/P, column x shows A's column
// roundEven(z·(W − 1)) where 0 ≤ z ≤ 1, else B: A is squeezed horizontally into its middle column. (At P = 0, where xfade divides by zero, B.)
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv);
    if (P <= 0.0) return getToColor(uv);
    float z = 0.5 + (px.x / segue_resolution.x - 0.5) / P;
    if (z < 0.0 || z > 1.0) return getToColor(uv);
    return getFromColor(segue_moved(uv, vec2(roundEven(z * (segue_resolution.x - 1.0)), px.y)));
}
