extension CPUTransitions {
    /// `vuslice.frag` (FFmpeg xfade "vuslice").
    @inline(__always) static func vuslice(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let p = t.pixel(uv).y, v = p / t.resolution.y
        let s = smoothstep(-0.5, 0, v - P * 1.5)
        return s <= fract(10 * p / t.resolution.y) ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
