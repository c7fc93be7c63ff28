extension CPUTransitions {
    /// `horzopen.frag` (FFmpeg xfade "horzopen").
    @inline(__always) static func horzopen(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 2 - abs((px.y - res.y / 2) / (res.y / 2)) - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
