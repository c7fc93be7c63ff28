extension CPUTransitions {
    /// `smoothleft.frag` (FFmpeg xfade "smoothleft").
    @inline(__always) static func smoothleft(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 1 + px.x / res.x - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
