// FFmpeg xfade "circlecrop" (P = 1 − p, xfade's progress): black outside the circle about (W/2, H/2) (integer
// halves) of radius z = (2·|P − 0.5|)³·hypot(W/2, H/2); inside it A while P ≥ 0.5, then B.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 c = vec2(ivec2(segue_resolution) / 2);
    float r = 2.0 * abs(P - 0.5);
    vec2 d = segue_pixel(uv) - c;
    if (r * r * r * sqrt(dot(c, c)) < sqrt(dot(d, d))) return segue_black;
    return P < 0.5 ? getToColor(uv) : getFromColor(uv);
}
