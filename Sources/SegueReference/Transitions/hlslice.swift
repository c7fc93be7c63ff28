extension CPUTransitions {
    /// `hlslice.frag` (FFmpeg xfade "hlslice").
    @inline(__always) static func hlslice(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let p = t.pixel(uv).x, v = p / t.resolution.x
        let s = smoothstep(-0.5, 0, v - P * 1.5)
        return s <= fract(10 * p / t.resolution.x) ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
