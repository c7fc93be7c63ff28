// FFmpeg xfade "pixelize" (P = 1 − p, xfade's progress): both clips are read at the centres of square blocks of
// side 2d·min(W, H)/20, d = ceil(50·min(P, 1 − P))/50, and crossfaded: the blocks grow to min(W, H)/20 at p = ½.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 px = segue_pixel(uv);
    float d = ceil(min(P, 1.0 - P) * 50.0) / 50.0;
    float sq = 2.0 * d * min(segue_resolution.x, segue_resolution.y) / 20.0;
    vec2 s = d > 0.0 ? floor(min((floor(px / sq) + 0.5) * sq, segue_resolution - 1.0)) : px;
    vec2 at = segue_moved(uv, s);
    return mix(getToColor(at), getFromColor(at), P);
}
