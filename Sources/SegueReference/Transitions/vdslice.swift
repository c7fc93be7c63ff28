extension CPUTransitions {
    /// `vdslice.frag` (FFmpeg xfade "vdslice").
    @inline(__always) static func vdslice(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let v = (t.resolution.y - 1 - t.pixel(uv).y) / t.resolution.y
        let s = smoothstep(-0.5, 0, v - P * 1.5)
        return s <= fract(10 * v) ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
