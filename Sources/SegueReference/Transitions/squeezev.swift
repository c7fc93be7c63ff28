extension CPUTransitions {
    /// `squeezev.frag` (FFmpeg xfade "squeezev").
    @inline(__always) static func squeezev(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        if P <= 0 { return t.getToColor(uv) }
        let z = 0.5 + (px.x / t.resolution.x - 0.5) / P
        if z < 0 || z > 1 { return t.getToColor(uv) }
        return t.getFromColor(t.moved(uv, SIMD2((z * (t.resolution.x - 1)).rounded(.toNearestOrEven), px.y)))
    }
}
