extension CPUTransitions {
    /// `horzclose.frag` (FFmpeg xfade "horzclose").
    @inline(__always) static func horzclose(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 1 + abs((px.y - res.y / 2) / (res.y / 2)) - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
