extension CPUTransitions {
    /// `vertopen.frag` (FFmpeg xfade "vertopen").
    @inline(__always) static func vertopen(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 2 - abs((px.x - res.x / 2) / (res.x / 2)) - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
