// Entry point; uv has a top-left origin because rows are read back top first.
// OUTPUT 0: R'G'B'A at each pixel centre (previews).
// OUTPUT 1: the output's luma, BT.709 limited range, into an R8 target of the render size.
// OUTPUT 2: Cb and Cr into two R8 targets of half the render size; each fragment is a chroma sample and
//           takes the composite at its site: (2i + 0.5, 2j + 0.5) + uChromaSite in output pixels (left: (0, 0.5)).
// FUSED: the layers already give the output's values (LayerColourMap; transitions that only mix and select
//        colours); otherwise the composite is R'G'B' and is converted here (RGBToOutputYCbCr rows).
uniform vec4 uRowY;          // value = dot(row.xyz, R'G'B') + row.w
uniform vec4 uRowCb;
uniform vec4 uRowCr;
uniform vec2 uChromaSite;
#if OUTPUT == 2
layout(location = 0) out vec4 fragCb;
layout(location = 1) out vec4 fragCr;
#else
out vec4 fragColor;
#endif
void main() {
#if OUTPUT == 0
    fragColor = transition(gl_FragCoord.xy / uResolution);
#elif OUTPUT == 1
    vec3 c = transition(gl_FragCoord.xy / uResolution).rgb;
#if FUSED
    fragColor = vec4(c.r, 0.0, 0.0, 1.0);
#else
    fragColor = vec4(dot(uRowY.xyz, c) + uRowY.w, 0.0, 0.0, 1.0);
#endif
#else
    vec3 c = transition((gl_FragCoord.xy * 2.0 - 0.5 + uChromaSite) / uResolution).rgb;
#if FUSED
    fragCb = vec4(c.r, 0.0, 0.0, 1.0);
    fragCr = vec4(c.g, 0.0, 0.0, 1.0);
#else
    fragCb = vec4(dot(uRowCb.xyz, c) + uRowCb.w, 0.0, 0.0, 1.0);
    fragCr = vec4(dot(uRowCr.xyz, c) + uRowCr.w, 0.0, 0.0, 1.0);
#endif
#endif
}
