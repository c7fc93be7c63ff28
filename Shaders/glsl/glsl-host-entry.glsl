// Segue's transition() around a gl-transitions shader's (renamed segue_glTransition): uv flipped to the
// specification's bottom-left origin; a colour with alpha below 1 is composited over black.
vec4 transition(vec2 uv) {
    vec4 c = segue_glTransition(vec2(uv.x, 1.0 - uv.y));
    return vec4(mix(segue_black.rgb, c.rgb, clamp(c.a, 0.0, 1.0)), 1.0);
}
