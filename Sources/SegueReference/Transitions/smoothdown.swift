extension CPUTransitions {
    /// `smoothdown.frag` (FFmpeg xfade "smoothdown").
    @inline(__always) static func smoothdown(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv), res = t.resolution
        let s = smoothstep(0, 1, 1 + (res.y - 1 - px.y) / res.y - P * 2)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
