// FFmpeg xfade "wipeup" (P = 1 − p, xfade's progress): A where the pixel's row y ≤ z = int(H·P), B below: B is revealed
// from the bottom.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int z = int(segue_resolution.y * P);
    return int(segue_pixel(uv).y) > z ? getToColor(uv) : getFromColor(uv);
}
