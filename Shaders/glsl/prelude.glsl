#version 300 es
// Shared prelude: precision, the gl-transitions uniforms and the layer lookups.
precision highp float;
precision highp int;

uniform sampler2D uFrom;     // outgoing clip (A), stored picture, RGBA
uniform sampler2D uTo;       // incoming clip (B)
uniform mat3 uFromMap;       // output uv (0..1, top-left origin) -> source uv of A
uniform mat3 uToMap;         // same for B
uniform vec2 uResolution;    // render size in pixels
uniform float progress;      // 0..1, GLSL mix semantics (0 = only A)
uniform float ratio;         // width / height of the render size
uniform vec2 direction;      // unit step per axis, x right, y down

const vec4 background = vec4(0.0, 0.0, 0.0, 1.0);

// Rotation, display aspect and fit are fused into the lookup: uv -> source uv, then one bilinear fetch.
// Outside the source picture the background shows (letterbox bars, pushed-out areas).
vec4 sampleLayer(sampler2D tex, mat3 map, vec2 uv) {
    vec2 st = (map * vec3(uv, 1.0)).xy;
    if (st.x < 0.0 || st.x > 1.0 || st.y < 0.0 || st.y > 1.0) return background;
    return texture(tex, st);
}
vec4 getFromColor(vec2 uv) {
    if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0) return background;
    return sampleLayer(uFrom, uFromMap, uv);
}
vec4 getToColor(vec2 uv) {
    if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0) return background;
    return sampleLayer(uTo, uToMap, uv);
}
