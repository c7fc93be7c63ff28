extension CPUTransitions {
    /// `fadewhite.frag` (FFmpeg xfade "fadewhite"); parameter 0: phase.
    @inline(__always) static func fadewhite(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress, phase = t.parameters[0]
        let outgoing = mix(t.white, t.getFromColor(uv), smoothstep(1 - phase, 1, P))
        let incoming = mix(t.getToColor(uv), t.white, smoothstep(phase, 1, P))
        return mix(incoming, outgoing, P)
    }
}
