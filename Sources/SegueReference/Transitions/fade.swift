extension CPUTransitions {
    /// `fade.frag` (FFmpeg xfade "fade").
    @inline(__always) static func fade(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        mix(t.getFromColor(uv), t.getToColor(uv), t.progress)
    }
}
