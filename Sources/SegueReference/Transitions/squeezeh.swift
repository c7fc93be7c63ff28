extension CPUTransitions {
    /// `squeezeh.frag` (FFmpeg xfade "squeezeh").
    @inline(__always) static func squeezeh(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        if P <= 0 { return t.getToColor(uv) }
        let z = 0.5 + (px.y / t.resolution.y - 0.5) / P
        if z < 0 || z > 1 { return t.getToColor(uv) }
        return t.getFromColor(t.moved(uv, SIMD2(px.x, (z * (t.resolution.y - 1)).rounded(.toNearestOrEven))))
    }
}
