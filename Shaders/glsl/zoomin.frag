// FFmpeg xfade "zoomin" (P = 1 − p, xfade's progress): A is read at ceil((u, v)·(W − 1, H − 1)) with
// (u, v) = ½ + ((x/W, y/H) − ½)·smoothstep(0.5, 1, P), and B's share is 1 − smoothstep(0, 0.5, P): A zooms in on
// its centre over the first half, then B fades in over it.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec2 z = 0.5 + (segue_pixel(uv) / segue_resolution - 0.5) * smoothstep(0.5, 1.0, P);
    vec4 a = getFromColor(segue_moved(uv, ceil(z * (segue_resolution - 1.0))));
    return mix(getToColor(uv), a, smoothstep(0.0, 0.5, P));
}
