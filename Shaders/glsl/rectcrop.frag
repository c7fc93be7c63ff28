// FFmpeg xfade "rectcrop" (P = 1 − p, xfade's progress): black outside |x − W/2| < int(|P − 0.5|·W),
// |y − H/2| < int(|P − 0.5|·H) (integer halves); inside it A while P ≥ 0.5, then B. (So column 0 and row 0 are
// black even at p = 0 and p = 1, as in xfade.)
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    ivec2 d = abs(ivec2(segue_pixel(uv)) - ivec2(segue_resolution) / 2);
    ivec2 z = ivec2(abs(P - 0.5) * segue_resolution);
    if (!(d.x < z.x && d.y < z.y)) return segue_black;
    return P < 0.5 ? getToColor(uv) : getFromColor(uv);
}
