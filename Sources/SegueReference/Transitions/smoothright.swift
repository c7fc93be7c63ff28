extension CPUTransitions {
    /// `smoothright.frag` (FFmpeg xfade "smoothright").
    @inline(__always) static func smoothright(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 1 + (res.x - 1 - px.x) / res.x - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
