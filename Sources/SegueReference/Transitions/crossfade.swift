extension CPUTransitions {
    /// `crossfade.frag`: `mix(A, B, p)`.
    @inline(__always) static func crossfade(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        t.getFromColor(uv) * (1 - t.progress) + t.getToColor(uv) * t.progress
    }
}
