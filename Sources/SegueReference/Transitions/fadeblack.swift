extension CPUTransitions {
    /// `fadeblack.frag` (FFmpeg xfade "fadeblack"); parameter 0: phase.
    @inline(__always) static func fadeblack(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress, phase = t.parameters[0]
        let outgoing = mix(t.black, t.getFromColor(uv), smoothstep(1 - phase, 1, P))
        let incoming = mix(t.getToColor(uv), t.black, smoothstep(phase, 1, P))
        return mix(incoming, outgoing, P)
    }
}
