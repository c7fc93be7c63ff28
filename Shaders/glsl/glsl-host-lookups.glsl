// The lookups of a gl-transitions shader (its getFromColor/getToColor are renamed to these, GLTransitionHost):
// uv with the origin at the bottom left, as in the specification's reference host, and lookups outside 0..1
// clamped to the edge, as every host does (Segue's own getFromColor shows black there).
vec4 segue_glFromColor(vec2 uv) {
    return getFromColor(clamp(vec2(uv.x, 1.0 - uv.y), 0.0, 1.0));
}
vec4 segue_glToColor(vec2 uv) {
    return getToColor(clamp(vec2(uv.x, 1.0 - uv.y), 0.0, 1.0));
}
