extension CPUTransitions {
    /// `fadegrays.frag` (FFmpeg xfade "fadegrays"); parameter 0: phase.
    @inline(__always) static func fadegrays(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress, phase = t.parameters[0]
        func grey(_ c: SIMD4<Float>) -> SIMD4<Float> {
            var g = t.fromYCbCr(SIMD3(t.toYCbCr(c).x, t.neutralChroma, t.neutralChroma))
            g.w = c.w   // the grey keeps the layer's alpha, as `grey` in the shader
            return g
        }
        let a = t.getFromColor(uv), b = t.getToColor(uv)
        let outgoing = mix(grey(a), a, smoothstep(1 - phase, 1, P))
        let incoming = mix(b, grey(b), smoothstep(phase, 1, P))
        return mix(incoming, outgoing, P)
    }
}
