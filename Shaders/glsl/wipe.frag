// Wipe (crop-rectangle ramp): A stays visible inside a rectangle that shrinks as its edge travels along
// direction; B shows elsewhere. Per axis: +1 keeps A where uv >= p, -1 keeps A where uv < 1 - p.
// down-right: A where x >= p·W and y >= p·H.
vec4 transition(vec2 uv) {
    bool inA = true;
    if (segue_direction.x > 0.5) inA = inA && uv.x >= progress;
    if (segue_direction.x < -0.5) inA = inA && uv.x < 1.0 - progress;
    if (segue_direction.y > 0.5) inA = inA && uv.y >= progress;
    if (segue_direction.y < -0.5) inA = inA && uv.y < 1.0 - progress;
    return inA ? getFromColor(uv) : getToColor(uv);
}
