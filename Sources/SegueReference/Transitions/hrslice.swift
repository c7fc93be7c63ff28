extension CPUTransitions {
    /// `hrslice.frag` (FFmpeg xfade "hrslice").
    @inline(__always) static func hrslice(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let v = (t.resolution.x - 1 - t.pixel(uv).x) / t.resolution.x
        let s = smoothstep(-0.5, 0, v - P * 1.5)
        return s <= fract(10 * v) ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
